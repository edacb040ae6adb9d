/** `/linen ticket <number>` and `/linen tickets [status]`. */
import type { TicketWithLabel } from '../../shared/reports/index.ts';
import { ticketStatusLabel } from '../../shared/reports/index.ts';
import type { QualityTicket } from '../../shared/schemas/quality.ts';
import { type Block, context, fields, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, LIMITS, moreLine, take, truncate } from '../../slack-bot/blocks/limits.ts';
import { bold, code, esc, escLine, humanize, plain, plural, when } from '../../slack-bot/blocks/mrkdwn.ts';
import type { TicketFilter } from '../answers/grammar.ts';

export const MAX_EVENTS = 15;
export const MAX_TICKETS = 30;

const STATUS_ICON: Record<string, string> = {
  new: ':new:',
  acknowledged: ':eyes:',
  in_progress: ':hammer_and_wrench:',
  resolved: ':white_check_mark:',
  verified: ':white_check_mark:',
};

/** A multi-line note as a mrkdwn block quote. */
const quote = (text: string) =>
  esc(text)
    .split(/\r?\n/)
    .map((l) => `>${l}`)
    .join('\n');

export function ticketMessage(t: TicketWithLabel, timeZone: string): Message {
  const blocks: Block[] = [header(`${plain(t.ticket_number)}: ${plain(t.subject)}`)];
  blocks.push(
    fields([
      `*Status*\n${[STATUS_ICON[t.status], esc(t.statusLabel)].filter(Boolean).join(' ')}`,
      `*Kind*\n${escLine(t.kind_label)}`,
      `*Opened*\n${when(t.created_at, timeZone)}`,
      `*Acknowledged*\n${when(t.acknowledged_at, timeZone)}`,
      `*Resolved*\n${when(t.resolved_at, timeZone)}`,
      `*Last correspondence*\n${when(t.last_correspondence_at, timeZone)}`,
    ]),
  );
  if (t.resolution_note)
    blocks.push(section(truncate(`*Resolution*\n${quote(t.resolution_note)}`, LIMITS.sectionText)));
  const events = t.customer_visible_events;
  if (events.length) {
    // The latest updates matter most; keep them, oldest first.
    const skipped = Math.max(0, events.length - MAX_EVENTS);
    const lines = events.slice(skipped).map((e) => {
      const body = e.body ? `: ${escLine(e.body)}` : '';
      return `• ${when(e.created_at, timeZone)} · ${humanize(escLine(e.actor_kind))} · ${humanize(escLine(e.event_type))}${body}`;
    });
    const head = skipped
      ? `*Updates* (latest ${MAX_EVENTS} of ${events.length}; ${moreLine(skipped, 'earlier')})`
      : '*Updates*';
    for (const chunk of chunkLines([head, ...lines])) blocks.push(section(chunk));
  }
  blocks.push(context(`Times in ${esc(timeZone)}.`));
  return { text: `${escLine(t.ticket_number)}: ${escLine(t.statusLabel)}. ${escLine(t.subject)}`, blocks };
}

const FILTER_TITLE: Record<TicketFilter, string> = {
  open: 'Open tickets',
  new: 'New tickets',
  acknowledged: 'Acknowledged tickets',
  in_progress: 'Tickets in progress',
  resolved: 'Resolved tickets',
  verified: 'Verified tickets',
};

export function ticketLine(t: QualityTicket, timeZone: string, customerName?: string | undefined): string {
  const who = customerName ? ` · ${escLine(customerName)}` : '';
  return `${STATUS_ICON[t.status] ?? '•'} ${bold(escLine(t.ticket_number))}${who} · ${escLine(ticketStatusLabel(t))} · ${escLine(t.kind_label)} · opened ${when(t.created_at, timeZone).slice(0, 10)}: ${escLine(t.subject)}`;
}

export interface TicketsViewOptions {
  /** Customer names by id: each ticket of a listing across customers names its customer. */
  customerNames?: ReadonlyMap<string, string> | undefined;
  /** The one customer asked for (then the lines do not repeat it). */
  customerName?: string | undefined;
}

/** Tickets newest first. */
export function ticketsMessage(
  tickets: readonly (QualityTicket & { customerId?: string })[],
  filter: TicketFilter,
  timeZone: string,
  opts: TicketsViewOptions = {},
): Message {
  const title = opts.customerName ? `${FILTER_TITLE[filter]}: ${plain(opts.customerName)}` : FILTER_TITLE[filter];
  const blocks: Block[] = [header(title)];
  if (tickets.length === 0) {
    const none = `No ${FILTER_TITLE[filter].toLowerCase()}${opts.customerName ? ` for ${escLine(opts.customerName)}` : ''}.`;
    blocks.push(section(filter === 'open' ? `:tada: ${none}` : none));
    return { text: none, blocks };
  }
  const sorted = [...tickets].sort((a, b) =>
    a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.ticket_number.localeCompare(b.ticket_number),
  );
  const { shown, more } = take(sorted, MAX_TICKETS);
  // One customer asked for names none per line, unless it is a group covering several.
  const several = !opts.customerName || new Set(tickets.map((t) => t.customerId)).size > 1;
  const lines = shown.map((t) =>
    ticketLine(t, timeZone, several && t.customerId ? opts.customerNames?.get(t.customerId) : undefined),
  );
  if (more) lines.push(moreLine(more, 'tickets'));
  for (const chunk of chunkLines(lines)) blocks.push(section(chunk));
  blocks.push(
    context(
      `${plural(tickets.length, 'ticket')}, newest first. ${code(esc('/linen ticket <number>'))} shows one in full.`,
    ),
  );
  return {
    text: `${title}: ${tickets.length}. Newest: ${escLine(sorted[0]!.ticket_number)} ${escLine(sorted[0]!.subject)}`,
    blocks,
  };
}
