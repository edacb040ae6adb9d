/**
 * What the new answers should say, computed here straight from the sandbox's data (never with the product's own
 * report code), so a suite compares the product with an independent reading of the same rows.
 */
import type { SandboxData } from '../../sandbox/index.ts';

type Data = SandboxData;
type DailyRow = Data['daily_deliveries'][number];

export const localDay = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );

/** Fill rate, par met and short days over daily rows. */
export function expectedFill(rows: readonly DailyRow[]) {
  const usable = rows.filter((r) => r.daily_par !== null && r.daily_par > 0);
  const delivered = usable.reduce((s, r) => s + r.delivered_count, 0);
  const par = usable.reduce((s, r) => s + r.daily_par!, 0);
  const met = usable.reduce((s, r) => s + Math.min(r.delivered_count, r.daily_par!), 0);
  const shortDays = new Set(usable.filter((r) => r.delivered_count < r.daily_par!).map((r) => r.date)).size;
  const days = new Set(usable.map((r) => r.date)).size;
  return { delivered, par, met, fill: delivered / par, parMet: met / par, shortDays, days };
}

/**
 * Short today: per cart the newest count that is not pending in the window, then per unit and item the pieces
 * required and not delivered. Sorted by missing pieces, largest first.
 */
export function expectedShort(
  data: Data,
  o: { customerId?: string; from: string; to: string; unitIds?: readonly string[] },
) {
  const counts = data.cart_counts.filter(
    (c) =>
      (!o.customerId || c.customer_id === o.customerId) &&
      c.date >= o.from &&
      c.date <= o.to &&
      (!o.unitIds || (c.unit_id !== null && o.unitIds.includes(c.unit_id))),
  );
  const rank: Record<string, number> = { verified: 4, counted: 3, assumed: 2, in_progress: 1 };
  const latest = new Map<string, (typeof counts)[number]>();
  for (const c of counts) {
    if (c.status === 'pending') continue;
    const seen = latest.get(c.cart_id);
    if (!seen || c.date > seen.date || (c.date === seen.date && rank[c.status]! > rank[seen.status]!))
      latest.set(c.cart_id, c);
  }
  const lines = new Map<string, { unit: string | null; item: string; missing: number; required: number }>();
  for (const c of latest.values())
    for (const l of c.lines) {
      const k = `${c.customer_id}|${c.unit_id}|${l.item_id}`;
      const e = lines.get(k) ?? { unit: c.unit_name, item: l.item_name, missing: 0, required: 0 };
      e.missing += Math.max(0, l.required - l.delivered);
      e.required += l.required;
      lines.set(k, e);
    }
  const short = [...lines.values()].filter((l) => l.missing > 0).sort((a, b) => b.missing - a.missing);
  return { lines: short, missing: short.reduce((s, l) => s + l.missing, 0), carts: latest.size };
}

/** Rewash pounds (not voided) against the soil pounds of normal manifests delivered in the window. */
export function expectedRewash(data: Data, o: { customerId: string; from: string; to: string; timeZone: string }) {
  const batches = data.rewash_batches.filter((b) => {
    const d = localDay(b.discovered_at, o.timeZone);
    return b.customer_id === o.customerId && b.status !== 'voided' && d >= o.from && d <= o.to;
  });
  const manifests = data.manifests.filter((m) => {
    if (m.customer_id !== o.customerId || m.type !== 'normal' || !m.delivered_at) return false;
    const d = localDay(m.delivered_at, o.timeZone);
    return d >= o.from && d <= o.to;
  });
  const sum = (xs: number[]) => Math.round(xs.reduce((s, x) => s + x, 0) * 10) / 10;
  const soil = sum(manifests.map((m) => m.soil_weight_lb ?? 0));
  const rewash = sum(batches.map((b) => b.held_weight_lb ?? 0));
  const error = sum(batches.map((b) => b.error_rewash_lb ?? 0));
  const soilFault = sum(batches.map((b) => b.soil_rewash_lb ?? 0));
  return { soil, rewash, error, soilFault, rate: rewash / soil, errorRate: error / soil, batches: batches.length };
}

/** Org-local days from the due day to `today`, 0 when not yet past it. */
export function expectedDaysOverdue(dueAt: string, today: string, timeZone: string): number {
  const due = localDay(dueAt, timeZone);
  const days = Math.round((Date.parse(`${today}T12:00:00Z`) - Date.parse(`${due}T12:00:00Z`)) / 86_400_000);
  return Math.max(0, days);
}

/** A group's locations as this product decides them: non-group customers named with the group's first word. */
export function expectedLocations(data: Data, groupId: string) {
  const group = data.customers.find((c) => c.id === groupId)!;
  const word = group.name.split(' ')[0]!.toLowerCase();
  return data.customers.filter((c) => !c.is_group && c.name.toLowerCase().startsWith(`${word} `));
}

/** Per delivery day with a pieces par, oldest first: Σ delivered, Σ min(delivered, par) and Σ par of its rows. */
export function expectedDays(rows: readonly DailyRow[]) {
  const days = new Map<string, { date: string; delivered: number; met: number; par: number }>();
  for (const r of rows) {
    if (r.daily_par === null || r.daily_par <= 0) continue;
    const d = days.get(r.date) ?? { date: r.date, delivered: 0, met: 0, par: 0 };
    d.delivered += r.delivered_count;
    d.met += Math.min(r.delivered_count, r.daily_par);
    d.par += r.daily_par;
    days.set(r.date, d);
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date));
}

/** A share as a chart plots it: a percentage with one decimal (0.8812 → 88.1). */
export const asPercent = (num: number, den: number) => Number(((num / den) * 100).toFixed(1));

/**
 * A/R aging of each customer from its sent and partially paid invoices: the days from the org-local due day to
 * `today` put each balance in current (none), 1–30, 31–60 or 61+; amounts in cents.
 */
export function expectedAging(data: Data, today: string, timeZone: string) {
  const out = new Map<string, { name: string; current: number; d1_30: number; d31_60: number; d61_plus: number }>();
  for (const c of data.customers) out.set(c.id, { name: c.name, current: 0, d1_30: 0, d31_60: 0, d61_plus: 0 });
  for (const i of data.invoices) {
    if (i.status !== 'sent' && i.status !== 'partially_paid') continue;
    const a = out.get(i.customer_id);
    if (!a) continue;
    const days = i.due_at === null ? 0 : expectedDaysOverdue(i.due_at, today, timeZone);
    if (days <= 0) a.current += i.balance_cents;
    else if (days <= 30) a.d1_30 += i.balance_cents;
    else if (days <= 60) a.d31_60 += i.balance_cents;
    else a.d61_plus += i.balance_cents;
  }
  return out;
}
