/** Manifests, daily deliveries, new-linen injections and rewash batches. Scope: processing. */
import type { DailyDeliveryRow, Manifest, NewLinenInjection, RewashBatch, SandboxData } from '../model.ts';
import { localDay } from '../server/dates.ts';
import { notFound } from '../server/errors.ts';
import { list, type RouteDef, single } from '../server/router.ts';
import { canSeeCustomer, indexByCustomer, memo, visibleRows } from '../server/scope.ts';
import { byId, byText, chain, newestFirst, sorted } from '../server/sort.ts';

const MANIFEST_TYPES = ['normal', 'rewash', 'new_linen'] as const;
const MANIFEST_STATUSES = ['collected', 'received', 'cleaned', 'staged', 'delivered'] as const;
const REWASH_STATUSES = ['pending', 'consumed', 'voided'] as const;

export function manifestIndex(data: SandboxData) {
  return memo(data, 'manifests', () =>
    indexByCustomer(
      sorted(
        data.manifests,
        // Delivered newest first; undelivered after them, newest created first.
        chain<Manifest>(
          newestFirst((m) => m.delivered_at),
          newestFirst((m) => (m.delivered_at === null ? m.created_at : null)),
          byId,
        ),
      ),
      (m) => m.customer_id,
    ),
  );
}

export function manifestsById(data: SandboxData): ReadonlyMap<string, Manifest> {
  return memo(data, 'manifests:byId', () => new Map(data.manifests.map((m) => [m.id, m])));
}

/** A manifest list row: the detail-only fields dropped. */
export function manifestRow(m: Manifest) {
  const { bins: _bins, held_rewash: _held, rewash_links: _links, signature: _sig, ...row } = m;
  return row;
}

const deliveryOrder = chain<DailyDeliveryRow>(
  (a, b) => (a.date === b.date ? 0 : a.date < b.date ? 1 : -1),
  (a, b) => byText(a.customer_name, b.customer_name),
  (a, b) => byText(a.customer_id, b.customer_id),
  (a, b) => byText(a.department_name, b.department_name),
  (a, b) => byText(a.department_id, b.department_id),
  (a, b) => byText(a.item_name, b.item_name),
  (a, b) => byText(a.item_id, b.item_id),
);

export const processingRoutes: RouteDef[] = [
  {
    path: '/manifests',
    scope: 'processing',
    query: {
      list: true,
      dates: 'open',
      params: {
        department_id: { type: 'id' },
        type: { type: 'enum', values: MANIFEST_TYPES },
        status: { type: 'enum', values: MANIFEST_STATUSES },
      },
    },
    handler: ({ data, scope, query, timeZone }) => {
      const { department_id, type, status } = query.values;
      let rows = visibleRows(manifestIndex(data), scope, query.customerId, (m) => m.customer_id, {
        dayOf: (m) => (m.delivered_at === null ? null : localDay(m.delivered_at, timeZone)),
        from: query.from,
        to: query.to,
      });
      if (department_id || type || status) {
        rows = rows.filter(
          (m) =>
            (!department_id || m.department_id === department_id) &&
            (!type || m.type === type) &&
            (!status || m.status === status),
        );
      }
      return list(rows, manifestRow);
    },
  },
  {
    path: '/manifests/:id',
    scope: 'processing',
    query: { list: false },
    handler: ({ data, scope, path }) => {
      const m = manifestsById(data).get(path.id!);
      if (!m || !canSeeCustomer(scope, m.customer_id)) throw notFound(`Manifest "${path.id}" was not found.`);
      return single(m);
    },
  },
  {
    path: '/deliveries/daily',
    scope: 'processing',
    query: { list: true, dates: 'window', params: { department_id: { type: 'id' }, item_id: { type: 'id' } } },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'deliveries', () =>
        indexByCustomer(sorted(data.daily_deliveries, deliveryOrder), (r) => r.customer_id),
      );
      const { department_id, item_id } = query.values;
      let rows = visibleRows(index, scope, query.customerId, (r) => r.customer_id, {
        dayOf: (r) => r.date,
        from: query.from,
        to: query.to,
      });
      if (department_id || item_id) {
        rows = rows.filter(
          (r) => (!department_id || r.department_id === department_id) && (!item_id || r.item_id === item_id),
        );
      }
      return list(rows);
    },
  },
  {
    path: '/new-linen',
    scope: 'processing',
    query: { list: true, dates: 'open' },
    handler: ({ data, scope, query }) => {
      const index = memo(data, 'new_linen', () =>
        indexByCustomer(
          sorted(
            data.new_linen,
            chain<NewLinenInjection>(
              newestFirst((n) => n.date),
              byId,
            ),
          ),
          (n) => n.customer_id,
        ),
      );
      return list(
        visibleRows(index, scope, query.customerId, (n) => n.customer_id, {
          dayOf: (n) => n.date,
          from: query.from,
          to: query.to,
        }),
      );
    },
  },
  {
    path: '/rewash',
    scope: 'processing',
    query: { list: true, dates: 'open', params: { status: { type: 'enum', values: REWASH_STATUSES } } },
    handler: ({ data, scope, query, timeZone }) => {
      const index = memo(data, 'rewash', () =>
        indexByCustomer(
          sorted(
            data.rewash_batches,
            chain<RewashBatch>(
              newestFirst((r) => r.discovered_at),
              byId,
            ),
          ),
          (r) => r.customer_id,
        ),
      );
      const { status } = query.values;
      const rows = visibleRows(index, scope, query.customerId, (r) => r.customer_id, {
        dayOf: (r) => localDay(r.discovered_at, timeZone),
        from: query.from,
        to: query.to,
      });
      return list(status ? rows.filter((r) => r.status === status) : rows);
    },
  },
];
