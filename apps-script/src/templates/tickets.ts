/// <reference types="google-apps-script" />
/**
 * Ticket tracker: the customer's quality tickets created in the window (LINEN_TICKETS), a count per status above
 * them, and a pie chart of those counts.
 */
import { BODY_ROW, CUSTOMER, chart, DAY, FROM, labels, type Sheet, TO } from './layout.ts';

const STATUSES = ['Submitted', 'Acknowledged', 'In progress', 'Resolved'];

export const TICKETS_NOTE = 'Tickets created between From and To; the counts follow the list below.';

export function buildTickets(sheet: Sheet): void {
  const table = BODY_ROW + STATUSES.length + 3;
  labels(sheet, BODY_ROW, 1, ['Status', 'Tickets']);
  sheet.getRange(BODY_ROW + 1, 1, STATUSES.length, 1).setValues(STATUSES.map((s) => [s]));
  sheet
    .getRange(BODY_ROW + 1, 2, STATUSES.length, 1)
    .setFormulas(STATUSES.map((_, i) => [`=COUNTIF($B$${table + 1}:$B, A${BODY_ROW + 1 + i})`]));
  // Columns: Ticket, Status, Kind, Subject, Created, Acknowledged, Resolved, Last correspondence, Resolution.
  sheet.getRange(table, 1).setFormula(`=LINEN_TICKETS(${CUSTOMER}, ${FROM}, ${TO})`);
  sheet.getRange(table + 1, 5, 500, 4).setNumberFormat(`${DAY} hh:mm`);
  sheet.setFrozenRows(4);
  chart(sheet, {
    type: Charts.ChartType.PIE,
    ranges: [`A${BODY_ROW}:B${BODY_ROW + STATUSES.length}`],
    row: BODY_ROW,
    column: 4,
    options: { title: 'Tickets by status', pieHole: 0.4 },
  });
}
