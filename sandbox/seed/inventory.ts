/**
 * Inventory: positions of each customer's linen by status, counted units and their carts, and the cart counts
 * of the last sixty days.
 */
import type { Cart, CartCount, CartCountStatus, InventoryPosition, LocalDate, Unit, Weekday } from '../model.ts';
import { cycleOf, cycleStart } from './calendar.ts';
import { cmp, customerByCode, type Org } from './org.ts';
import type { Rng } from './prng.ts';
import { addDays, type Clock, daysBetween, isoOf, weekdayOf } from './time.ts';

export function buildPositions(rng: Rng, org: Org): InventoryPosition[] {
  const out: InventoryPosition[] = [];
  for (const c of org.customers) {
    if (c.spec.isGroup) continue;
    for (const itemId of org.customer_items[c.id] ?? []) {
      let daily = 0;
      for (const d of [...c.depts, ...(c.wide ? [c.wide] : [])])
        for (const l of d.lines) if (l.itemId === itemId) daily += l.target;
      daily = Math.max(daily, 20);
      const pack = org.itemSpecById.get(itemId)?.pack ?? 12;
      out.push({
        customer_id: c.id,
        item_id: itemId,
        item_name: org.itemById.get(itemId)?.name ?? '',
        new: rng.chance(0.4) ? 0 : pack * rng.int(1, 8),
        in_reserve: rng.chance(0.2) ? 0 : Math.round(daily * rng.float(0.2, 1.0)),
        in_plant: Math.round(daily * rng.float(0.8, 1.25)),
        in_transit: Math.round(daily * rng.float(0.15, 0.5)),
        at_customer: Math.round(daily * rng.float(2.2, 3.4)),
        retired: {
          retired_lost: rng.chance(0.3) ? 0 : Math.round(daily * rng.float(0.05, 0.4)),
          retired_damaged: rng.chance(0.3) ? 0 : Math.round(daily * rng.float(0.02, 0.2)),
        },
      });
    }
  }
  const nameOf = (id: string): string => org.byId.get(id)?.name ?? '';
  return out.sort((a, b) => cmp(nameOf(a.customer_id), nameOf(b.customer_id)) || cmp(a.item_name, b.item_name));
}

const KIND_LABEL: Record<Cart['kind'], string> = {
  cart: 'Cart',
  closet: 'Clean Linen Closet',
  linen_room: 'Linen Room',
  exchange_cart: 'Exchange Cart',
};
const COUNT_DAYS: readonly Weekday[][] = [
  ['mon', 'wed', 'fri'],
  ['tue', 'thu'],
  ['mon', 'tue', 'wed', 'thu', 'fri'],
  ['sun', 'wed'],
  ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'],
  ['mon', 'thu'],
];

export function buildUnitsAndCarts(rng: Rng, org: Org): { units: Unit[]; carts: Cart[] } {
  const units: Unit[] = [];
  const carts: Cart[] = [];
  const kinds = rng.shuffle(['cart', 'closet', 'linen_room', 'exchange_cart'] as const);
  let k = 0;
  const stLukes = customerByCode(org, 'SLMC');
  for (const c of org.customers) {
    c.spec.units.forEach((spec, unitIndex) => {
      const unit: Unit = {
        id: rng.id(),
        customer_id: c.id,
        name: spec.name,
        building: spec.building,
        floor: spec.floor,
        unit_type: spec.unitType,
        cost_center: spec.costCenter,
        cart_count: 0,
        is_active: spec.active,
      };
      // St. Luke's first unit keeps a retired cart next to its live one.
      const retiredCartHere = c === stLukes && unitIndex === 0;
      const count = retiredCartHere ? 2 : rng.int(1, 3);
      for (let i = 0; i < count; i++) {
        const kind = kinds[k++ % kinds.length] ?? 'cart';
        const parItems = rng.sample(org.customer_items[c.id] ?? [], rng.int(3, 5));
        carts.push({
          id: rng.id(),
          customer_id: c.id,
          unit_id: unit.id,
          name: `${spec.name} ${KIND_LABEL[kind]}${count > 1 ? ` ${String.fromCharCode(65 + i)}` : ''}`,
          unit_name: unit.name,
          kind,
          stocking_method: rng.chance(0.6) ? 'fixed' : 'census',
          count_days: rng.pick(COUNT_DAYS).slice(),
          is_active: spec.active && !(retiredCartHere && i === count - 1),
          par: parItems
            .map((itemId) => ({
              item_id: itemId,
              item_name: org.itemById.get(itemId)?.name ?? '',
              par_quantity: 2 * rng.int(4, 30),
            }))
            .sort((a, b) => cmp(a.item_name, b.item_name)),
        });
      }
      unit.cart_count = count;
      units.push(unit);
    });
  }
  // Both stocking methods are always present.
  const first = carts[0];
  const second = carts[1];
  if (first && second) {
    first.stocking_method = 'fixed';
    second.stocking_method = 'census';
  }
  const byName = <T extends { name: string; id: string }>(a: T, b: T): number => cmp(a.name, b.name) || cmp(a.id, b.id);
  return { units: units.sort(byName), carts: carts.sort(byName) };
}

