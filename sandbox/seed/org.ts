/**
 * The organization, its customers, departments, catalog, par levels and API keys, with ids drawn from the seed.
 * Also holds the runtime view of what each department receives, which the operations module schedules.
 */
import type { ApiKey, Customer, Department, Item, Organization, ParLevel, Unit } from '../model.ts';
import type { CustomerSpec, ItemSpec, LineSpec } from './catalog.ts';
import { CUSTOMERS, FALLBACK_PIECE_LB, ITEMS, WEIGHT_OVERRIDES } from './catalog.ts';
import type { Rng } from './prng.ts';
import { addDays, type Clock } from './time.ts';

export interface LineRt {
  itemId: string;
  itemName: string;
  /** The daily pieces the department is normally stocked to (its effective par, or a habit without one). */
  target: number;
  spec: LineSpec;
}

export interface DeptRt {
  id: string | null;
  name: string | null;
  lines: LineRt[];
}

export interface CustomerRt {
  spec: CustomerSpec;
  id: string;
  name: string;
  currency: string;
  depts: DeptRt[];
  /** Customer-wide delivery lines (department null), if the customer has any. */
  wide: DeptRt | null;
  itemIds: string[];
}

export interface Org {
  organization: Organization;
  customers: CustomerRt[];
  byCode: Map<string, CustomerRt>;
  byId: Map<string, CustomerRt>;
  items: Item[];
  itemById: Map<string, Item>;
  itemByName: Map<string, Item>;
  itemSpecById: Map<string, ItemSpec>;
  customerRecords: Customer[];
  departments: Department[];
  customer_items: Record<string, string[]>;
  weight_overrides: Record<string, Record<string, number>>;
  pars: ParLevel[];
}

const ORGANIZATION_NAME = 'Prairie Linen Services';
/** The day the customers' account ages count back from (an account opens once, whatever today is). */
const ACCOUNTS_AGED_AT = '2025-01-01';

