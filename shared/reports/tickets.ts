/**
 * Quality tickets with whose they are. A ticket carries no customer; the API filters tickets by
 * `customer_id`, so a listing across customers is one listing per customer, each ticket tagged with it.
 */
import type { QualityTicket, TicketStatus } from '../schemas/quality.ts';

export type CustomerTicket = QualityTicket & { customerId: string };

/** The statuses a ticket is open in (not yet resolved). */
export const OPEN_TICKET_STATUSES: readonly TicketStatus[] = ['new', 'acknowledged', 'in_progress'];

/** The status filter to send for `statuses`: the API takes one; several are filtered here. */
export const apiStatus = (statuses: readonly TicketStatus[] | undefined) =>
  statuses?.length === 1 ? statuses[0] : undefined;

/** One customer's listing, kept to `statuses` and tagged with the customer. */
export function tagTickets(
  customerId: string,
  tickets: readonly QualityTicket[],
  statuses?: readonly TicketStatus[],
): CustomerTicket[] {
  return tickets
    .filter((t) => !statuses || (statuses as readonly string[]).includes(t.status))
    .map((t) => ({ ...t, customerId }));
}

/** Newest first, then by number. */
export const newestFirst = (a: QualityTicket, b: QualityTicket) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.ticket_number.localeCompare(b.ticket_number);
