/**
 * The budgets digest: active purchase orders with less than the chosen share left, or expiring within the chosen
 * number of days, and what changed since the previous digest (newly flagged, spent since, no longer flagged).
 */
import { type Customer, computePoStatus, type PoStatus, type PurchaseOrder } from '../../../shared/index.ts';
import { note, type Part, title } from '../../content/document.ts';
import { money, pct, plural } from '../../content/format.ts';
import { b, line, type Rich, r } from '../../content/rich.ts';
import { expiryText } from '../../views/po.ts';
import { ArgsError } from '../args-error.ts';
import type { Digest } from '../digest.ts';
import type { DigestOptions, ShownSignal, Subscription } from '../storage/types.ts';
import { customerScope } from './customer-scope.ts';
import { type DigestInput, defineDigestKind, postsWhenUnchanged } from './kind.ts';
import { packSections } from './sections.ts';

/** A budget is flagged under this share left, or when it expires within this many days. */
const DEFAULT_BUDGET_SHARE = 0.2;
const DEFAULT_EXPIRING_DAYS = 30;

/** The subscription's thresholds (stored as `budgetShare` and `expiringDays` in its options), or the defaults. */
function budgetThresholds(options: DigestOptions): { share: number; days: number } {
  const { budgetShare: share, expiringDays: days } = options;
  return {
    share: typeof share === 'number' ? share : DEFAULT_BUDGET_SHARE,
    days: typeof days === 'number' ? days : DEFAULT_EXPIRING_DAYS,
  };
}

export const budgetsDigest = defineDigestKind({
  name: 'budgets',
  words: ['budgets', 'budget'],
  access: 'accounting',
  help: {
    description: 'budgets (purchase orders under NN% left or expiring within NN days)',
    options: '[NN%] [NNd]',
    examples: ['digest subscribe budgets 25% 45d'],
  },
  defaultCadence: 'daily',
  options: {
    read(word) {
      const lower = word.toLowerCase();
      const share = /^(\d{1,3})%$/.exec(lower);
      if (share) {
        const n = Number(share[1]);
        if (n < 1 || n > 100) throw new ArgsError(`${word} is not a share of a budget; give 1% to 100%.`);
        return { options: { budgetShare: n / 100 } };
      }
      const days = /^(\d{1,4})(?:d|days?)$/.exec(lower);
      return days ? { options: { expiringDays: Number(days[1]) } } : null;
    },
    notFor: (_words, kind) =>
      `A share left or a number of days is for budgets digests; leave it out of a ${kind} digest.`,
  },
  describe: (s) => {
    const t = budgetThresholds(s.options);
    return {
      kind: `budgets digest (under ${Math.round(t.share * 100)}% left or expiring within ${t.days} days)`,
      settings: postsWhenUnchanged(s),
    };
  },
  reads: ['activePurchaseOrders'],
  build: (input: DigestInput<'activePurchaseOrders', BudgetSnapshot>) =>
    buildBudgetsDigest({
      subscription: input.subscription,
      purchaseOrders: input.read.activePurchaseOrders,
      customers: input.customers,
      asOf: input.today,
      previous: input.previous,
      title: input.title,
    }),
});

/** A purchase order as a budgets digest showed it; its state is why it was flagged (`low`, `expiring`, both). */
interface BudgetSnapshot {
  number: string;
  customerId: string;
  remainingCents: number;
  totalCents: number;
  currency: string;
}

interface BudgetsInput {
  subscription: Pick<Subscription, 'customerIds' | 'allClear' | 'timeZone' | 'options'>;
  /** The key's active purchase orders. */
  purchaseOrders: readonly PurchaseOrder[];
  customers: readonly Customer[];
  /** The org-local day of the run: days to expiry count from it. */
  asOf: string;
  previous: readonly ShownSignal<BudgetSnapshot>[] | null;
  title: string;
}

