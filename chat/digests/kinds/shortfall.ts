/**
 * The shortfall digest, the first kind: the open and acknowledged shortfall signals of a subscription's scope grouped
 * by customer, department and item (most severe first), what changed since its previous digest, and yesterday's fill
 * rate and par met of the items concerned, as a neutral answer within the content limits (each platform renders it).
 */
import {
  addDays,
  type Customer,
  type DailyDeliveryRow,
  groupSignals,
  type InventorySignal,
  SHORTFALL_KINDS,
  type SignalGroup,
} from '../../../shared/index.ts';
import { chart, divider, type Part, title } from '../../content/document.ts';
import { CONTENT_LIMITS, partsUsed } from '../../content/limits.ts';
import { b, type Icon, i, icon, joinRich, line, type Rich, r } from '../../content/rich.ts';
import { parMetByCustomerChart } from '../../views/par-met-chart.ts';
import type { Digest } from '../digest.ts';
import type { Severity, ShownSignal, SignalSnapshot, Subscription } from '../storage/types.ts';
import { customerScope } from './customer-scope.ts';
import { type DigestInput, defineDigestKind } from './kind.ts';
import { context, pack } from './sections.ts';

const SEVERITY_WORD = /^(?:min-?severity=|severity=)?(low|medium|high)\+?$/;

export const shortfallDigest = defineDigestKind({
  name: 'shortfall',
  words: ['shortfall', 'shortfalls'],
  access: 'operations',
  help: { description: 'shortfalls (daily at 07:00 by default)', options: '[low|medium|high]' },
  defaultCadence: 'daily',
  options: {
    read(word) {
      const severity = SEVERITY_WORD.exec(word.toLowerCase());
      return severity ? { minSeverity: severity[1] as Severity } : null;
    },
    notFor: (words, kind) => `A severity (${words.at(-1)}) is for shortfall digests; leave it out of a ${kind} digest.`,
  },
  describe: (s) => {
    const severity = s.minSeverity === 'low' ? ', every severity' : `, ${s.minSeverity} severity and above`;
    // The first kind: its lines name no kind.
    return { kind: '', settings: `${severity}${s.allClear ? ', all-clear posts' : ''}` };
  },
  reads: ['signals', 'deliveriesLastWeek'],
  build: (input: DigestInput<'signals' | 'deliveriesLastWeek', SignalSnapshot>) =>
    buildShortfallDigest({
      subscription: input.subscription,
      signals: input.read.signals,
      customers: input.customers,
      deliveries: input.read.deliveriesLastWeek.filter((r) => r.date === input.yesterday),
      week: input.read.deliveriesLastWeek,
      yesterday: input.yesterday,
      previous: input.previous,
      title: input.title,
    }),
});

const LIVE = new Set(['open', 'acknowledged']);
const RANK: Record<string, number> = { low: 1, medium: 2, high: 3 };
const ICON: Record<string, Icon> = { high: 'high', medium: 'medium', low: 'low' };

/** Lines listed before the rest is summarised with counts. */
const MAX_LINES = 40;

interface ShortfallInput {
  subscription: Pick<Subscription, 'customerIds' | 'minSeverity' | 'allClear' | 'timeZone'>;
  /** The key's open and acknowledged signals (any kind: the digest keeps its own). */
  signals: readonly InventorySignal[];
  customers: readonly Customer[];
  /** Daily delivery rows of `yesterday`. */
  deliveries: readonly DailyDeliveryRow[];
  /** Daily delivery rows of the seven whole days ending `yesterday`: the par met chart. */
  week?: readonly DailyDeliveryRow[] | undefined;
  yesterday: string;
  /** What the previous digest showed; null when there was none. */
  previous: readonly ShownSignal[] | null;
  /** Heading date, e.g. `Thu 5 Nov`. */
  title: string;
}

interface ShortfallDigest extends Digest {
  shown: ShownSignal[];
  counts: {
    open: number;
    high: number;
    medium: number;
    low: number;
    new: number;
    gone: number;
    acknowledged: number;
    customers: number;
  };
}

export function inScope(s: InventorySignal, sub: ShortfallInput['subscription']): boolean {
  return (
    (SHORTFALL_KINDS as readonly string[]).includes(s.kind) &&
    LIVE.has(s.status) &&
    (sub.customerIds.length === 0 || (s.customer_id !== null && sub.customerIds.includes(s.customer_id))) &&
    (RANK[s.severity] ?? 0) >= (RANK[sub.minSeverity] ?? 1)
  );
}

