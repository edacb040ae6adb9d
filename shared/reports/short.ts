/**
 * Short today: what is missing right now, from each cart's latest count. A count's line says what the cart
 * needed to get back to par (`required`) and what was delivered against it (`delivered`); the difference
 * still open is missing. Summed by unit and item, worst (most pieces missing) first.
 *
 * A cart's latest count is its newest one that is not `pending` (a pending count has nothing counted yet,
 * so its `required` says nothing). An `in_progress` count is what has been counted so far.
 */
import { getOrInsert } from '../collections.ts';
import { InvalidParamsError } from '../errors.ts';
import { normalizeName } from '../names.ts';
import type { Customer, Department } from '../schemas/customers.ts';
import type { CartCount, Unit } from '../schemas/inventory.ts';

export interface ShortLine {
  customerId: string;
  unitId: string | null;
  unitName: string | null;
  itemId: string;
  itemName: string;
  required: number;
  delivered: number;
  /** Σ max(0, required - delivered) over the unit's carts. */
  missing: number;
  /** Carts of the unit whose latest count asks for the item. */
  carts: number;
  /** The newest count day among them. */
  countedOn: string;
  /** Statuses of those counts (`counted`, `in_progress`, ...). */
  statuses: string[];
}

export interface ShortReport {
  /** Lines with pieces missing, worst first. */
  lines: ShortLine[];
  /** Carts read (with a count that is not pending). */
  carts: number;
  /** Carts whose every count of the window is still pending. */
  pendingCarts: number;
  /** Σ missing over every line. */
  missing: number;
}

const statusRank: Record<string, number> = { verified: 4, counted: 3, assumed: 2, in_progress: 1 };

/** The newest non-pending count of each cart (ties: the more complete status). */
export function latestCounts(counts: readonly CartCount[]): { latest: CartCount[]; pendingCarts: number } {
  const byCart = new Map<string, CartCount>();
  const carts = new Set<string>();
  for (const c of counts) {
    carts.add(c.cart_id);
    if (c.status === 'pending') continue;
    const seen = byCart.get(c.cart_id);
    if (
      !seen ||
      c.date > seen.date ||
      (c.date === seen.date && (statusRank[c.status] ?? 0) > (statusRank[seen.status] ?? 0))
    )
      byCart.set(c.cart_id, c);
  }
  return { latest: [...byCart.values()], pendingCarts: carts.size - byCart.size };
}

/** Pure: what is missing by unit and item, from the counts of a window (typically the last 7 days). */
export function computeShort(counts: readonly CartCount[], unitIds?: ReadonlySet<string>): ShortReport {
  const { latest, pendingCarts } = latestCounts(
    unitIds ? counts.filter((c) => c.unit_id !== null && unitIds.has(c.unit_id)) : counts,
  );
  const lines = new Map<string, ShortLine>();
  for (const c of latest) {
    for (const l of c.lines) {
      const line = getOrInsert(lines, `${c.customer_id}\u0000${c.unit_id}\u0000${l.item_id}`, () => ({
        customerId: c.customer_id,
        unitId: c.unit_id,
        unitName: c.unit_name,
        itemId: l.item_id,
        itemName: l.item_name,
        required: 0,
        delivered: 0,
        missing: 0,
        carts: 0,
        countedOn: c.date,
        statuses: [],
      }));
      line.required += l.required;
      line.delivered += l.delivered;
      line.missing += Math.max(0, l.required - l.delivered);
      line.carts++;
      if (c.date > line.countedOn) line.countedOn = c.date;
      if (!line.statuses.includes(c.status)) line.statuses.push(c.status);
    }
  }
  const short = [...lines.values()]
    .filter((l) => l.missing > 0)
    .sort(
      (a, b) =>
        b.missing - a.missing ||
        b.missing / b.required - a.missing / a.required ||
        (a.unitName ?? '').localeCompare(b.unitName ?? '') ||
        a.itemName.localeCompare(b.itemName),
    );
  return {
    lines: short,
    carts: latest.length,
    pendingCarts,
    missing: short.reduce((s, l) => s + l.missing, 0),
  };
}

function pickOne<T extends { id: string; name: string }>(rows: readonly T[], typed: string): T | undefined {
  const q = normalizeName(typed);
  const exact = rows.find((r) => r.id === typed.trim() || normalizeName(r.name) === q);
  if (exact) return exact;
  const containing = rows.filter((r) => normalizeName(r.name).includes(q));
  return containing.length === 1 ? containing[0] : undefined;
}

/** Whether a unit serves a department: the same cost center, or one name containing the other. */
export function serves(unit: Unit, dept: Department): boolean {
  if (dept.cost_center_code !== null && unit.cost_center === dept.cost_center_code) return true;
  const u = normalizeName(unit.name);
  const d = normalizeName(dept.name);
  return u.includes(d) || d.includes(u);
}

/**
 * Counts are kept by unit, deliveries by department. A place typed after the customer is a department (its
 * units are those with its cost center or a name containing its name, or the other way round) or a unit.
 */
export function unitsOfPlace(
  typed: string,
  customer: Customer,
  departments: readonly Department[],
  units: readonly Unit[],
): { label: string; units: Unit[] } {
  const dept = pickOne(departments, typed);
  if (dept) {
    const mine = units.filter((u) => serves(u, dept));
    if (mine.length) return { label: dept.name, units: mine };
    throw new InvalidParamsError({
      message: `No unit of ${customer.name} has the cost center or the name of its department ${dept.name}; its units are ${units.map((u) => u.name).join(', ') || 'none'}.`,
    });
  }
  const unit = pickOne(units, typed);
  if (unit) return { label: unit.name, units: [unit] };
  throw new InvalidParamsError({
    message: `${customer.name} has no department or unit "${typed.trim()}"; its departments are ${departments.map((d) => d.name).join(', ') || 'none'} and its units ${units.map((u) => u.name).join(', ') || 'none'}.`,
  });
}
