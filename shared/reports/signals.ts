/**
 * Shortfall signals still standing (the API's default: open and acknowledged) grouped by customer, department and
 * item, most severe first. Acknowledged signals stay in: someone has seen them, but the linen is still short.
 */
import { InvalidParamsError } from '../errors.ts';
import type { Customer } from '../schemas/customers.ts';
import { type InventorySignal, SIGNAL_KINDS } from '../schemas/inventory.ts';

/**
 * What "shortfall" means (the word people type, and what the shortfall digest shows): deliveries below par for
 * days running, and more linen needed in circulation (these carry the suggested order quantity).
 */
export const SHORTFALL_KINDS = ['shortfall_streak', 'circulation_breach'] as const;
const SHORTFALL_WORDS = ['shortfall', 'shortfalls'];

/** A kind as typed (`Shortfall streak`, `shortfall-streak`) in the API's lower snake case. */
export const kindWord = (typed: string) =>
  typed
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/** Whether the word stands for the shortfall kinds. */
export const isShortfallWord = (typed: string) => SHORTFALL_WORDS.includes(kindWord(typed));

/**
 * The signals of a typed kind among `signals` (a listing of every kind): `shortfall` is SHORTFALL_KINDS, a
 * kind the product knows is itself, and since the list is open, any other kind the API reports (in this listing
 * or among `seen`, e.g. the standing signals when `signals` is of another status) passes through. A kind that
 * is none of these fails with one sentence naming the kinds known and seen.
 */
export function signalsOfKind(
  signals: readonly InventorySignal[],
  typed: string,
  seen: readonly InventorySignal[] = [],
): InventorySignal[] {
  const kind = kindWord(typed);
  if (isShortfallWord(kind)) return signals.filter((s) => (SHORTFALL_KINDS as readonly string[]).includes(s.kind));
  const known = [...new Set([...SIGNAL_KINDS, ...signals.map((s) => s.kind), ...seen.map((s) => s.kind)])];
  if (known.includes(kind)) return signals.filter((s) => s.kind === kind);
  throw new InvalidParamsError({
    message: `"${typed.trim()}" is not a signal kind; the kinds are shortfall (${SHORTFALL_KINDS.join(' and ')}), ${known.join(', ')}.`,
  });
}

const RANK: Record<string, number> = { high: 3, medium: 2, low: 1 };

export interface SignalGroup {
  customerId: string | null;
  customerName: string | null;
  departmentId: string | null;
  departmentName: string | null;
  itemId: string | null;
  /** null when the signal covers all items. */
  itemName: string | null;
  /** The most severe signal of the group. */
  severity: InventorySignal['severity'];
  /** Highest suggested order quantity among the group's signals, when any gives one. */
  suggestedOrderQty: number | null;
  /** Most severe first, then most recently confirmed. */
  signals: InventorySignal[];
}

const bySeverityThenRecent = (a: InventorySignal, b: InventorySignal) =>
  (RANK[b.severity] ?? 0) - (RANK[a.severity] ?? 0) ||
  (a.generated_at < b.generated_at ? 1 : a.generated_at > b.generated_at ? -1 : 0);

export function groupSignals(signals: readonly InventorySignal[], customers: readonly Customer[] = []): SignalGroup[] {
  const names = new Map(customers.map((c) => [c.id, c.name]));
  const depts = new Map(customers.flatMap((c) => c.departments.map((d) => [d.id, d.name] as const)));
  const groups = new Map<string, SignalGroup>();
  for (const s of signals) {
    const key = `${s.customer_id}\u0000${s.department_id}\u0000${s.item_id}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        customerId: s.customer_id,
        customerName: s.customer_id ? (names.get(s.customer_id) ?? null) : null,
        departmentId: s.department_id,
        departmentName: s.department_id ? (depts.get(s.department_id) ?? null) : null,
        itemId: s.item_id,
        itemName: s.item_name,
        severity: s.severity,
        suggestedOrderQty: null,
        signals: [],
      };
      groups.set(key, g);
    }
    g.signals.push(s);
    if ((RANK[s.severity] ?? 0) > (RANK[g.severity] ?? 0)) g.severity = s.severity;
    if (s.suggested_order_qty !== null) g.suggestedOrderQty = Math.max(g.suggestedOrderQty ?? 0, s.suggested_order_qty);
  }
  const out = [...groups.values()];
  for (const g of out) g.signals.sort(bySeverityThenRecent);
  return out.sort(
    (a, b) =>
      (RANK[b.severity] ?? 0) - (RANK[a.severity] ?? 0) ||
      (a.customerName ?? '').localeCompare(b.customerName ?? '') ||
      (a.departmentName ?? '').localeCompare(b.departmentName ?? '') ||
      (a.itemName ?? '').localeCompare(b.itemName ?? ''),
  );
}
