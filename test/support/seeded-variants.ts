/**
 * Seeded data with what the seed itself never produces, for the answers that must handle it: a manifest number
 * shared by two plants (numbers are unique only per plant; the seed has one plant), and an organization that hides
 * the rewash fault split from its customers.
 */
import { loadSandboxData, type SandboxData } from '../../sandbox/index.ts';
import { addDays } from '../../shared/dates.ts';

export interface Variant {
  data: SandboxData;
  /** The number two manifests of different customers now carry, and their ids. */
  shared: { number: string; ids: [string, string] };
}

export async function variantData(o: { today: string; timeZone: string }): Promise<Variant> {
  const data = structuredClone(await loadSandboxData({ ...o, seed: 'linen' }));
  const delivered = data.manifests.filter((m) => m.delivered_at !== null && m.type === 'normal');
  const first = delivered[10]!;
  const second = delivered.find((m) => m.customer_id !== first.customer_id)!;
  // Another plant's manifest: its own sequence reached the same number.
  second.manifest_number = first.manifest_number;
  data.organization.hides_rewash_fault_split = true;
  for (const b of data.rewash_batches) {
    b.soil_rewash_lb = null;
    b.error_rewash_lb = null;
  }
  for (const m of data.manifests) {
    if (m.held_rewash) {
      m.held_rewash.soil_rewash_lb = null;
      m.held_rewash.error_rewash_lb = null;
    }
  }
  return { data, shared: { number: first.manifest_number, ids: [first.id, second.id] } };
}

/** What `groupWithOwnRows` gave the group, taken from its first location. */
export interface GroupVariant {
  data: SandboxData;
  groupId: string;
  locationId: string;
  /** The open invoices now the group's. */
  invoiceIds: string[];
  /** The department (with its daily deliveries and pars) and the unit (with its carts and counts) now the group's. */
  departmentId: string;
  unitId: string;
}

/**
 * Seeded data in which the group customer has rows of its own, as another reading of the specification allows
 * (the API says only that a group rolls up child locations): half of its first location's open invoices, one of
 * its departments with that department's daily deliveries and pars, and one of its units with the unit's carts
 * and counts become the group's.
 */
export async function groupWithOwnRows(o: { today: string; timeZone: string }): Promise<GroupVariant> {
  const data = structuredClone(await loadSandboxData({ ...o, seed: 'linen' }));
  const group = data.customers.find((c) => c.is_group)!;
  const word = group.name.split(' ')[0]!.toLowerCase();
  const location = data.customers.find((c) => !c.is_group && c.name.toLowerCase().startsWith(`${word} `))!;
  const moved = data.invoices
    .filter((i) => i.customer_id === location.id && ['sent', 'partially_paid'].includes(i.status))
    .filter((i) => i.balance_cents > 0)
    .filter((_, n) => n % 2 === 0);
  for (const i of moved) {
    i.customer_id = group.id;
    i.department_id = null;
  }
  const dept = location.departments[0]!;
  location.departments = location.departments.filter((d) => d.id !== dept.id);
  group.departments.push(dept);
  for (const d of data.departments) if (d.id === dept.id) d.customer_id = group.id;
  for (const r of [...data.daily_deliveries, ...data.pars])
    if (r.customer_id === location.id && r.department_id === dept.id) r.customer_id = group.id;
  // A unit counted this week that no restricted key counts, so every key keeps seeing what it saw.
  const restricted = new Set(data.keys.flatMap((k) => k.unit_ids ?? []));
  const week = addDays(o.today, -6);
  const counted = new Set(
    data.cart_counts.filter((c) => c.date >= week && c.status !== 'pending').map((c) => c.unit_id),
  );
  const unit = data.units.find((u) => u.customer_id === location.id && !restricted.has(u.id) && counted.has(u.id))!;
  unit.customer_id = group.id;
  for (const r of [...data.carts, ...data.cart_counts]) if (r.unit_id === unit.id) r.customer_id = group.id;
  return {
    data,
    groupId: group.id,
    locationId: location.id,
    invoiceIds: moved.map((i) => i.id),
    departmentId: dept.id,
    unitId: unit.id,
  };
}
