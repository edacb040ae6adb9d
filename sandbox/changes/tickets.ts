/**
 * Quality tickets: one opened by a customer, and a ticket taken through its statuses with the customer-visible
 * events the seeded tickets carry at each step (the seed's wording), a comment, or reopened after resolution.
 *
 * Steps are never skipped: moving a new ticket to `resolved` acknowledges it and puts it in progress first, each
 * step its own event a millisecond after the one before. `acknowledged_at` and `resolved_at` are the instants of
 * those steps, `resolution_note` is set on resolving (and cleared on reopening), `last_correspondence_at` is the
 * newest event once there is more than the creation, and `status_label` follows the status.
 */
import type { QualityTicket, TicketStatus } from '../model.ts';
import { ticketRow } from '../routes/feedback.ts';
import { firstFreeNumber } from '../seed/numbers.ts';
import { KIND_LABELS, STATUS_LABELS, TICKETS_PER_DAY } from '../seed/quality.ts';
import { localDay } from '../server/dates.ts';
import { invalidParams, notFound } from '../server/errors.ts';
import { type ChangeContext, customerOf, inserted, isoOf, newestFirst, type Outcome, replaced } from './context.ts';
import type { ChangeTicket, OpenTicket } from './input.ts';

/** A ticket as `/v1/quality-tickets` lists it: its customer is never served. */
export type TicketRow = ReturnType<typeof ticketRow>;

const ORDER: readonly TicketStatus[] = ['new', 'acknowledged', 'in_progress', 'resolved', 'verified'];
type TicketEvent = QualityTicket['customer_visible_events'][number];

export function openTicket(ctx: ChangeContext, input: OpenTicket): Outcome<TicketRow> {
  const { data } = ctx;
  const customer = customerOf(data, input.customer_id);
  const created = isoOf(ctx.at());
  const ticket: QualityTicket = {
    id: ctx.newId(),
    ticket_number: firstFreeNumber(
      { prefix: 'TKT', digits: 5, perDay: TICKETS_PER_DAY },
      localDay(created, ctx.timeZone),
      data.tickets.map((t) => t.ticket_number),
    ),
    kind: input.kind,
    kind_label: KIND_LABELS[input.kind] ?? 'Other',
    status: 'new',
    status_label: STATUS_LABELS.new,
    subject: input.subject,
    created_at: created,
    acknowledged_at: null,
    resolved_at: null,
    last_correspondence_at: null,
    resolution_note: null,
    customer_visible_events: [
      { event_type: 'created', actor_kind: 'customer', body: input.subject, created_at: created },
    ],
    customer_id: customer.id,
  };
  return {
    next: {
      ...data,
      tickets: inserted(
        data.tickets,
        ticket,
        newestFirst((t) => t.created_at),
      ),
    },
    answer: ticketRow(ticket),
    ids: [ticket.id],
  };
}

export function changeTicket(ctx: ChangeContext, id: string, input: ChangeTicket): Outcome<TicketRow> {
  const { data } = ctx;
  const ticket = data.tickets.find((t) => t.id === id);
  if (!ticket) throw notFound(`Quality ticket "${id}" was not found.`);
  if (input.status === undefined && input.comment === undefined)
    throw invalidParams('Nothing to change: give "status" or "comment".');
  const from = ORDER.indexOf(ticket.status);
  const target = input.status ?? ticket.status;
  const to = ORDER.indexOf(target);
  const reopening = to < from;
  if (reopening && !(target === 'in_progress' && from >= ORDER.indexOf('resolved')))
    throw invalidParams(
      `Quality ticket ${ticket.ticket_number} is ${ticket.status}: a ticket moves forward (${ORDER.join(' → ')}), and a resolved one can only be reopened to in_progress.`,
    );
  const resolving = !reopening && from < ORDER.indexOf('resolved') && to >= ORDER.indexOf('resolved');
  if (resolving && input.resolution_note === undefined)
    throw invalidParams(`"resolution_note" is required to resolve quality ticket ${ticket.ticket_number}.`);
  if (!resolving && input.resolution_note !== undefined)
    throw invalidParams(
      `"resolution_note" is given when a ticket is resolved; ${ticket.ticket_number} is not being resolved.`,
    );

  const events: TicketEvent[] = [...ticket.customer_visible_events];
  const next: QualityTicket = { ...ticket, customer_visible_events: events };
  const event = (event_type: string, actor_kind: string, body: string | null): string => {
    const created_at = isoOf(ctx.at());
    events.push({ event_type, actor_kind, body, created_at });
    return created_at;
  };
  if (input.comment) event('comment', input.comment.actor_kind ?? 'customer', input.comment.body);
  if (reopening) {
    event('status_changed', 'customer', 'Reopened: status changed to In progress');
    next.resolved_at = null;
    next.resolution_note = null;
  }
  for (let step = from + 1; !reopening && step <= to; step++) {
    switch (ORDER[step]) {
      case 'acknowledged':
        next.acknowledged_at = event('acknowledged', 'provider', 'Thanks, we are looking into it.');
        break;
      case 'in_progress':
        event('status_changed', 'system', 'Status changed to In progress');
        break;
      case 'resolved':
        next.resolution_note = input.resolution_note ?? null;
        next.resolved_at = event('resolved', 'provider', next.resolution_note);
        break;
      case 'verified':
        event('status_changed', 'customer', 'Resolution verified');
        break;
    }
  }
  next.status = target;
  next.status_label = STATUS_LABELS[target];
  next.last_correspondence_at = events.length > 1 ? (events[events.length - 1]?.created_at ?? null) : null;
  return { next: { ...data, tickets: replaced(data.tickets, next) }, answer: ticketRow(next), ids: [id] };
}
