/// <reference types="google-apps-script" />
/**
 * History: one customer's rows of the Linen history sheet over the window (FILTER, so new days appear as they
 * are recorded), charted: fill rate and par met, and the open balance with its 61+ days part.
 */
import { HISTORY_COLUMNS, HISTORY_SHEET } from '../history.ts';
import { BODY_ROW, CUSTOMER, chart, DAY, FROM, labels, MONEY, PERCENT, type Sheet, TO } from './layout.ts';

const ROWS = 400;

export const HISTORY_NOTE = `The rows of "${HISTORY_SHEET}" for this customer between From and To.`;

export function buildHistoryCharts(sheet: Sheet, customer: string): void {
  labels(
    sheet,
    BODY_ROW,
    1,
    HISTORY_COLUMNS.map((c) => c[0]),
  );
  const h = `'${HISTORY_SHEET}'`;
  sheet
    .getRange(BODY_ROW + 1, 1)
    .setFormula(`=IFERROR(FILTER(${h}!A2:J, ${h}!B2:B=${CUSTOMER}, ${h}!A2:A>=${FROM}, ${h}!A2:A<=${TO}), "")`);
  sheet.getRange(BODY_ROW + 1, 1, ROWS, 1).setNumberFormat(DAY);
  sheet.getRange(BODY_ROW + 1, 4, ROWS, 2).setNumberFormat(PERCENT);
  sheet.getRange(BODY_ROW + 1, 7, ROWS, 2).setNumberFormat(MONEY);
  sheet.setFrozenRows(BODY_ROW);
  const end = BODY_ROW + ROWS;
  chart(sheet, {
    type: Charts.ChartType.LINE,
    ranges: [`A${BODY_ROW}:A${end}`, `D${BODY_ROW}:E${end}`],
    row: 2,
    column: 12,
    options: { title: `Fill rate and par met, 7-day: ${customer}`, 'vAxis.format': 'percent' },
  });
  chart(sheet, {
    type: Charts.ChartType.LINE,
    ranges: [`A${BODY_ROW}:A${end}`, `G${BODY_ROW}:H${end}`],
    row: 22,
    column: 12,
    options: { title: `Open balance and 61+ days: ${customer}`, 'vAxis.format': '#,##0' },
  });
}
