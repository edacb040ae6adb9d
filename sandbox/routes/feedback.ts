/** Quality tickets and ratings. Any key. */
import type { QualityTicket, Rating, SandboxData } from '../model.ts';
import { localDay } from '../server/dates.ts';
import { list, type RouteDef } from '../server/router.ts';
import { canSeeCustomer, indexByCustomer, type KeyScope, memo, visibleRows } from '../server/scope.ts';
import { byId, chain, newestFirst, sorted } from '../server/sort.ts';
import { manifestsById } from './processing.ts';

const TICKET_STATUSES = ['new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const;

/** The wire shape of a ticket: the internal customer id is never served. */
export function ticketRow(t: QualityTicket) {
  const { customer_id: _customer, ...row } = t;
  return row;
}

function ratingRow(data: SandboxData, scope: KeyScope) {
  const manifests = manifestsById(data);
  return (r: Rating) => {
    const manifest = manifests.get(r.manifest_id);
    const visible = manifest !== undefined && canSeeCustomer(scope, manifest.customer_id);
    return { ...r, manifest_number: visible ? (r.manifest_number ?? manifest.manifest_number) : null };
  };
}

export const feedbackRoutes: RouteDef[] = [
  {
    path: '/quality-tickets',
    scope: 'any',
    query: { list: true, dates: 'open', params: { status: { type: 'enum', values: TICKET_STATUSES } } },
    handler: ({ data, scope, query, timeZone }) => {
      const index = memo(data, 'tickets', () =>
        indexByCustomer(
          sorted(
            data.tickets,
            chain<QualityTicket>(
              newestFirst((t) => t.created_at),
              byId,
            ),
          ),
          (t) => t.customer_id,
        ),
      );
      const rows = visibleRows(index, scope, query.customerId, (t) => t.customer_id, {
        dayOf: (t) => localDay(t.created_at, timeZone),
        from: query.from,
        to: query.to,
      });
      const { status } = query.values;
      return list(status ? rows.filter((t) => t.status === status) : rows, ticketRow);
    },
  },
  {
    path: '/ratings',
    scope: 'any',
    query: { list: true, dates: 'open' },
    handler: ({ data, scope, query, timeZone }) => {
      const index = memo(data, 'ratings', () =>
        indexByCustomer(
          sorted(
            data.ratings,
            chain<Rating>(
              newestFirst((r) => r.created_at),
              byId,
            ),
          ),
          (r) => r.customer_id,
        ),
      );
      const rows = visibleRows(index, scope, query.customerId, (r) => r.customer_id, {
        dayOf: (r) => localDay(r.created_at, timeZone),
        from: query.from,
        to: query.to,
      });
      return list(rows, ratingRow(data, scope));
    },
  },
];
