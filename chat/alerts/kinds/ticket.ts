/**
 * `alert ticket [customer]`: a quality ticket is opened, or changes status. Each status of a ticket is its own
 * occurrence (`ticket:<id>:<status>`), so every change is told once; the message names the status it changed
 * from (the one seen at the previous check) or says the ticket is new. A ticket carries no customer: the tickets
 * are read per customer of the alert (those opened in the last year).
 */
import { parseTicketNumber, type QualityTicket, TICKET_STATUS_LABELS } from '../../../shared/index.ts';
import { ticketCommand } from '../../commands/ticket.ts';
import { ticketsCommand as ticketsCommandModule } from '../../commands/tickets.ts';
import { field } from '../../content/document.ts';
import { humanize, plural } from '../../content/format.ts';
import { b, command, type Icon, icon, line, type Rich, r } from '../../content/rich.ts';
import { defineAlertKind, type Occurrence, type Token } from '../kind.ts';
import {
  alertMessage,
  commandCustomer,
  customerWords,
  inScope,
  meaningful,
  nameOf,
  onlyCustomer,
  type ParseResult,
  parsed,
  problem,
  rerun,
  scopeName,
  typed,
  worstFirst,
} from './common.ts';

/** Nothing to choose beyond the customer. */
export type TicketOptions = Record<string, never>;

export interface TicketDetail {
  ticketId: string;
  number: string;
  subject: string;
  kindLabel: string;
  customerId: string;
  status: string;
  /** The status seen at the previous check; null for a ticket not seen before (newly opened). */
  previousStatus: string | null;
  /** The words for the two statuses (`Acknowledged`, `In progress`; resolved and verified by name, as they share one). */
  statusLabel: string;
  previousStatusLabel: string | null;
}

const PREFIX = 'ticket:';
/** Ticket buttons under a message (the worst first). */
const MAX_TICKET_ACTIONS = 5;

/** How much a status asks of someone: an opened or reopened ticket first, a verified one last. */
const ATTENTION: Record<string, number> = { new: 5, acknowledged: 3, in_progress: 3, resolved: 2, verified: 1 };
const CLOSED = new Set(['resolved', 'verified']);
const STATUS_ICON: Record<string, Icon> = {
  new: 'new',
  acknowledged: 'eyes',
  in_progress: 'working',
  resolved: 'ok',
  verified: 'ok',
};

const label = (status: string) =>
  (TICKET_STATUS_LABELS as Readonly<Record<string, string>>)[status] ?? humanize(line(status));

/** The labels of a change (`Acknowledged`, `In progress`); two statuses sharing a label (resolved, verified) by name. */
function labels(from: string | null, to: string): { from: string | null; to: string } {
  if (from === null) return { from: null, to: label(to) };
  const same = label(from) === label(to);
  return same ? { from: humanize(line(from)), to: humanize(line(to)) } : { from: label(from), to: label(to) };
}

/** The status each ticket had at the previous check, from its ids there. */
function previousStatuses(previous: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of previous) {
    if (!id.startsWith(PREFIX)) continue;
    const rest = id.slice(PREFIX.length);
    const cut = rest.lastIndexOf(':');
    if (cut > 0) out.set(rest.slice(0, cut), rest.slice(cut + 1));
  }
  return out;
}

/** When the ticket reached its status, where the ticket says. */
function statusTime(t: QualityTicket, opened: boolean): string | null {
  if (t.status === 'new') return opened ? t.created_at : null;
  if (t.status === 'acknowledged') return t.acknowledged_at;
  if (t.status === 'resolved') return t.resolved_at;
  return null;
}

function parseTicket(tokens: readonly Token[]): ParseResult<TicketOptions> {
  const words = meaningful(tokens);
  for (const t of words) {
    try {
      parseTicketNumber(t.text);
    } catch {
      continue;
    }
    return problem(
      `alert ticket watches a customer's tickets: give a customer (or nothing, for every customer), not a ticket number like ${typed(t.text)}.`,
    );
  }
  return parsed({}, customerWords(words, false));
}

const ticketsCommand = (customer: string | undefined) => ticketsCommandModule.format({ status: 'open', customer });

