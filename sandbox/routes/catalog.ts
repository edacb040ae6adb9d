/** Customers, departments of a customer, items. Any key. */
import type { Customer, Department, Item, SandboxData } from '../model.ts';
import { notFound } from '../server/errors.ts';
import type { QuerySchema } from '../server/params.ts';
import { list, type RouteDef } from '../server/router.ts';
import { canSeeCustomer, indexByCustomer, memo, visibleRows } from '../server/scope.ts';
import { byId, byText, chain, sorted } from '../server/sort.ts';

const byName = chain<{ name: string; id: string }>((a, b) => byText(a.name, b.name), byId);

function customerIndex(data: SandboxData) {
  return memo(data, 'customers', () =>
    indexByCustomer(
      sorted(data.customers, byName).map((c): Customer => ({ ...c, departments: sorted(c.departments, byName) })),
      (c) => c.id,
    ),
  );
}

function departmentsOf(data: SandboxData, customerId: string): readonly Department[] {
  const index = memo(data, 'departments', () =>
    indexByCustomer(sorted(data.departments, byName), (d) => d.customer_id),
  );
  return index.byCustomer.get(customerId) ?? [];
}

function itemsById(data: SandboxData): ReadonlyMap<string, Item> {
  return memo(data, 'items:byId', () => new Map(data.items.map((i) => [i.id, i])));
}

/** One customer's catalog, with its weight overrides applied. */
function customerCatalog(data: SandboxData, customerId: string): readonly Item[] {
  return memo(data, `items:customer:${customerId}`, () => {
    const byIdMap = itemsById(data);
    const overrides = data.weight_overrides[customerId] ?? {};
    const rows: Item[] = [];
    for (const id of new Set(data.customer_items[customerId] ?? [])) {
      const item = byIdMap.get(id);
      if (!item) continue;
      const override = overrides[id];
      rows.push(override === undefined ? item : { ...item, weight_lb: override });
    }
    return sorted(rows, byName);
  });
}

/** The union of several customers' catalogs, catalog default weights. */
function unionCatalog(data: SandboxData, customerIds: Iterable<string>): readonly Item[] {
  const ids = [...customerIds].sort();
  return memo(data, `items:union:${ids.join(',')}`, () => {
    const byIdMap = itemsById(data);
    const seen = new Set<string>();
    const rows: Item[] = [];
    for (const c of ids) {
      for (const id of data.customer_items[c] ?? []) {
        const item = byIdMap.get(id);
        if (!item || seen.has(id)) continue;
        seen.add(id);
        rows.push(item);
      }
    }
    return sorted(rows, byName);
  });
}

const plainList: QuerySchema = { list: true };

export const catalogRoutes: RouteDef[] = [
  {
    path: '/customers',
    scope: 'any',
    query: plainList,
    handler: ({ data, scope, query }) => list(visibleRows(customerIndex(data), scope, query.customerId, (c) => c.id)),
  },
  {
    path: '/customers/:id/departments',
    scope: 'any',
    query: plainList,
    handler: ({ data, scope, query, path }) => {
      const id = path.id!;
      if (!canSeeCustomer(scope, id)) throw notFound(`Customer "${id}" was not found.`);
      if (query.customerId !== null && query.customerId !== id) return list([]);
      return list(departmentsOf(data, id));
    },
  },
  {
    path: '/items',
    scope: 'any',
    query: plainList,
    handler: ({ data, scope, query }) =>
      list(query.customerId !== null ? customerCatalog(data, query.customerId) : unionCatalog(data, scope.customerIds)),
  },
];
