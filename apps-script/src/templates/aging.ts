/// <reference types="google-apps-script" />
/**
 * A/R aging: LINEN_AGING per customer with a stacked column chart of the buckets, then the open invoices
 * (balance above zero) with the days each is overdue (a column of LINEN_INVOICES).
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
  // LINEN_INVOICES columns: Invoice, Status, Customer, Department, Issued, Due, Days overdue, Paid, Subtotal,
  // Surcharges, Tax, Total, Balance, Currency. Open means a balance above zero (Col13); oldest due first (Col6).
  sheet
    .getRange(table, 1)
    .setFormula(`=QUERY(LINEN_INVOICES(${CUSTOMER}, ${FROM}, ${TO}), "select * where Col13 > 0 order by Col6", 1)`);
  sheet.getRange(table + 1, 5, 500, 2).setNumberFormat(DAY);
  sheet.getRange(table + 1, 7, 500, 1).setNumberFormat('0');
  sheet.getRange(table + 1, 8, 500, 1).setNumberFormat(DAY);
  sheet.getRange(table + 1, 9, 500, 5).setNumberFormat(MONEY);
  sheet.setFrozenRows(4);
}