function shownOf(s: InventorySignal): ShownSignal {
  return {
    signalId: s.id,
    state: s.status,
    snapshot: {
      kind: s.kind,
      severity: s.severity as Severity,
      summary: s.summary,
      customerId: s.customer_id,
      departmentId: s.department_id,
      itemId: s.item_id,
      itemName: s.item_name,
    },
  };
}

/**
 * Yesterday's delivered/par (fill rate) and Σ min(delivered, par)/par (par met) of an item at a department, or
 * across the customer when the department is null.
 */
export function fillRateOf(
  rows: readonly DailyDeliveryRow[],
  customerId: string | null,
  departmentId: string | null,
  itemId: string | null,
) {
  const t = totalsOf(rows).get(totalsKey(customerId, departmentId, itemId));
  return t ? { delivered: t.delivered, par: t.par, rate: t.delivered / t.par, parMet: t.met / t.par } : null;
}

interface Totals {
  delivered: number;
  met: number;
  par: number;
}

const totalsKey = (customerId: string | null, departmentId: string | null, itemId: string | null) =>
  `${customerId}\u0000${departmentId ?? ''}\u0000${itemId}`;

/**
 * The rows' totals by customer, item and department (and by customer and item), summed once: every subscription
 * of a key reads the same day's rows, one line at a time.
 */
const totalsByRows = new WeakMap<readonly DailyDeliveryRow[], Map<string, Totals>>();