export const ticketKind = defineAlertKind<'ticket', TicketOptions, TicketDetail>({
  name: 'ticket',
  words: ['ticket', 'tickets'],
  access: 'operations',
  help: {
    usage: 'alert ticket [customer]',
    description: 'A quality ticket is opened, or changes status (the message names the status it left).',
    examples: ['alert ticket', 'alert ticket Harborview Hotel'],
  },
  parse: parseTicket,
  describe: (scope, names) => `quality tickets opened or changing status at ${scopeName(scope, names)}`,
  reads: ['customers', 'ticketsOf'],
  async occurrences(scope, reads, _time, previous) {
    const customers = await reads.customers();
    const covers = inScope(scope, customers);
    const mine = customers.filter((c) => covers(c.id));
    const lists = await Promise.all(mine.map((c) => reads.ticketsOf(c.id)));
    const was = previousStatuses(previous);
    const seen = new Set<string>();
    const out: Occurrence<TicketDetail>[] = [];
    mine.forEach((c, k) => {
      for (const t of lists[k]!) {
        if (seen.has(t.id)) continue;
        seen.add(t.id);
        const before = was.get(t.id);
        const previousStatus = before !== undefined && before !== t.status ? before : null;
        const reopened = previousStatus !== null && CLOSED.has(previousStatus) && !CLOSED.has(t.status);
        const said = labels(previousStatus, t.status);
        out.push({
          id: `${PREFIX}${t.id}:${t.status}`,
          at: statusTime(t, before === undefined),
          weight: reopened ? ATTENTION.new! : (ATTENTION[t.status] ?? 2),
          detail: {
            ticketId: t.id,
            number: t.ticket_number,
            subject: t.subject,
            kindLabel: t.kind_label,
            customerId: c.id,
            status: t.status,
            previousStatus,
            statusLabel: said.to,
            previousStatusLabel: said.from,
          },
        });
      }
    });
    return out;
  },
  message(scope, occurrences, ctx) {
    const names = ctx.customerNames;
    const opened = occurrences.filter((o) => o.detail.previousStatus === null).length;
    const changed = occurrences.length - opened;
    const what = [
      opened ? `${plural(opened, 'ticket')} opened` : '',
      changed ? `${plural(changed, 'ticket')} changed status` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const change = (d: TicketDetail): string =>
      d.previousStatusLabel === null ? `opened (${d.statusLabel})` : `${d.previousStatusLabel} → ${d.statusLabel}`;
    const mark = (d: TicketDetail): Rich => {
      const ic = STATUS_ICON[d.status];
      return ic ? [icon(ic), ' '] : ['• '];
    };
    const sorted = worstFirst(occurrences);
    const worst = sorted[0]!.detail;
    const customer = commandCustomer(
      scope,
      occurrences.map((o) => o.detail.customerId),
      names,
    );
    const ticketButtons = sorted
      .slice(0, MAX_TICKET_ACTIONS)
      .map((o) => rerun(`Show ${o.detail.number}`, ticketCommand.format({ number: o.detail.number })));
    return alertMessage({
      title: `${what} at ${scopeName(scope, names)}`,
      lead: r`${b(what.charAt(0).toUpperCase() + what.slice(1))}: ${b(line(worst.number))} ${change(worst)}, ${line(worst.subject)}.`,
      summary: `${what} at ${scopeName(scope, names)}: ${line(worst.number)} ${change(worst)}.`,
      occurrences,
      line: (d) =>
        r`${mark(d)}${b(line(d.number))} · ${line(nameOf(names, d.customerId))} · ${b(change(d))} · ${line(d.kindLabel)}: ${line(d.subject)}`,
      fields: (d) => [
        field('Ticket', [b(line(d.number))]),
        field('Customer', [line(nameOf(names, d.customerId))]),
        field('Status', r`${mark(d)}${change(d)}`),
        field('Kind', [line(d.kindLabel)]),
      ],
      after: (d) => [line(d.subject)],
      noun: 'tickets',
      notes: [
        r`A status change is told once; ${command('tickets')} lists the open tickets. Tickets opened in the last year are watched.`,
      ],
      actions:
        occurrences.length > MAX_TICKET_ACTIONS
          ? [...ticketButtons, rerun('Show open tickets', ticketsCommand(customer))]
          : ticketButtons,
      test: ctx.test,
    });
  },
  nowLine(scope, n, names) {
    const cmd = command(ticketsCommand(onlyCustomer(scope, names)));
    return n === 0
      ? r`No quality ticket was opened in the last year at ${scopeName(scope, names)}; new ones will be told. ${cmd} lists the open ones.`
      : r`${plural(n, 'ticket')} of the last year ${n === 1 ? 'is' : 'are'} watched right now; each change of status will be told. ${cmd} lists the open ones.`;
  },
});
