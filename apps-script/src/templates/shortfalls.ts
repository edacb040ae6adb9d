/// <reference types="google-apps-script" />
/**
 * Open shortfalls: the open and acknowledged shortfall signals (LINEN_SIGNALS), high-severity rows shaded, and
 * a bar chart of the suggested order per item.
 */
import { addRules, BODY_ROW, CUSTOMER, chart, DAY, type Sheet } from './layout.ts';

const ROWS = 200;

export const SHORTFALLS_NOTE = 'Shortfall signals the nightly run raised and nobody has resolved or dismissed yet.';

export function buildShortfalls(sheet: Sheet): void {
  // Columns: Severity, Kind, Status, Customer, Department, Item, Summary, Suggested order, Window start, Window end, Generated.
  sheet.getRange(BODY_ROW, 1).setFormula(`=LINEN_SIGNALS("shortfall", , ${CUSTOMER})`);
  sheet.getRange(BODY_ROW + 1, 9, ROWS, 2).setNumberFormat(DAY);
  const body = sheet.getRange(BODY_ROW + 1, 1, ROWS, 11);
  addRules(sheet, [
    SpreadsheetApp.newConditionalFormatRule()
      .whenFormulaSatisfied(`=$A${BODY_ROW + 1}="High"`)
      .setBackground('#f4c7c3')
      .setRanges([body])
      .build(),
  ]);
  sheet.setFrozenRows(BODY_ROW);
  chart(sheet, {
    type: Charts.ChartType.BAR,
    ranges: [`F${BODY_ROW}:F${BODY_ROW + 30}`, `H${BODY_ROW}:H${BODY_ROW + 30}`],
    row: 2,
    column: 13,
    options: { title: 'Suggested order by item', legend: 'none' },
  });
}
