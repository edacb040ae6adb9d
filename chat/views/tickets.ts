/** `/linen ticket <number>` and `/linen tickets [status]` (a table of the tickets listed, and their lines). */
import type { TicketWithLabel } from '../../shared/reports/index.ts';
import { ticketStatusLabel } from '../../shared/reports/index.ts';
import type { QualityTicket } from '../../shared/schemas/quality.ts';
import type { TicketFilter } from '../commands/tickets.ts';
import { type Content, field, fields, note, type Part, table, text, title } from '../content/document.ts';
import { humanize, moreLine, plural, take, when } from '../content/format.ts';
import { CONTENT_LIMITS, chunkLines, truncateRich } from '../content/limits.ts';
import { b, command, type Icon, icon, line, quote, type Rich, r } from '../content/rich.ts';
import type { Table } from '../content/table.ts';

export const MAX_EVENTS = 15;
export const MAX_TICKETS = 30;

const STATUS_ICON: Record<string, Icon> = {
  new: 'new',
  acknowledged: 'eyes',
  in_progress: 'working',
  resolved: 'ok',
  verified: 'ok',
};

export function ticketView(t: TicketWithLabel, timeZone: string): Content {
  const parts: Part[] = [title(`${line(t.ticket_number)}: ${line(t.subject)}`)];
  const status = STATUS_ICON[t.status];
  parts.push(
    fields([
      field('Status', status ? r`${icon(status)} ${t.statusLabel}` : [t.statusLabel]),
      field('Kind', [line(t.kind_label)]),
      field('Opened', [when(t.created_at, timeZone)]),
      field('Acknowledged', [when(t.acknowledged_at, timeZone)]),
      field('Resolved', [when(t.resolved_at, timeZone)]),
      field('Last correspondence', [when(t.last_correspondence_at, timeZone)]),
    ]),
  );
  if (t.resolution_note)
    parts.push(text(truncateRich(r`${b('Resolution')}\n${quote(t.resolution_note)}`, CONTENT_LIMITS.text)));
  const events = t.customer_visible_events;
  if (events.length) {
    // The latest updates matter most; keep them, oldest first.
    const skipped = Math.max(0, events.length - MAX_EVENTS);
    const eventLines = events.slice(skipped).map((e): Rich => {
      const body = e.body ? `: ${line(e.body)}` : '';
      return [
        `• ${when(e.created_at, timeZone)} · ${humanize(line(e.actor_kind))} · ${humanize(line(e.event_type))}${body}`,
      ];
    });
    const head = skipped
      ? r`${b('Updates')} (latest ${String(MAX_EVENTS)} of ${String(events.length)}; ${moreLine(skipped, 'earlier')})`
      : [b('Updates')];
    for (const chunk of chunkLines([head, ...eventLines])) parts.push(text(chunk));
  }
  parts.push(note([`Times in ${timeZone}.`]));
  return { summary: [`${line(t.ticket_number)}: ${line(t.statusLabel)}. ${line(t.subject)}`], parts };
}

const FILTER_TITLE: Record<TicketFilter, string> = {
  open: 'Open tickets',
  new: 'New tickets',
  acknowledged: 'Acknowledged tickets',
  in_progress: 'Tickets in progress',
  resolved: 'Resolved tickets',
  verified: 'Verified tickets',
};

export function ticketLine(t: QualityTicket, timeZone: string, customerName?: string | undefined): Rich {
  const who = customerName ? ` · ${line(customerName)}` : '';
  const status = STATUS_ICON[t.status];
  return r`${status ? icon(status) : '•'} ${b(line(t.ticket_number))}${who} · ${line(ticketStatusLabel(t))} · ${line(t.kind_label)} · opened ${when(t.created_at, timeZone).slice(0, 10)}: ${line(t.subject)}`;
}

/** When a ticket last changed: the latest of its own times and of its updates. */
export function lastUpdated(t: QualityTicket): string {
  const times = [
    t.created_at,
    t.acknowledged_at,
    t.resolved_at,
    t.last_correspondence_at,
    ...t.customer_visible_events.map((e) => e.created_at),
  ].filter((x): x is string => typeof x === 'string');
  return times.reduce((a, c) => (Date.parse(c) > Date.parse(a) ? c : a));
}

function ticketsTable(
  tickets: readonly (QualityTicket & { customerId?: string })[],
  filter: TicketFilter,
  timeZone: string,
  opts: TicketsViewOptions,
  several: boolean,
): Table {
  return {
    title: FILTER_TITLE[filter],
    noun: 'tickets',
    columns: [
      { header: 'Ticket', type: 'text' },
      ...(several ? [{ header: 'Customer', type: 'text' as const }] : []),
      { header: 'Status', type: 'text' },
      { header: 'Opened', type: 'date' },
      { header: 'Updated', type: 'date' },
    ],
    rows: tickets.map((t) => [
      line(t.ticket_number),
      ...(several ? [line((t.customerId && opts.customerNames?.get(t.customerId)) || '')] : []),
      line(ticketStatusLabel(t)),
      when(t.created_at, timeZone).slice(0, 10),
      when(lastUpdated(t), timeZone).slice(0, 10),
    ]),
    command: `tickets ${opts.customerName ? `"${line(opts.customerName)}"` : '<customer>'}${filter === 'open' ? '' : ` ${filter}`}`,
  };
}

export interface TicketsViewOptions {
  /** Customer names by id: each ticket of a listing across customers names its customer. */
  customerNames?: ReadonlyMap<string, string> | undefined;
  /** The one customer asked for (then the lines do not repeat it). */
  customerName?: string | undefined;
}

/** Tickets newest first. */
export function ticketsView(
  tickets: readonly (QualityTicket & { customerId?: string })[],
  filter: TicketFilter,
  timeZone: string,
  opts: TicketsViewOptions = {},
): Content {
  const heading = opts.customerName ? `${FILTER_TITLE[filter]}: ${line(opts.customerName)}` : FILTER_TITLE[filter];
  const parts: Part[] = [title(heading)];
  if (tickets.length === 0) {
    const none = `No ${FILTER_TITLE[filter].toLowerCase()}${opts.customerName ? ` for ${line(opts.customerName)}` : ''}.`;
    parts.push(text(filter === 'open' ? [icon('party'), ' ', none] : [none]));
    return { summary: [none], parts };
  }
  const sorted = [...tickets].sort((a, c) =>
    a.created_at < c.created_at ? 1 : a.created_at > c.created_at ? -1 : a.ticket_number.localeCompare(c.ticket_number),
  );
  const { shown, more } = take(sorted, MAX_TICKETS);
  // One customer asked for names none per line, unless it is a group covering several.
  const several = !opts.customerName || new Set(tickets.map((t) => t.customerId)).size > 1;
  const list = shown.map((t) =>
    ticketLine(t, timeZone, several && t.customerId ? opts.customerNames?.get(t.customerId) : undefined),
  );
  parts.push(
    table(
      ticketsTable(shown, filter, timeZone, opts, several),
      chunkLines(list).map((chunk) => text(chunk)),
    ),
  );
  if (more) parts.push(text([moreLine(more, 'tickets')]));
  parts.push(
    note(r`${plural(tickets.length, 'ticket')}, newest first. ${command('ticket <number>')} shows one in full.`),
  );
  return {
    summary: [`${heading}: ${tickets.length}. Newest: ${line(sorted[0]!.ticket_number)} ${line(sorted[0]!.subject)}`],
    parts,
  };
}