/** A count's status by its age in days, from a draw fixed for the count (recent counts move on day by day). */
function countStatus(draw: number, age: number): CartCountStatus {
  if (age === 0) return draw < 0.6 ? 'pending' : 'in_progress';
  if (age === 1) return draw < 0.5 ? 'in_progress' : 'counted';
  if (age <= 4) return draw < 0.7 ? 'counted' : 'verified';
  return draw < 0.8 ? 'verified' : draw < 0.9 ? 'assumed' : 'counted';
}

/** Counts of the last sixty days are shown. */
const COUNT_DAYS_SHOWN = 60;
/** Each of a few carts is counted once off its schedule in every cycle of this many days. */
const UNSCHEDULED_CYCLE = 25;

/** Cart counts: each drawn from its cart's and day's stream, so a count keeps its id and figures once taken. */
export function buildCartCounts(root: Rng, clock: Clock, units: Unit[], carts: Cart[]): CartCount[] {
  const unitById = new Map(units.map((u) => [u.id, u]));
  const live = carts.filter((c) => c.is_active && unitById.get(c.unit_id)?.is_active);
  const out: CartCount[] = [];
  const firstDay = addDays(clock.today, -(COUNT_DAYS_SHOWN - 1));
  const count = (cart: Cart, date: LocalDate, unscheduled: boolean, rng: Rng): void => {
    const status = countStatus(rng.next(), daysBetween(date, clock.today));
    const countedMs = clock.ms(date, 360 + rng.int(0, 14400) / 60);
    const counted = status === 'counted' || status === 'verified';
    let verifiedMs = countedMs + rng.int(60, 360) * 60_000;
    if (verifiedMs > clock.nowMs) verifiedMs = clock.nowMs - 60_000;
    const lines = cart.par.map((p, i) => {
      const assumedShare = rng.float(0.3, 0.7);
      const countedShare = rng.float(0.1, 1.15);
      const adjust = rng.chance(0.2) ? rng.int(-2, 2) : 0;
      const extra = rng.chance(0.15) ? rng.int(1, 6) : 0;
      const returned = rng.chance(0.1) ? rng.int(1, 4) : 0;
      let onHand = 0;
      if (status === 'assumed') onHand = Math.round(p.par_quantity * assumedShare);
      else if (counted || (status === 'in_progress' && i % 2 === 0)) onHand = Math.round(p.par_quantity * countedShare);
      const required = Math.max(0, p.par_quantity - onHand);
      const filled = counted || status === 'assumed';
      return {
        item_id: p.item_id,
        item_name: p.item_name,
        par: p.par_quantity,
        on_hand: onHand,
        required,
        delivered: filled ? Math.max(0, required + (status === 'verified' ? adjust : 0)) : 0,
        extra: filled ? extra : 0,
        returned: filled ? returned : 0,
      };
    });
    const unit = unitById.get(cart.unit_id);
    out.push({
      id: rng.id(),
      customer_id: cart.customer_id,
      cart_id: cart.id,
      cart_name: cart.name,
      unit_id: cart.unit_id,
      unit_name: unit?.name ?? null,
      date,
      status,
      unscheduled,
      counted_at: counted ? isoOf(countedMs) : null,
      verified_at: status === 'verified' ? isoOf(verifiedMs) : null,
      lines,
    });
  };
  for (const cart of live) {
    for (let date = firstDay; date <= clock.today; date = addDays(date, 1)) {
      if (cart.count_days.includes(weekdayOf(date))) count(cart, date, false, root.fork(`${cart.id}@${date}`));
    }
  }
  // A few carts are counted once in a while on a day they were not due.
  for (const cart of live.filter((c) => c.count_days.length < 7).slice(0, 3)) {
    for (let c = cycleOf(UNSCHEDULED_CYCLE, firstDay); c <= cycleOf(UNSCHEDULED_CYCLE, clock.today); c++) {
      const rng = root.fork(`${cart.id}#unscheduled${c}`);
      let date = addDays(cycleStart(UNSCHEDULED_CYCLE, c), rng.int(0, UNSCHEDULED_CYCLE - 1));
      while (cart.count_days.includes(weekdayOf(date))) date = addDays(date, -1);
      if (date >= firstDay && date < clock.today) count(cart, date, true, rng);
    }
  }
  return out.sort((a, b) => cmp(b.date, a.date) || cmp(a.id, b.id));
}