function buildBudgetsDigest(input: BudgetsInput): Digest {
  const { share, days } = budgetThresholds(input.subscription.options);
  const inScope = customerScope(input.subscription, input.customers);
  const names = new Map(input.customers.map((c) => [c.id, c.name]));
  const flagsOf = (p: PoStatus) =>
    [p.remainingShare !== null && p.remainingShare < share ? 'low' : null, p.daysToExpiry <= days ? 'expiring' : null]
      .filter(Boolean)
      .join('+');
  const flagged = computePoStatus(
    input.purchaseOrders.filter((p) => inScope(p.customer_id)),
    input.asOf,
    input.subscription.timeZone,
  )
    .map((p) => ({ p, flags: flagsOf(p) }))
    .filter((x) => x.flags !== '');
  const prev = input.previous ? new Map(input.previous.map((s) => [s.signalId, s])) : null;
  const ids = new Set(flagged.map((x) => x.p.id));
  const fresh = prev ? flagged.filter((x) => !prev.has(x.p.id) || prev.get(x.p.id)!.state !== x.flags) : flagged;
  const spent = prev
    ? flagged.filter((x) => {
        const was = prev.get(x.p.id);
        return was !== undefined && was.state === x.flags && was.snapshot.remainingCents > x.p.remaining_cents;
      })
    : [];
  const cleared = prev ? [...prev.values()].filter((s) => !ids.has(s.signalId)) : [];
  const unchanged = prev ? fresh.length + spent.length + cleared.length === 0 : flagged.length === 0;

  const who = (customerId: string) => line(names.get(customerId) ?? customerId);
  const why = (flags: string) =>
    flags
      .split('+')
      .map((f) => (f === 'low' ? `under ${pct(share)} left` : `expiring within ${plural(days, 'day')}`))
      .join(' and ');
  const poLine = (p: PoStatus, extra = ''): Rich =>
    r`${b(line(p.po_number))} · ${who(p.customer_id)} · ${b(`${money(p.remaining_cents, p.currency)} left`)} of ${money(p.total_cents, p.currency)} (${pct(p.remainingShare)}) · ${expiryText(p.daysToExpiry)}${extra}`;
  const parts: Part[] = [title(`Linen budgets digest · ${input.title}`)];
  parts.push(
    note([
      `${plural(flagged.length, 'purchase order')} under ${pct(share)} left or expiring within ${plural(days, 'day')}${prev ? ` · ${fresh.length} newly flagged · ${spent.length} spent since · ${cleared.length} no longer flagged since the previous digest` : ' · first digest of this subscription'} · as of ${input.asOf}`,
    ]),
  );
  const sections: [Rich, Rich[]][] = prev
    ? [
        [[b('Newly flagged')], fresh.map((x) => poLine(x.p, ` · ${why(x.flags)}`))],
        [
          [b('Spent since the previous digest')],
          spent.map((x) =>
            poLine(
              x.p,
              ` · ${money(prev.get(x.p.id)!.snapshot.remainingCents - x.p.remaining_cents, x.p.currency)} spent since`,
            ),
          ),
        ],
        [
          r`${b('No longer flagged')} (topped up, closed or expired)`,
          cleared.map(
            (s) =>
              r`${b(line(s.snapshot.number))} · ${who(s.snapshot.customerId)} · had ${money(s.snapshot.remainingCents, s.snapshot.currency)} left`,
          ),
        ],
      ]
    : [[r`${b('Flagged purchase orders')}, least left first`, flagged.map((x) => poLine(x.p, ` · ${why(x.flags)}`))]];
  parts.push(...packSections(sections));
  if (prev && unchanged) parts.push(note(['Nothing changed since the previous digest.']));

  const summary = prev
    ? `Linen budgets ${input.title}: ${fresh.length} newly flagged, ${spent.length} spent since, ${cleared.length} no longer flagged; ${flagged.length} flagged.`
    : `Linen budgets ${input.title}: ${flagged.length} purchase orders flagged.`;
  return {
    quiet: unchanged && !input.subscription.allClear,
    unchanged,
    summary: [summary],
    parts,
    shown: flagged.map(({ p, flags }) => ({
      signalId: p.id,
      state: flags,
      snapshot: {
        number: p.po_number,
        customerId: p.customer_id,
        remainingCents: p.remaining_cents,
        totalCents: p.total_cents,
        currency: p.currency,
      } satisfies BudgetSnapshot,
    })),
  };
}
