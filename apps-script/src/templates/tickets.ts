/// <reference types="google-apps-script" />
/**
 * Ticket tracker: the customer's quality tickets created in the window (LINEN_TICKETS), a count per status above
 * them, and a pie chart of those counts.
 */
import { BODY_ROW, CUSTOMER, chart, DAY, FROM, header, labels, type ReportParams, type Sheet, TO } from './layout.ts';

const STATUSES = ['Submitted', 'Acknowledged', 'In progress', 'Resolved'];

export function buildTickets(sheet: Sheet, zones: { org: string; sheet: string }, p: ReportParams): void {
  header(sheet, `Ticket tracker: ${p.customer || 'all customers'}`, p, zones, {
    dated: true,
    note: 'Tickets created between From and To; the counts follow the list below.',
  });
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
