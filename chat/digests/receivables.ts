/**
 * The receivables digest (weekly, for a finance channel): the overdue total by aging bucket, the invoices that
 * became overdue since the previous digest, those that moved to an older bucket, and those no longer open. It
 * compares the open invoices with what the previous digest showed (each invoice's bucket then).
 */
import {
  AGING_BUCKETS,
  AGING_LABELS,
  type AgedInvoice,
  type AgingBucket,
  ageInvoices,
  type Customer,
  type Invoice,
} from '../../shared/index.ts';
import { type Block, context, header } from '../../slack-bot/blocks/kit.ts';
import { fitMessage } from '../../slack-bot/blocks/limits.ts';
import { dayOf, escLine as esc, money, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';
import { type Digest, packSections } from './content.ts';
import { customerScope } from './kinds.ts';
import type { ShownSignal, Subscription } from './storage/types.ts';

/** An invoice as a receivables digest showed it; its state is its aging bucket. */
export interface InvoiceSnapshot {
  number: string;
  customerId: string;
  balanceCents: number;
  currency: string;
  daysOverdue: number | null;
}

export interface ReceivablesInput {
  subscription: Pick<Subscription, 'customerIds' | 'allClear' | 'timeZone'>;
  /** The key's open invoices (sent and partially paid). */
  invoices: readonly Invoice[];
  customers: readonly Customer[];
  /** The org-local day of the run: days overdue are counted to it. */
  asOf: string;
  previous: readonly ShownSignal<InvoiceSnapshot>[] | null;
  title: string;
}

const RANK: Record<string, number> = { current: 0, d1_30: 1, d31_60: 2, d61_plus: 3 };
const bucketText = (b: string) => AGING_LABELS[b as AgingBucket] ?? b;

export function buildReceivablesDigest(input: ReceivablesInput): Digest {
  const tz = input.subscription.timeZone;
  const inScope = customerScope(input.subscription, input.customers);
  const names = new Map(input.customers.map((c) => [c.id, c.name]));
  const open = ageInvoices(
    input.invoices.filter((i) => i.balance_cents > 0 && inScope(i.customer_id)),
    input.asOf,
    tz,
  );
  const overdue = open.filter((i) => i.bucket !== 'current');
  const prev = input.previous ? new Map(input.previous.map((p) => [p.signalId, p])) : null;
  const openIds = new Set(open.map((i) => i.id));
  const newlyOverdue = prev ? overdue.filter((i) => (prev.get(i.id)?.state ?? 'current') === 'current') : overdue;
  const older = prev
    ? overdue.filter((i) => {
        const was = prev.get(i.id)?.state;
        return was !== undefined && was !== 'current' && RANK[i.bucket]! > (RANK[was] ?? 0);
      })
    : [];
  const closed = prev ? [...prev.values()].filter((p) => !openIds.has(p.signalId) && p.state !== 'current') : [];
  const unchanged = prev ? newlyOverdue.length + older.length + closed.length === 0 : overdue.length === 0;

  const who = (customerId: string) => esc(names.get(customerId) ?? customerId);
  const line = (i: AgedInvoice, extra = '') =>
    `*${esc(i.invoice_number)}* · ${who(i.customer_id)} · *${money(i.balance_cents, i.currency)}* open · ${plural(i.daysOverdue ?? 0, 'day')} overdue${extra}`;
  const totals = [...new Set(overdue.map((i) => i.currency))].sort().map((currency) => {
    const mine = overdue.filter((i) => i.currency === currency);
    const sum = (bucket?: AgingBucket) =>
      money(
        mine.filter((i) => !bucket || i.bucket === bucket).reduce((s, i) => s + i.balance_cents, 0),
        currency,
      );
    const buckets = AGING_BUCKETS.filter((b) => b !== 'current' && mine.some((i) => i.bucket === b)).map(
      (b) => `${bucketText(b)} ${sum(b)}`,
    );
    return `*${sum()}* overdue (${buckets.join(', ')})`;
  });

  const blocks: Block[] = [header(plain(`Linen receivables digest · ${input.title}`))];
  const headline = overdue.length
    ? `${totals.join(' · ')} in ${plural(overdue.length, 'invoice')}`
    : 'Nothing overdue.';
  const change = prev
    ? ` · ${newlyOverdue.length} newly overdue · ${older.length} older · ${closed.length} no longer open since the previous digest`
    : ' · first digest of this subscription';
  blocks.push(context(`${headline}${change} · as of ${input.asOf}`));
  const sections: [string, string[]][] = prev
    ? [
        ['*Newly overdue*', newlyOverdue.map((i) => line(i, i.due_at ? ` (due ${dayOf(i.due_at, tz)})` : ''))],
        [
          '*Moved to an older bucket*',
          older.map((i) => line(i, ` (${bucketText(prev.get(i.id)!.state)} → ${bucketText(i.bucket)})`)),
        ],
        [
          '*No longer open* (paid or credited)',
          closed.map(
            (p) =>
              `*${esc(p.snapshot.number)}* · ${who(p.snapshot.customerId)} · was ${money(p.snapshot.balanceCents, p.snapshot.currency)} open, ${bucketText(p.state)} overdue`,
          ),
        ],
      ]
    : [['*Overdue invoices*, most overdue first', overdue.map((i) => line(i))]];
  blocks.push(...packSections(sections));
  if (prev && unchanged) blocks.push(context('Nothing changed since the previous digest.'));

  const text = esc(
    prev
      ? `Linen receivables ${input.title}: ${newlyOverdue.length} newly overdue, ${older.length} moved older, ${closed.length} no longer open; ${overdue.length} overdue in all.`
      : `Linen receivables ${input.title}: ${overdue.length} overdue invoices.`,
  );
  return {
    quiet: unchanged && !input.subscription.allClear,
    unchanged,
    ...fitMessage({ text, blocks }),
    shown: open.map((i) => ({
      signalId: i.id,
      state: i.bucket,
      snapshot: {
        number: i.invoice_number,
        customerId: i.customer_id,
        balanceCents: i.balance_cents,
        currency: i.currency,
        daysOverdue: i.daysOverdue,
      } satisfies InvoiceSnapshot,
    })),
  };
}
