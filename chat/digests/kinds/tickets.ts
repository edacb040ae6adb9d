/**
 * The tickets digest: which quality tickets changed status since the previous digest, and which are new. The API
 * sends no events, so the changes are found by comparing the tickets with the statuses the previous digest
 * stored (every ticket not yet verified, verified being the last status).
 */
import type { Customer, CustomerTicket } from '../../../shared/index.ts';
import { note, type Part, title } from '../../content/document.ts';
import { humanize, plural } from '../../content/format.ts';
import { b, line, type Rich, r } from '../../content/rich.ts';
import type { Digest } from '../digest.ts';
import type { ShownSignal, Subscription } from '../storage/types.ts';
import { type DigestInput, defineDigestKind, postsWhenUnchanged } from './kind.ts';
import { packSections } from './sections.ts';

export const ticketsDigest = defineDigestKind({
  name: 'tickets',
  words: ['tickets'],
  access: 'operations',
  help: { description: 'ticket status changes', examples: ['digest preview tickets'] },
  defaultCadence: 'daily',
  describe: (s) => ({ kind: 'tickets digest', settings: postsWhenUnchanged(s) }),
  reads: ['customerTickets'],
  build: (input: DigestInput<'customerTickets', TicketSnapshot>) =>
    buildTicketChangesDigest({
      subscription: input.subscription,
      tickets: input.read.customerTickets,
      customers: input.customers,
      previous: input.previous,
      previousAt: input.previousAt,
      title: input.title,
    }),
});

/** A ticket as a tickets digest showed it; its state is its status. */
interface TicketSnapshot {
  number: string;
  customerId: string;
  subject: string;
}

interface TicketChangesInput {
  subscription: Pick<Subscription, 'allClear'>;
  /** Every ticket of the subscription's customers, each tagged with its customer. */
  tickets: readonly CustomerTicket[];
  customers: readonly Customer[];
  previous: readonly ShownSignal<TicketSnapshot>[] | null;
  /** When the previous digest ran: a ticket it did not show is new if created since. */
  previousAt: Date | null;
  title: string;
}

const OPEN = new Set(['new', 'acknowledged', 'in_progress']);
const status = (s: string) => humanize(s === 'new' ? 'submitted' : s);

function buildTicketChangesDigest(input: TicketChangesInput): Digest {
  const names = new Map(input.customers.map((c) => [c.id, c.name]));
  const prev = input.previous ? new Map(input.previous.map((p) => [p.signalId, p])) : null;
  const since = input.previousAt?.toISOString() ?? '';
  const byNewest = [...input.tickets].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  const moved = prev ? byNewest.filter((t) => prev.has(t.id) && prev.get(t.id)!.state !== t.status) : [];
  const fresh = prev ? byNewest.filter((t) => !prev.has(t.id) && t.created_at > since) : [];
  const open = byNewest.filter((t) => OPEN.has(t.status));
  const unchanged = prev ? moved.length + fresh.length === 0 : open.length === 0;

  const ticketLine = (t: CustomerTicket, what: Rich): Rich =>
    r`${b(line(t.ticket_number))} · ${line(names.get(t.customerId) ?? t.customerId)} · ${what}: ${line(t.subject)}`;
  const parts: Part[] = [title(`Linen tickets digest · ${input.title}`)];
  const counts = ['new', 'acknowledged', 'in_progress']
    .map((s) => `${open.filter((t) => t.status === s).length} ${status(s).toLowerCase()}`)
    .join(', ');
  parts.push(
    note([
      `${plural(open.length, 'open ticket')} (${counts})${prev ? ` · ${moved.length} changed status · ${fresh.length} new since the previous digest` : ' · first digest of this subscription'}`,
    ]),
  );
  const sections: [Rich, Rich[]][] = prev
    ? [
        [
          [b('Changed status')],
          moved.map((t) => ticketLine(t, r`${status(prev.get(t.id)!.state)} → ${b(status(t.status))}`)),
        ],
        [[b('New')], fresh.map((t) => ticketLine(t, r`${b(status(t.status))}, ${line(t.kind_label)}`))],
      ]
    : [[r`${b('Open tickets')}, newest first`, open.map((t) => ticketLine(t, [b(status(t.status))]))]];
  parts.push(...packSections(sections));
  if (prev && unchanged) parts.push(note(['No ticket changed status since the previous digest.']));

  const summary = prev
    ? `Linen tickets ${input.title}: ${moved.length} changed status, ${fresh.length} new; ${open.length} open.`
    : `Linen tickets ${input.title}: ${open.length} open tickets.`;
  return {
    quiet: unchanged && !input.subscription.allClear,
    unchanged,
    summary: [summary],
    parts,
    shown: input.tickets
      .filter((t) => t.status !== 'verified')
      .map((t) => ({
        signalId: t.id,
        state: t.status,
        snapshot: { number: t.ticket_number, customerId: t.customerId, subject: t.subject } satisfies TicketSnapshot,
      })),
  };
}
