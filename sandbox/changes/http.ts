/**
 * The change controls over HTTP, under `/__sandbox/changes` (no key, JSON bodies): each route calls the
 * `sandbox.changes` method of the same name, so both answer alike. sandbox/README.md lists the routes.
 */
import { ApiError, notFound } from '../server/errors.ts';
import type { SandboxChanges } from './index.ts';

interface ChangeRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Below `/__sandbox/changes`, with `:id` for a record id. */
  path: string;
  /** 201 when the change adds a record. */
  status: 200 | 201;
  run: (changes: SandboxChanges, id: string, body: unknown) => unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: each body is validated by the method it is handed to.
type Body = any;

const log = (changes: SandboxChanges) => ({ count: changes.log.length, entries: changes.log });

const ROUTES: readonly ChangeRoute[] = [
  { method: 'GET', path: '', status: 200, run: (c) => log(c) },
  {
    method: 'DELETE',
    path: '',
    status: 200,
    run: (c) => {
      c.reset();
      return log(c);
    },
  },
  { method: 'POST', path: '/cart-counts', status: 201, run: (c, _, b: Body) => c.addCartCount(b) },
  { method: 'POST', path: '/cart-counts/close-short', status: 200, run: (c, _, b: Body) => c.closeCartCountShort(b) },
  { method: 'PATCH', path: '/cart-counts/:id', status: 200, run: (c, id, b: Body) => c.changeCartCount(id, b) },
  { method: 'POST', path: '/signals', status: 201, run: (c, _, b: Body) => c.addSignal(b) },
  { method: 'PATCH', path: '/signals/:id', status: 200, run: (c, id, b: Body) => c.changeSignal(id, b) },
  { method: 'POST', path: '/quality-tickets', status: 201, run: (c, _, b: Body) => c.openTicket(b) },
  { method: 'PATCH', path: '/quality-tickets/:id', status: 200, run: (c, id, b: Body) => c.changeTicket(id, b) },
  { method: 'POST', path: '/invoices', status: 201, run: (c, _, b: Body) => c.addInvoice(b) },
  { method: 'PATCH', path: '/invoices/:id', status: 200, run: (c, id, b: Body) => c.changeInvoice(id, b) },
  { method: 'POST', path: '/invoices/:id/payments', status: 201, run: (c, id, b: Body) => c.payInvoice(id, b) },
  { method: 'POST', path: '/purchase-orders', status: 201, run: (c, _, b: Body) => c.addPurchaseOrder(b) },
  {
    method: 'POST',
    path: '/purchase-orders/:id/spend',
    status: 201,
    run: (c, id, b: Body) => c.spendPurchaseOrder(id, b),
  },
  { method: 'PUT', path: '/deliveries/daily', status: 200, run: (c, _, b: Body) => c.setDailyDelivery(b) },
];

/** The id a path gives for `pattern`, '' when it has none, or null when the path is not the pattern's. */
function matchPath(pattern: string, path: string): string | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  let id = '';
  for (let i = 0; i < want.length; i++) {
    if (want[i] === ':id') {
      try {
        id = decodeURIComponent(got[i] ?? '');
      } catch {
        return null;
      }
      if (id === '') return null;
    } else if (want[i] !== got[i]) return null;
  }
  return id;
}

/**
 * Runs the change at `path` (below `/__sandbox/changes`) and returns its status and answer; `readBody` gives
 * the parsed JSON body (undefined when empty) and is only called for methods that take one.
 */
export async function runChangeRoute(
  changes: SandboxChanges,
  method: string,
  path: string,
  readBody: () => Promise<unknown>,
): Promise<{ status: number; data: unknown }> {
  // A path that is a route's own (`/cart-counts/close-short`) is never read as an id of another route.
  const literal = ROUTES.filter((route) => route.path === path).map((route) => ({ route, id: '' }));
  const matches =
    literal.length > 0
      ? literal
      : ROUTES.map((route) => ({ route, id: matchPath(route.path, path) })).filter((m) => m.id !== null);
  if (matches.length === 0) throw notFound(`No sandbox change at /__sandbox/changes${path}.`);
  const hit = matches.find((m) => m.route.method === method);
  if (!hit) {
    const allowed = [...new Set(matches.map((m) => m.route.method))].join(', ');
    throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed here.`, { Allow: allowed });
  }
  const body = method === 'GET' || method === 'DELETE' ? undefined : await readBody();
  return { status: hit.route.status, data: hit.route.run(changes, hit.id ?? '', body) };
}
