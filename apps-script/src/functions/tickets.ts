/** Quality tickets and delivery ratings. */

import {
  groupLocations,
  newestFirst,
  parseTicketNumber,
  TICKET_STATUSES,
  tagTickets,
  ticketStatusLabel,
} from '../../../shared/index.ts';
import { ticketWindow } from '../../../shared/reports/lookup.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import { choice, isBlank, window } from '../context.ts';
import type { Cell } from '../format.ts';
import { ArgError } from '../messages.ts';
import { type Impl, listing, optCustomer } from './common.ts';

export const TICKET_IMPLS: Record<string, Impl> = {
  LINEN_TICKET(ctx, a) {
    const one = (input: unknown, inRange: boolean): Cell => {
      if (isBlank(input)) {
        if (inRange) return '';
        throw new ArgError('ticket_number is required, e.g. "TKT-26-00417".');
      }
      const { number, year } = parseTicketNumber(String(input));
      const tickets = ctx.rows('qualityTickets.list', { ...ticketWindow(year) }, (c) => c.qualityTickets.list);
      const found = tickets.find((t) => t.ticket_number === number);
      if (found) return ticketStatusLabel(found);
      if (inRange) return 'Not found';
      throw new ArgError(`No ticket ${number} is visible to this key.`);
    };
    const v = a.ticket_number;
    if (Array.isArray(v)) return v.map((row: unknown[]) => row.map((c) => one(c, true)));
    return one(v, false);
  },

  LINEN_TICKETS(ctx, a) {
    const customer = optCustomer(ctx, a.customer);
    const w = window(ctx, a.from, a.to, false);
    const status = choice(a.status, 'status', TICKET_STATUSES);
    // A ticket does not say whose it is: one listing per customer, each ticket tagged with it.
    const ticketsOf = (customers: readonly { id: string }[]) =>
      customers
        .flatMap((c) =>
          tagTickets(
            c.id,
            ctx.rows('qualityTickets.list', { customerId: c.id, ...w, status }, (x) => x.qualityTickets.list),
          ),
        )
        .sort(newestFirst);
    let tickets = ticketsOf(customer ? [customer] : ctx.customers());
    // A group with no tickets of its own: its suggested locations' tickets, each naming its customer.
    if (customer?.is_group && !tickets.length) tickets = ticketsOf(groupLocations(customer, ctx.customers()));
    return grid(ctx, tickets, [
      'ticket_number',
      col.customer('customerId', 'Customer'),
      col.computed('Status', ticketStatusLabel),
      'kind_label',
      'subject',
      col.time('created_at'),
      col.time('acknowledged_at'),
      col.time('resolved_at'),
      col.time('last_correspondence_at'),
      col.value('resolution_note', 'Resolution'),
    ]);
  },

  LINEN_RATINGS: listing('ratings.list', (c) => c.ratings.list).columns([
    col.time('created_at', 'Rated'),
    col.customer('customer_id'),
    'manifest_number',
    'on_time',
    col.value('quality_rating', 'Quality (1-5)'),
    'note',
  ]),
};