function byName<T extends { name: string; id: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function buildOrg(rng: Rng, clock: Clock): Org {
  const organization: Organization = {
    name: ORGANIZATION_NAME,
    time_zone: clock.timeZone,
    invoice_prefix: 'PLS',
    variance_tolerance: { min: 0, max: 0.15 },
    hides_rewash_fault_split: false,
  };

  const items: Item[] = ITEMS.map((spec) => ({
    id: rng.id(),
    sku: spec.sku,
    name: spec.name,
    category: spec.category,
    unit_of_measure: spec.unit_of_measure,
    weight_lb: spec.weight_lb,
  }));
  const itemByName = new Map(items.map((item) => [item.name, item]));
  const itemById = new Map(items.map((item) => [item.id, item]));
  const itemSpecById = new Map(items.map((item, i) => [item.id, ITEMS[i] as ItemSpec]));
  const itemOf = (name: string): Item => {
    const item = itemByName.get(name);
    if (!item) throw new Error(`unknown catalog item ${name}`);
    return item;
  };

  const customers: CustomerRt[] = [];
  const customerRecords: Customer[] = [];
  const departments: Department[] = [];
  const customer_items: Record<string, string[]> = {};
  const weight_overrides: Record<string, Record<string, number>> = {};
  const pars: ParLevel[] = [];

  for (const spec of CUSTOMERS) {
    const id = rng.id();
    const wideParOf = (itemName: string): number => {
      const wideLine = spec.wide?.lines.find((line) => line.item === itemName);
      if (wideLine) return wideLine.level;
      const only = spec.wideParOnly.find((row) => row.item === itemName);
      if (!only) throw new Error(`${spec.name}: ${itemName} falls back to a missing customer-wide par`);
      return only.par;
    };
    const line = (l: LineSpec): LineRt => {
      const item = itemOf(l.item);
      return {
        itemId: item.id,
        itemName: item.name,
        target: l.par === 'fallback' ? wideParOf(l.item) : l.level,
        spec: l,
      };
    };
    const depts: DeptRt[] = spec.departments.map((d) => ({ id: rng.id(), name: d.name, lines: d.lines.map(line) }));
    const wide: DeptRt | null = spec.wide ? { id: null, name: null, lines: spec.wide.lines.map(line) } : null;
    const itemIds = new Set<string>();
    for (const d of [...depts, ...(wide ? [wide] : [])]) for (const l of d.lines) itemIds.add(l.itemId);
    for (const row of spec.wideParOnly) itemIds.add(itemOf(row.item).id);

    const rt: CustomerRt = { spec, id, name: spec.name, currency: spec.currency, depts, wide, itemIds: [...itemIds] };
    customers.push(rt);
    const deptRecords: Department[] = depts.map((d, i) => ({
      id: d.id as string,
      customer_id: id,
      name: d.name as string,
      cost_center_code: spec.departments[i]?.costCenter ?? null,
    }));
    departments.push(...deptRecords);
    customerRecords.push({
      id,
      name: spec.name,
      is_group: spec.isGroup,
      created_at: clock.iso(addDays(ACCOUNTS_AGED_AT, -spec.ageDays), 9 * 60 + rng.int(0, 420)),
      departments: deptRecords.map((d) => ({ id: d.id, name: d.name })).sort(byName),
    });
    customer_items[id] = [...itemIds].sort((a, b) => {
      const na = itemById.get(a)?.name ?? '';
      const nb = itemById.get(b)?.name ?? '';
      return na < nb ? -1 : na > nb ? 1 : 0;
    });
    const overrides = WEIGHT_OVERRIDES[spec.code];
    if (overrides) {
      weight_overrides[id] = Object.fromEntries(Object.entries(overrides).map(([name, w]) => [itemOf(name).id, w]));
    }

    // Par levels: department rows, then customer-wide rows.
    const threshold = (par: number): number => (rng.chance(0.25) ? 0 : Math.max(1, Math.round(par * 0.4)));
    for (const d of depts) {
      for (const l of d.lines) {
        if (l.spec.par !== 'pieces' && l.spec.par !== 'cart_loads') continue;
        const pieces = l.spec.par === 'pieces';
        pars.push({
          customer_id: id,
          department_id: d.id,
          department_name: d.name,
          item_id: l.itemId,
          item_name: l.itemName,
          par_quantity: pieces ? l.spec.level : (l.spec.cartLoads ?? 1),
          par_unit: l.spec.par,
          reorder_threshold: pieces ? threshold(l.spec.level) : rng.chance(0.5) ? 0 : 1,
        });
      }
    }
    const wideRows = [...(spec.wide?.lines.map((l) => ({ item: l.item, par: l.level })) ?? []), ...spec.wideParOnly];
    for (const row of wideRows) {
      const item = itemOf(row.item);
      pars.push({
        customer_id: id,
        department_id: null,
        department_name: null,
        item_id: item.id,
        item_name: item.name,
        par_quantity: row.par,
        par_unit: 'pieces',
        reorder_threshold: threshold(row.par),
      });
    }
  }

  const byCode = new Map(customers.map((c) => [c.spec.code, c]));
  const byId = new Map(customers.map((c) => [c.id, c]));
  const customerName = (cid: string): string => byId.get(cid)?.name ?? '';
  pars.sort(
    (a, b) =>
      cmp(customerName(a.customer_id), customerName(b.customer_id)) ||
      cmp(
        a.department_name === null ? '' : `~${a.department_name}`,
        b.department_name === null ? '' : `~${b.department_name}`,
      ) ||
      cmp(a.item_name, b.item_name),
  );

  return {
    organization,
    customers,
    byCode,
    byId,
    items: items.slice().sort(byName),
    itemById,
    itemByName,
    itemSpecById,
    customerRecords: customerRecords.sort(byName),
    departments: departments.sort(byName),
    customer_items,
    weight_overrides,
    pars,
  };
}

export function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Piece weight used for bin weights: the customer's override, else the catalog weight, else a fallback. */
export function pieceWeight(org: Org, customerId: string, itemId: string): number {
  return org.weight_overrides[customerId]?.[itemId] ?? org.itemById.get(itemId)?.weight_lb ?? FALLBACK_PIECE_LB;
}

export function customerByCode(org: Org, code: string): CustomerRt {
  const c = org.byCode.get(code);
  if (!c) throw new Error(`unknown customer ${code}`);
  return c;
}

/** The demo keys of sandbox/README.md. */
export const DEMO_KEYS = {
  allAccess: 'lk_live_demo_all_access',
  mercyOps: 'lk_live_demo_mercy_ops',
  mercyBilling: 'lk_live_demo_mercy_billing',
  harborHotel: 'lk_live_demo_harbor_hotel',
  unitCounter: 'lk_live_demo_unit_counter',
  revoked: 'lk_live_demo_revoked',
} as const;

export function buildKeys(rng: Rng, org: Org, units: Unit[]): ApiKey[] {
  const all = org.customerRecords.map((c) => c.id);
  const mh = customerByCode(org, 'MH').id;
  const mgh = customerByCode(org, 'MGH').id;
  const hh = customerByCode(org, 'HH').id;
  const counted = units
    .filter((u) => u.customer_id === mgh && u.is_active)
    .slice(0, 2)
    .map((u) => u.id);
  const key = (
    secret: string,
    label: string,
    customer_ids: string[],
    scopes: ApiKey['scopes'],
    extra: Partial<ApiKey> = {},
  ): ApiKey => ({
    secret,
    key_id: `key_${rng.token(12)}`,
    label,
    customer_ids,
    scopes,
    revoked: false,
    ...extra,
  });
  return [
    key(DEMO_KEYS.allAccess, 'All access (demo)', all, ['processing', 'accounting', 'direct_sales']),
    key(DEMO_KEYS.mercyOps, 'Mercy operations', [mh, mgh], ['processing']),
    key(DEMO_KEYS.mercyBilling, 'Mercy billing', [mh, mgh], ['accounting']),
    key(DEMO_KEYS.harborHotel, 'Harborview Hotel', [hh], ['processing', 'direct_sales']),
    key(DEMO_KEYS.unitCounter, 'Mercy General unit counter', [mgh], ['processing'], { unit_ids: counted }),
    key(DEMO_KEYS.revoked, 'Revoked key (demo)', all, ['processing', 'accounting', 'direct_sales'], { revoked: true }),
  ];
}
