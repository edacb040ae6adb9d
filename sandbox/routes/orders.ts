/** Direct-sales orders. Scope: direct_sales. */
import type { DirectSalesOrder, SandboxData } from '../model.ts';
import { localDay } from '../server/dates.ts';
import { notFound } from '../server/errors.ts';
import { list, type RouteDef, single } from '../server/router.ts';
import { canSeeCustomer, indexByCustomer, memo, visibleRows } from '../server/scope.ts';
import { byId, chain, newestFirst, sorted } from '../server/sort.ts';

const STAGES = ['draft', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled'] as const;

function orderIndex(data: SandboxData) {
  return memo(data, 'orders', () =>
    indexByCustomer(
      sorted(
        data.orders,
        chain<DirectSalesOrder>(
          newestFirst((o) => o.placed_at),
          byId,
        ),
      ),
      (o) => o.customer_id,
    ),
  );
}

/** A list row: `lines` and `charges` are detail-only. */
function orderRow(o: DirectSalesOrder) {
  const { lines: _lines, charges: _charges, ...row } = o;
  return row;
}

export const orderRoutes: RouteDef[] = [
  {
    path: '/orders',
    scope: 'direct_sales',
    query: { list: true, dates: 'open', params: { stage: { type: 'enum', values: STAGES } } },
    handler: ({ data, scope, query, timeZone }) => {
      const rows = visibleRows(orderIndex(data), scope, query.customerId, (o) => o.customer_id, {
        dayOf: (o) => (o.placed_at === null ? null : localDay(o.placed_at, timeZone)),
        from: query.from,
        to: query.to,
      });
      const { stage } = query.values;
      return list(stage ? rows.filter((o) => o.stage === stage) : rows, orderRow);
    },
  },
  {
    path: '/orders/:id',
    scope: 'direct_sales',
    query: { list: false },
    handler: ({ data, scope, path }) => {
      const byIdMap = memo(data, 'orders:byId', () => new Map(data.orders.map((o) => [o.id, o])));
      const order = byIdMap.get(path.id!);
      if (!order || !canSeeCustomer(scope, order.customer_id)) throw notFound(`Order "${path.id}" was not found.`);
      return single(order);
    },
  },
];
