/**
 * Shortfall signals still standing (the API's default: open and acknowledged) grouped by customer, department and
 * item, most severe first. Acknowledged signals stay in: someone has seen them, but the linen is still short.
 */
import type { Customer } from '../schemas/customers.ts';
import type { InventorySignal } from '../schemas/inventory.ts';

export const SHORTFALL_KINDS = ['shortfall_streak'] as const;

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