function totalsOf(rows: readonly DailyDeliveryRow[]): Map<string, Totals> {
  let totals = totalsByRows.get(rows);
  if (totals) return totals;
  totals = new Map();
  for (const r of rows) {
    if (r.daily_par === null || r.daily_par <= 0) continue;
    // A row of no department counts only across its customer.
    const keys = [totalsKey(r.customer_id, null, r.item_id)];
    if (r.department_id !== null) keys.push(totalsKey(r.customer_id, r.department_id, r.item_id));
    for (const key of keys) {
      const t = totals.get(key) ?? { delivered: 0, met: 0, par: 0 };
      t.delivered += r.delivered_count;
      t.met += Math.min(r.delivered_count, r.daily_par);
      t.par += r.daily_par;
      totals.set(key, t);
    }
  }
  totalsByRows.set(rows, totals);
  return totals;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const fmtDay = (d: string) => `${Number(d.slice(5, 7))}/${Number(d.slice(8, 10))}`;

function fillText(
  input: ShortfallInput,
  customerId: string | null,
  departmentId: string | null,
  itemId: string | null,
): string {
  const f = fillRateOf(input.deliveries, customerId, departmentId, itemId);
  return f
    ? `yesterday ${pct(f.rate)} of par (${f.delivered}/${f.par}), par met ${pct(f.parMet)}`
    : 'no delivery with a par yesterday';
}

function groupLine(g: SignalGroup, input: ShortfallInput, isNew: Set<string>): Rich {
  const where = g.departmentName
    ? `${line(g.itemName ?? 'All items')} at ${line(g.departmentName)}`
    : `${line(g.itemName ?? 'All items')} (whole customer)`;
  const parts = g.signals.map((s) => {
    const flags = joinRich([s.status === 'acknowledged' ? 'acknowledged' : '', isNew.has(s.id) ? b('new') : ''], ', ');
    const order = s.suggested_order_qty !== null ? [' · ', b(`order ${s.suggested_order_qty}`)] : '';
    return r`${line(s.summary)} ${i(`(${fmtDay(s.window_start)}–${fmtDay(s.window_end)})`)}${order}${flags.length ? [' · ', ...flags] : ''}`;
  });
  const severity = ICON[g.severity];
  return r`${severity ? icon(severity) : ''} ${b(where)}: ${joinRich(parts, '; ')} · ${fillText(input, g.customerId, g.departmentId, g.itemId)}`;
}

function buildShortfallDigest(input: ShortfallInput): ShortfallDigest {
  const current = input.signals.filter((s) => inScope(s, input.subscription));
  const shown = current.map(shownOf);
  const prev = input.previous ? new Map(input.previous.map((p) => [p.signalId, p])) : null;
  const currentIds = new Set(current.map((s) => s.id));
  const isNew = new Set(prev ? current.filter((s) => !prev.has(s.id)).map((s) => s.id) : []);
  const gone = prev ? [...prev.values()].filter((p) => !currentIds.has(p.signalId)) : [];
  const nowAcked = prev ? current.filter((s) => s.status === 'acknowledged' && prev.get(s.id)?.state === 'open') : [];
  const customerName = new Map(input.customers.map((c) => [c.id, c.name]));
  const by = (sev: string) => current.filter((s) => s.severity === sev).length;
  const counts = {
    open: current.length,
    high: by('high'),
    medium: by('medium'),
    low: by('low'),
    new: isNew.size,
    gone: gone.length,
    acknowledged: nowAcked.length,
    customers: new Set(current.map((s) => s.customer_id)).size,
  };
  const unchanged = current.length === 0 && gone.length === 0;
  const quiet = unchanged && !input.subscription.allClear;

  const parts: Part[] = [title(`Linen shortfall digest · ${input.title}`)];
  const headline: Rich =
    current.length === 0
      ? ['All clear: no open shortfall or circulation signals.']
      : r`${b(String(counts.open))} open signal${counts.open === 1 ? '' : 's'} (${String(counts.high)} high, ${String(counts.medium)} medium, ${String(counts.low)} low) across ${String(counts.customers)} customer${counts.customers === 1 ? '' : 's'}`;
  const change = prev
    ? ` · ${counts.new} new · ${counts.gone} no longer open since the previous digest`
    : ' · first digest of this subscription';
  parts.push(context(r`${headline}${change} · fill rates are for ${input.yesterday}`));
  // The last seven days' par met of the customers it covers, a line each (their numbers written under it).
  const trend = input.week && parMetTrend(input, input.week);
  if (trend) parts.push(chart(trend));

  if (gone.length || nowAcked.length) {
    const changes: Rich[] = [
      ...gone.map(
        (p) =>
          r`${icon('ok')} ${b('No longer open')} (resolved or dismissed): ${line(p.snapshot.summary)} · ${fillText(input, p.snapshot.customerId, p.snapshot.departmentId, p.snapshot.itemId)}`,
      ),
      ...nowAcked.map((s) => r`${icon('eyes')} ${b('Acknowledged')}: ${line(s.summary)}`),
    ];
    const { parts: packed, left } = pack([b('Since the previous digest')], changes, 6);
    parts.push(...packed);
    if (left) parts.push(context([`…and ${left} more change${left === 1 ? '' : 's'}.`]));
  }

  const groups = groupSignals(current, input.customers);
  const byCustomer = new Map<string, SignalGroup[]>();
  for (const g of groups) {
    const k = g.customerId ?? '';
    byCustomer.set(k, [...(byCustomer.get(k) ?? []), g]);
  }
  let budgetLines = MAX_LINES;
  let omitted: InventorySignal[] = [];
  for (const [cid, gs] of byCustomer) {
    const room = CONTENT_LIMITS.parts - partsUsed(parts) - 2;
    const name = cid ? (customerName.get(cid) ?? cid) : 'No customer';
    const groupLines = gs.map((g) => groupLine(g, input, isNew));
    const take = Math.min(groupLines.length, budgetLines);
    if (take <= 0 || room <= 0) {
      omitted = omitted.concat(gs.flatMap((g) => g.signals));
      continue;
    }
    parts.push(divider());
    const { parts: packed, left } = pack([b(line(name))], groupLines.slice(0, take), room - 1);
    parts.push(...packed);
    budgetLines -= take - left;
    omitted = omitted.concat(gs.slice(take - left).flatMap((g) => g.signals));
  }
  if (omitted.length) {
    const n = (sev: string) => omitted.filter((s) => s.severity === sev).length;
    const cs = new Set(omitted.map((s) => s.customer_id)).size;
    parts.push(
      context([
        `…and ${omitted.length} more signal${omitted.length === 1 ? '' : 's'} (${n('high')} high, ${n('medium')} medium, ${n('low')} low) across ${cs} customer${cs === 1 ? '' : 's'}.`,
      ]),
    );
  }

  const order = current
    .filter((s) => s.suggested_order_qty !== null)
    .reduce((t, s) => t + (s.suggested_order_qty ?? 0), 0);
  const summary =
    current.length === 0
      ? `Linen digest ${input.title}: all clear${gone.length ? `, ${gone.length} no longer open` : ''}.`
      : `Linen digest ${input.title}: ${counts.open} open shortfall signals (${counts.high} high)${prev ? `, ${counts.new} new, ${counts.gone} no longer open` : ''}${order ? `, ${order} pieces suggested to order` : ''}.`;
  return { quiet, unchanged, summary: [summary], parts, shown, counts };
}

/** The chart of the digest's customers' par met over the week, or null when none had a delivery with a par. */
function parMetTrend(input: ShortfallInput, week: readonly DailyDeliveryRow[]) {
  const inScope = customerScope(input.subscription, input.customers);
  const covered = input.customers.filter((c) => inScope(c.id));
  const days = Array.from({ length: 7 }, (_, i) => addDays(input.yesterday, i - 6));
  const trend = parMetByCustomerChart(week, covered, days);
  return trend.series.length && trend.categories.length ? trend : null;
}
