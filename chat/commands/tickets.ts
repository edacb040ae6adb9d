/** `tickets [customer] [status]`: quality tickets by status (open ones by default), each with its customer. */

import { OPEN_TICKET_STATUSES } from '../../shared/reports/index.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import { customerFor, namesOf, ownOrLocations } from '../answers/customers.ts';
import { ticketsView } from '../views/tickets.ts';
import { data, defineCommand, info, noted, quoted } from './command.ts';

const TICKET_FILTERS = ['open', 'new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const;
export type TicketFilter = (typeof TICKET_FILTERS)[number];

interface TicketsArgs {
  status: TicketFilter;
  customer?: string | undefined;
}

const ticketFilter = (words: readonly string[]): TicketFilter | undefined => {
  const s = words.join('_').toLowerCase().replace(/-/g, '_');
  return (TICKET_FILTERS as readonly string[]).includes(s) ? (s as TicketFilter) : undefined;
};

export const ticketsCommand = defineCommand({
  name: 'tickets',
  access: 'operations',
  help: {
    usage: `tickets [customer] [${TICKET_FILTERS.join('|')}]`,
    description: 'Quality tickets by status (open ones by default), each with its customer.',
    examples: ['tickets', 'tickets Harborview Hotel', 'tickets Mercy General Hospital resolved'],
    // Not in Teams' 1:1 list, whose 12 places hold `home` (and `ticket`): typed there, listed in channels.
    menu: { summary: 'Quality tickets by status: tickets [customer] [status]', in: ['channel'] },
  },
  /** A status is the last word or two (`in progress`); the words before, the customer. */
  parse({ words }): TicketsArgs {
    for (const n of [2, 1]) {
      if (words.length < n) continue;
      const status = ticketFilter(words.slice(-n));
      if (status) {
        const rest = words.slice(0, -n);
        return { status, customer: rest.length ? rest.join(' ') : undefined };
      }
    }
    return { status: 'open', customer: words.length ? words.join(' ') : undefined };
  },
  format: (a: TicketsArgs) =>
    ['tickets', a.customer ? quoted(a.customer) : undefined, a.status === 'open' && !a.customer ? undefined : a.status]
      .filter(Boolean)
      .join(' '),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const customers = await ctx.linen.customers();
    let customer: Customer | undefined;
    if (a.customer) {
      const r = await ctx.linen.resolveCustomer(a.customer);
      if (r.kind === 'none' && !/\s/.test(r.input))
        return info(
          ctx.usage(`“${r.input}” is neither a customer nor a ticket status (${TICKET_FILTERS.join(', ')}).`),
        );
      const found = await customerFor(ctx, a.customer);
      if ('reply' in found) return info(found.reply);
      customer = found.customer;
    }
    // A ticket does not say whose it is: one listing per customer, each ticket tagged with it.
    const statuses = a.status === 'open' ? OPEN_TICKET_STATUSES : [a.status];
    const tickets = await ownOrLocations(ctx, customer, 'tickets', (ids) =>
      ctx.linen.client.reports.tickets({ customerIds: ids ?? customers.map((c) => c.id), statuses }),
    );
    const message = ticketsView(tickets.rows, a.status, ctx.linen.timeZone, {
      customerNames: namesOf(customers),
      customerName: tickets.note ? undefined : customer?.name,
    });
    return data(noted(message, tickets.note));
  },
});
