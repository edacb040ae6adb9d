/// <reference types="google-apps-script" />
/**
 * A/R aging: LINEN_AGING per customer with a stacked column chart of the buckets, then the open invoices
 * (balance above zero) with the days each is overdue, counted from its due day to today.
 */
import { BODY_ROW, CUSTOMER, chart, DAY, FROM, labels, MONEY, type Sheet, TO } from './layout.ts';

export const AGING_NOTE =
  'Aging is as of today; the invoice list is limited to invoices issued between From and To (leave them empty for all).';

export function buildAging(sheet: Sheet, customers: number): void {
  labels(sheet, BODY_ROW - 1, 1, ['Aging by customer']);
  sheet.getRange(BODY_ROW, 1).setFormula(`=LINEN_AGING(${CUSTOMER})`);
  // Header, one row per customer, and a total row per currency (at most a few).
  const agingRows = 1 + customers + (customers > 1 ? 2 : 0);
  const agingEnd = BODY_ROW + agingRows - 1;
  sheet.getRange(BODY_ROW + 1, 3, agingRows - 1, 5).setNumberFormat(MONEY);
  chart(sheet, {
    type: Charts.ChartType.COLUMN,
    ranges: [`A${BODY_ROW}:A${agingEnd}`, `C${BODY_ROW}:F${agingEnd}`],
    row: BODY_ROW,
    column: 10,
    options: { title: 'Receivables by age', isStacked: true, 'vAxis.format': '#,##0' },
  });

  const title = agingEnd + 3;
  const table = title + 1;
  labels(sheet, title, 1, ['Open invoices']);
  // LINEN_INVOICES columns: Invoice, Status, Customer, Issued, Due, Paid, Subtotal, Surcharges, Tax, Total, Balance, Currency.
  sheet
    .getRange(table, 1)
    .setFormula(`=QUERY(LINEN_INVOICES(${CUSTOMER}, ${FROM}, ${TO}), "select * where Col11 > 0 order by Col5", 1)`);
  labels(sheet, table, 13, ['Days overdue']);
  const due = `E${table + 1}:E`;
  sheet
    .getRange(table + 1, 13)
    .setFormula(`=ARRAYFORMULA(IF(${due}="", "", IF(TODAY()>${due}, INT(TODAY()-${due}), 0)))`);
  sheet.getRange(table + 1, 4, 500, 3).setNumberFormat(DAY);
  sheet.getRange(table + 1, 7, 500, 5).setNumberFormat(MONEY);
  sheet.getRange(table + 1, 13, 500, 1).setNumberFormat('0');
  sheet.setFrozenRows(4);
}
