/**
 * Whose records a home shows, from what the person follows: every customer when they follow none; otherwise the
 * customers they follow (a group stands for itself and its locations, as digests decide it), and of a customer with
 * departments or units followed only those. Counts are kept by unit and deliveries, signals and invoices by
 * department, so a followed department brings the units that serve it (`serves`: the same cost center, or one name
 * containing the other, as `short <customer> <department>` decides it) and a followed unit the departments it serves.
 */
import { type Customer, type Department, serves, type Unit } from '../../shared/index.ts';
import { customerScope } from '../digests/kinds/customer-scope.ts';
import type { Follows } from './follows.ts';

export interface HomeScope {
  customer(customerId: string | null): boolean;
  /** A record kept by department (a delivery row, a signal, an invoice) of a customer in scope. */
  department(customerId: string | null, departmentId: string | null): boolean;
  /** A record kept by unit (a cart count) of a customer in scope. */
  unit(customerId: string | null, unitId: string | null): boolean;
}

/** Where a followed customer's departments and units are narrowed to some: the ones allowed. */
interface Narrowed {
  departments: Set<string>;
  units: Set<string>;
}

/**
 * The scope of `follows`; `units` and `departments` (with their cost centers) are needed only for the customers with
 * places followed.
 */
export function homeScope(
  follows: Follows,
  customers: readonly Customer[],
  units: readonly Unit[] = [],
  departments: readonly Department[] = [],
): HomeScope {
  const inScope = customerScope({ customerIds: follows.customerIds }, customers);
  const narrowed = new Map<string, Narrowed>();
  for (const place of follows.places) {
    const n = narrowed.get(place.customerId) ?? { departments: new Set<string>(), units: new Set<string>() };
    narrowed.set(place.customerId, n);
    const mine = (u: Unit) => u.customer_id === place.customerId;
    const theirs = (d: Department) => d.customer_id === place.customerId;
    if (place.kind === 'department') {
      n.departments.add(place.id);
      const dept = departments.find((d) => d.id === place.id);
      if (dept) for (const u of units.filter(mine)) if (serves(u, dept)) n.units.add(u.id);
    } else {
      n.units.add(place.id);
      const unit = units.find((u) => u.id === place.id);
      if (unit) for (const d of departments.filter(theirs)) if (serves(unit, d)) n.departments.add(d.id);
    }
  }
  return {
    customer: inScope,
    department(customerId, departmentId) {
      if (!inScope(customerId)) return false;
      const n = customerId === null ? undefined : narrowed.get(customerId);
      return !n || (departmentId !== null && n.departments.has(departmentId));
    },
    unit(customerId, unitId) {
      if (!inScope(customerId)) return false;
      const n = customerId === null ? undefined : narrowed.get(customerId);
      return !n || (unitId !== null && n.units.has(unitId));
    },
  };
}
