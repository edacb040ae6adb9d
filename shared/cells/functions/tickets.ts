/** Quality tickets and delivery ratings. */

import type { Operation } from '../../core/effects.ts';
import {
  groupLocations,
  newestFirst,
  parseTicketNumber,
  TICKET_STATUSES,
  tagTickets,
  ticketStatusLabel,
} from '../../index.ts';
import { ticketWindow } from '../../reports/lookup.ts';
import { choice, isBlank } from '../args.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import { ArgError } from '../messages.ts';
import type { Cell } from '../values.ts';
import { type Impl, listing, optCustomer } from './common.ts';

export const TICKET_IMPLS: Record<string, Impl> = {
  *LINEN_TICKET(ctx, a) {
    function* one(input: unknown, inRange: boolean): Operation<Cell> {
      if (isBlank(input)) {
        if (inRange) return '';
        throw new ArgError('ticket_number is required, e.g. "TKT-26-00417".');
      }
      const { number, year } = parseTicketNumber(String(input));
      const tickets = yield* ctx.rows('qualityTickets.list', { ...ticketWindow(year) }, (x) => x.qualityTickets.list);
      const found = tickets.find((t) => t.ticket_number === number);
      if (found) return ticketStatusLabel(found);
      if (inRange) return 'Not found';
      throw new ArgError(`No ticket ${number} is visible to this key.`);
    }
    const v = a.ticket_number;
    if (!Array.isArray(v)) return yield* one(v, false);
    const out: Cell[][] = [];
    for (const row of v as unknown[][]) {
      const cells: Cell[] = [];
      for (const c of row) cells.push(yield* one(c, true));
      out.push(cells);
    }
    return out;
  },

  *LINEN_TICKETS(ctx, a) {
    const customer = yield* optCustomer(ctx, a.customer);
    const w = ctx.window(a.from, a.to, false);
    const status = choice(a.status, 'status', TICKET_STATUSES);
    // A ticket does not say whose it is: one listing per customer, each ticket tagged with it.
    function* ticketsOf(customers: readonly { id: string }[]) {
      const tagged = [];
      for (const c of customers)
        tagged.push(
          ...tagTickets(
            c.id,
            yield* ctx.rows('qualityTickets.list', { customerId: c.id, ...w, status }, (x) => x.qualityTickets.list),
          ),
        );
      return tagged.sort(newestFirst);
    }
    let tickets = yield* ticketsOf(customer ? [customer] : yield* ctx.customers());
    // A group with no tickets of its own: its suggested locations' tickets, each naming its customer.
    if (customer?.is_group && !tickets.length)
      tickets = yield* ticketsOf(groupLocations(customer, yield* ctx.customers()));
    return yield* grid(ctx, tickets, [
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

  LINEN_RATINGS: listing('ratings.list', (x) => x.ratings.list).columns([
    col.time('created_at', 'Rated'),
    col.customer('customer_id'),
    'manifest_number',
    'on_time',
    col.value('quality_rating', 'Quality (1-5)'),
    'note',
  ]),
};
