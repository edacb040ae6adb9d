/** /inventory/*: totals, par levels, units, carts, cart counts, balances by status, signals. Scope: processing. */
import type { Cart, CartCount, InventoryPosition, InventorySignal, ParLevel, SandboxData, Unit } from '../model.ts';
import { list, type RouteDef } from '../server/router.ts';
import { indexByCustomer, type KeyScope, memo, visibleRows } from '../server/scope.ts';
import { byId, byText, chain, newestFirst, sorted } from '../server/sort.ts';

const COUNT_STATUSES = ['pending', 'in_progress', 'counted', 'verified', 'assumed'] as const;
const SIGNAL_STATUSES = ['open', 'acknowledged', 'dismissed', 'resolved'] as const;
const DEFAULT_SIGNAL_STATUSES: ReadonlySet<string> = new Set(['open', 'acknowledged']);
const SEVERITY_RANK: Record<string, number> = { high: 0, medium: 1, low: 2 };

function customerNames(data: SandboxData): ReadonlyMap<string, string> {
  return memo(data, 'customers:names', () => new Map(data.customers.map((c) => [c.id, c.name])));
}

/** Cache key of the customers a request covers. */
function customersKey(scope: KeyScope, customerId: string | null): string {
  if (customerId !== null) return `c:${customerId}`;
  if (scope.allCustomers) return 'all';
  return `k:${[...scope.customerIds].sort().join(',')}`;
}

function positions(data: SandboxData, scope: KeyScope, customerId: string | null): readonly InventoryPosition[] {
  const index = memo(data, 'inventory', () => indexByCustomer(data.inventory, (p) => p.customer_id));
  return visibleRows(index, scope, customerId, (p) => p.customer_id);
}

interface TotalRow {
  item_id: string;
  item_name: string;
  total_owned: number;
  at_customer: number;
  at_facility: number;
  in_transit: number;
  retired: number;
}

function totals(rows: readonly InventoryPosition[]): TotalRow[] {
  const byItem = new Map<string, TotalRow>();
  for (const p of rows) {
    let t = byItem.get(p.item_id);
    if (!t) {
      t = {
        item_id: p.item_id,
        item_name: p.item_name,
        total_owned: 0,
        at_customer: 0,
        at_facility: 0,
        in_transit: 0,
        retired: 0,
      };
      byItem.set(p.item_id, t);
    }
    t.at_customer += p.at_customer;
    t.at_facility += p.new + p.in_reserve + p.in_plant;
    t.in_transit += p.in_transit;
    for (const n of Object.values(p.retired)) t.retired += n;
  }
  for (const t of byItem.values()) t.total_owned = t.at_customer + t.at_facility + t.in_transit;
  return sorted([...byItem.values()], (a, b) => byText(a.item_name, b.item_name) || byText(a.item_id, b.item_id));
}

interface BalanceRow {
  item_id: string;
  item_name: string;
  status: string;
  quantity: number;
}

function balances(rows: readonly InventoryPosition[]): BalanceRow[] {
  const byKey = new Map<string, BalanceRow>();
  const add = (p: InventoryPosition, status: string, quantity: number) => {
    const k = `${p.item_id}\u0000${status}`;
    const row = byKey.get(k);
    if (row) row.quantity += quantity;
    else byKey.set(k, { item_id: p.item_id, item_name: p.item_name, status, quantity });
  };
  for (const p of rows) {
    add(p, 'new', p.new);
    add(p, 'in_reserve', p.in_reserve);
    add(p, 'in_plant', p.in_plant);
    add(p, 'in_transit', p.in_transit);
    add(p, 'at_customer', p.at_customer);
    for (const [status, n] of Object.entries(p.retired)) add(p, status, n);
  }
  return sorted(
    [...byKey.values()].filter((r) => r.quantity !== 0),
    (a, b) => byText(a.item_name, b.item_name) || byText(a.item_id, b.item_id) || byText(a.status, b.status),
  );
}

const unitVisible = (scope: KeyScope, unitId: string | null) =>
  scope.unitIds === null || (unitId !== null && scope.unitIds.has(unitId));

