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
} from '../../../shared/index.ts';
import { note, type Part, title } from '../../content/document.ts';
import { dayOf, money, plural } from '../../content/format.ts';
import { b, joinRich, line, type Rich, r } from '../../content/rich.ts';
import type { Digest } from '../digest.ts';
import type { ShownSignal, Subscription } from '../storage/types.ts';
import { customerScope } from './customer-scope.ts';
import { type DigestInput, defineDigestKind, postsWhenUnchanged } from './kind.ts';
import { packSections } from './sections.ts';

export const receivablesDigest = defineDigestKind({
  name: 'receivables',
  words: ['receivables', 'ar'],
  access: 'accounting',
  help: {
    description: 'receivables (weekly: new overdue invoices and older aging)',
    examples: ['digest subscribe receivables #finance weekly'],
  },
  // For a finance channel once a week, on Monday.
  defaultCadence: 'mon',
  describe: (s) => ({ kind: 'receivables digest', settings: postsWhenUnchanged(s) }),
  reads: ['openInvoices'],
  build: (input: DigestInput<'openInvoices', InvoiceSnapshot>) =>
    buildReceivablesDigest({
      subscription: input.subscription,
      invoices: input.read.openInvoices,
      customers: input.customers,
      asOf: input.today,
      previous: input.previous,
      title: input.title,
    }),
});

/** An invoice as a receivables digest showed it; its state is its aging bucket. */
interface InvoiceSnapshot {
  number: string;
  customerId: string;
  balanceCents: number;
  currency: string;
  daysOverdue: number | null;
}

interface ReceivablesInput {
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

function buildReceivablesDigest(input: ReceivablesInput): Digest {
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

  const who = (customerId: string) => line(names.get(customerId) ?? customerId);
  const invoiceLine = (inv: AgedInvoice, extra = ''): Rich =>
    r`${b(line(inv.invoice_number))} · ${who(inv.customer_id)} · ${b(money(inv.balance_cents, inv.currency))} open · ${plural(inv.daysOverdue ?? 0, 'day')} overdue${extra}`;
  const totals = [...new Set(overdue.map((inv) => inv.currency))].sort().map((currency): Rich => {
    const mine = overdue.filter((inv) => inv.currency === currency);
    const sum = (bucket?: AgingBucket) =>
      money(
        mine.filter((inv) => !bucket || inv.bucket === bucket).reduce((t, inv) => t + inv.balance_cents, 0),
        currency,
      );
    const buckets = AGING_BUCKETS.filter((bk) => bk !== 'current' && mine.some((inv) => inv.bucket === bk)).map(
      (bk) => `${bucketText(bk)} ${sum(bk)}`,
    );
    return r`${b(sum())} overdue (${buckets.join(', ')})`;
  });

  const parts: Part[] = [title(`Linen receivables digest · ${input.title}`)];
  const headline: Rich = overdue.length
    ? r`${joinRich(totals, ' · ')} in ${plural(overdue.length, 'invoice')}`
    : ['Nothing overdue.'];
  const change = prev
    ? ` · ${newlyOverdue.length} newly overdue · ${older.length} older · ${closed.length} no longer open since the previous digest`
    : ' · first digest of this subscription';
  parts.push(note(r`${headline}${change} · as of ${input.asOf}`));
  const sections: [Rich, Rich[]][] = prev
    ? [
        [
          [b('Newly overdue')],
          newlyOverdue.map((inv) => invoiceLine(inv, inv.due_at ? ` (due ${dayOf(inv.due_at, tz)})` : '')),
        ],
        [
          [b('Moved to an older bucket')],
          older.map((inv) => invoiceLine(inv, ` (${bucketText(prev.get(inv.id)!.state)} → ${bucketText(inv.bucket)})`)),
        ],
        [
          r`${b('No longer open')} (paid or credited)`,
          closed.map(
            (p) =>
              r`${b(line(p.snapshot.number))} · ${who(p.snapshot.customerId)} · was ${money(p.snapshot.balanceCents, p.snapshot.currency)} open, ${bucketText(p.state)} overdue`,
          ),
        ],
      ]
    : [[r`${b('Overdue invoices')}, most overdue first`, overdue.map((inv) => invoiceLine(inv))]];
  parts.push(...packSections(sections));
  if (prev && unchanged) parts.push(note(['Nothing changed since the previous digest.']));

  const summary = prev
    ? `Linen receivables ${input.title}: ${newlyOverdue.length} newly overdue, ${older.length} moved older, ${closed.length} no longer open; ${overdue.length} overdue in all.`
    : `Linen receivables ${input.title}: ${overdue.length} overdue invoices.`;
  return {
    quiet: unchanged && !input.subscription.allClear,
    unchanged,
    summary: [summary],
    parts,
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