export const inventoryRoutes: RouteDef[] = [
  {
    path: '/inventory/totals',
    scope: 'processing',
    query: { list: true },
    handler: ({ data, scope, query }) =>
      list(
        memo(data, `totals:${customersKey(scope, query.customerId)}`, () =>
          totals(positions(data, scope, query.customerId)),
        ),
      ),
  },
  {
    path: '/inventory/balances',
    scope: 'processing',
    query: { list: true, params: { item_id: { type: 'id' } } },
    handler: ({ data, scope, query }) => {
      const rows = memo(data, `balances:${customersKey(scope, query.customerId)}`, () =>
        balances(positions(data, scope, query.customerId)),
      );
      const { item_id } = query.values;
      return list(item_id ? rows.filter((r) => r.item_id === item_id) : rows);
    },
  },
  {
    path: '/inventory/par',
    scope: 'processing',
    query: { list: true, params: { department_id: { type: 'id' } } },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'pars', () => {
        const names = customerNames(data);
        const order = chain<ParLevel>(
          (a, b) => byText(names.get(a.customer_id), names.get(b.customer_id)) || byText(a.customer_id, b.customer_id),
          (a, b) => byText(a.department_name, b.department_name) || byText(a.department_id, b.department_id),
          (a, b) => byText(a.item_name, b.item_name) || byText(a.item_id, b.item_id),
        );
        return indexByCustomer(sorted(data.pars, order), (p) => p.customer_id);
      });
      const rows = visibleRows(index, scope, query.customerId, (p) => p.customer_id);
      const { department_id } = query.values;
      return list(department_id ? rows.filter((p) => p.department_id === department_id) : rows);
    },
  },
  {
    path: '/inventory/units',
    scope: 'processing',
    query: { list: true },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'units', () =>
        indexByCustomer(
          sorted(
            data.units,
            chain<Unit>((a, b) => byText(a.name, b.name), byId),
          ),
          (u) => u.customer_id,
        ),
      );
      const rows = visibleRows(index, scope, query.customerId, (u) => u.customer_id);
      return list(scope.unitIds ? rows.filter((u) => unitVisible(scope, u.id)) : rows);
    },
  },
  {
    path: '/inventory/carts',
    scope: 'processing',
    query: { list: true, params: { unit_id: { type: 'id' } } },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'carts', () =>
        indexByCustomer(
          sorted(
            data.carts,
            chain<Cart>((a, b) => byText(a.name, b.name), byId),
          ),
          (c) => c.customer_id,
        ),
      );
      const { unit_id } = query.values;
      const rows = visibleRows(index, scope, query.customerId, (c) => c.customer_id);
      if (!unit_id && !scope.unitIds) return list(rows);
      return list(rows.filter((c) => (!unit_id || c.unit_id === unit_id) && unitVisible(scope, c.unit_id)));
    },
  },
  {
    path: '/inventory/counts',
    scope: 'processing',
    query: {
      list: true,
      dates: 'window',
      params: { unit_id: { type: 'id' }, cart_id: { type: 'id' }, status: { type: 'enum', values: COUNT_STATUSES } },
    },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'cart_counts', () =>
        indexByCustomer(
          sorted(
            data.cart_counts,
            chain<CartCount>(
              newestFirst((c) => c.date),
              byId,
            ),
          ),
          (c) => c.customer_id,
        ),
      );
      const { unit_id, cart_id, status } = query.values;
      const rows = visibleRows(index, scope, query.customerId, (c) => c.customer_id, {
        dayOf: (c) => c.date,
        from: query.from,
        to: query.to,
      });
      if (!unit_id && !cart_id && !status && !scope.unitIds) return list(rows);
      return list(
        rows.filter(
          (c) =>
            (!unit_id || c.unit_id === unit_id) &&
            (!cart_id || c.cart_id === cart_id) &&
            (!status || c.status === status) &&
            unitVisible(scope, c.unit_id),
        ),
      );
    },
  },
  {
    path: '/inventory/signals',
    scope: 'processing',
    query: { list: true, params: { kind: { type: 'text' }, status: { type: 'enum', values: SIGNAL_STATUSES } } },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'signals', () => {
        const rows = sorted(
          data.signals,
          chain<InventorySignal>(
            (a, b) => (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3),
            newestFirst((s) => s.generated_at),
            byId,
          ),
        );
        return { ...indexByCustomer(rows, (s) => s.customer_id), sorted: rows };
      });
      const { kind, status } = query.values;
      // Organization-wide signals (no customer) only reach keys that see every customer.
      const rows =
        query.customerId === null && scope.allCustomers
          ? index.sorted
          : visibleRows(index, scope, query.customerId, (s) => s.customer_id);
      return list(
        rows.filter(
          (s) => (status ? s.status === status : DEFAULT_SIGNAL_STATUSES.has(s.status)) && (!kind || s.kind === kind),
        ),
      );
    },
  },
];
