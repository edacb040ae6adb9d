/** The spec's rules: authentication, methods, routes, scopes, customer scoping, parameters, cursors, limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import { call, expectError, KEYS, listAll, startTestSandbox } from '../support/sandbox-http.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const customerId = (name: string) => sandbox.data.customers.find((c) => c.name === name)!.id;

describe('authentication', () => {
  it('answers 401 for a missing, unknown, revoked or non-bearer key', async () => {
    expectError(await call(sandbox, '/customers', { key: null }), 401, 'unauthorized');
    expectError(await call(sandbox, '/customers', { key: 'lk_live_not_a_key' }), 401, 'unauthorized');
    expectError(await call(sandbox, '/customers', { key: KEYS.revoked }), 401, 'unauthorized');
    const basic = await call(sandbox, '/customers', { key: null, headers: { authorization: `Basic ${KEYS.all}` } });
    expectError(basic, 401, 'unauthorized');
  });

  it('never reads a key from the URL', async () => {
    const res = await call(sandbox, '/customers', { key: null, query: { api_key: KEYS.all } });
    expectError(res, 401, 'unauthorized');
    const withHeader = await call(sandbox, '/customers', { query: { api_key: KEYS.all } });
    expectError(withHeader, 422, 'invalid_params');
    expect(JSON.stringify(withHeader.body)).not.toContain(KEYS.all);
  });

  it('accepts the bearer scheme in any case', async () => {
    const res = await call(sandbox, '/customers', { key: null, headers: { authorization: `bearer ${KEYS.all}` } });
    expect(res.status).toBe(200);
  });
});

describe('methods and routes', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'answers 405 to %s on known and unknown paths',
    async (method) => {
      for (const path of ['/customers', '/invoices', '/no/such/route']) {
        const res = await call(sandbox, path, { method });
        expectError(res, 405, 'method_not_allowed');
        expect(res.headers.get('allow')).toBe('GET');
      }
    },
  );

  it('answers 405 to HEAD', async () => {
    const res = await fetch(`${sandbox.baseUrl}/customers`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${KEYS.all}` },
    });
    expect(res.status).toBe(405);
  });

  it('answers 404 not_found for unknown routes', async () => {
    for (const path of ['/nope', '/customers/x/y', '/invoices/abc', '/inventory']) {
      expectError(await call(sandbox, path), 404, 'not_found');
    }
    const res = await fetch(`${sandbox.origin}/v2/customers`, { headers: { authorization: `Bearer ${KEYS.all}` } });
    expect(res.status).toBe(404);
  });
});

describe('scopes', () => {
  const cases: [key: string, path: string][] = [
    [KEYS.mercyOps, '/invoices'],
    [KEYS.mercyOps, '/payments'],
    [KEYS.mercyOps, '/balance'],
    [KEYS.mercyOps, '/purchase-orders'],
    [KEYS.mercyOps, '/orders'],
    [KEYS.mercyBilling, '/manifests'],
    [KEYS.mercyBilling, '/deliveries/daily'],
    [KEYS.mercyBilling, '/inventory/signals'],
    [KEYS.mercyBilling, '/orders'],
    [KEYS.hotel, '/invoices'],
    [KEYS.hotel, '/balance'],
  ];
  it.each(cases)('%s on %s is 403 forbidden', async (key, path) => {
    expectError(await call(sandbox, path, { key }), 403, 'forbidden');
  });

  it('lets any key read customers, departments, items, tickets and ratings', async () => {
    for (const key of [KEYS.mercyOps, KEYS.mercyBilling, KEYS.hotel]) {
      for (const path of ['/customers', '/items', '/quality-tickets', '/ratings']) {
        expect((await call(sandbox, path, { key })).status).toBe(200);
      }
    }
  });
});

describe('customer scoping', () => {
  it('lists only the key’s customers', async () => {
    const mercy = new Set([customerId('Mercy Health'), customerId('Mercy General Hospital')]);
    expect(new Set((await listAll(sandbox, '/customers', {}, KEYS.mercyOps)).map((c) => c.id))).toEqual(mercy);
    for (const path of ['/manifests', '/inventory/par', '/inventory/signals', '/ratings', '/deliveries/daily']) {
      const rows = await listAll(sandbox, path, {}, KEYS.mercyOps);
      expect(rows.length, path).toBeGreaterThan(0);
      for (const row of rows) expect(mercy.has(row.customer_id), path).toBe(true);
    }
    // Tickets carry no customer on the wire: check them against the data they came from.
    const tickets = await listAll(sandbox, '/quality-tickets', {}, KEYS.mercyOps);
    const expectedTickets = sandbox.data.tickets.filter((t) => mercy.has(t.customer_id));
    expect(tickets.map((t) => t.id).sort()).toEqual(expectedTickets.map((t) => t.id).sort());
    for (const t of tickets) expect(t).not.toHaveProperty('customer_id');
    for (const path of ['/invoices', '/payments', '/balance', '/purchase-orders']) {
      const rows = await listAll(sandbox, path, {}, KEYS.mercyBilling);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(mercy.has(row.customer_id), path).toBe(true);
    }
  });

  it('answers 404, never 403, for a customer_id outside the key', async () => {
    const west = customerId('Mercy West Surgery Center');
    expectError(
      await call(sandbox, '/manifests', { key: KEYS.mercyOps, query: { customer_id: west } }),
      404,
      'not_found',
    );
    expectError(await call(sandbox, '/items', { key: KEYS.hotel, query: { customer_id: west } }), 404, 'not_found');
    expectError(
      await call(sandbox, '/manifests', { query: { customer_id: 'cnotacustomer0000000000000' } }),
      404,
      'not_found',
    );
    expectError(await call(sandbox, `/customers/${west}/departments`, { key: KEYS.mercyOps }), 404, 'not_found');
  });

  it('answers 404 for single resources outside the key', async () => {
    const west = customerId('Mercy West Surgery Center');
    const manifest = sandbox.data.manifests.find((m) => m.customer_id === west)!;
    expectError(await call(sandbox, `/manifests/${manifest.id}`, { key: KEYS.mercyOps }), 404, 'not_found');
    expectError(await call(sandbox, '/manifests/cnosuchmanifest00000000000'), 404, 'not_found');
    const hotel = customerId('Harborview Hotel');
    const foreignOrder = sandbox.data.orders.find((o) => o.customer_id !== hotel)!;
    expectError(await call(sandbox, `/orders/${foreignOrder.id}`, { key: KEYS.hotel }), 404, 'not_found');
  });

  it('limits a unit-restricted key to its units, their carts and counts', async () => {
    const key = sandbox.data.keys.find((k) => k.secret === KEYS.unitCounter)!;
    const allowed = new Set(key.unit_ids);
    const units = await listAll(sandbox, '/inventory/units', {}, KEYS.unitCounter);
    expect(new Set(units.map((u) => u.id))).toEqual(allowed);
    for (const cart of await listAll(sandbox, '/inventory/carts', {}, KEYS.unitCounter))
      expect(allowed.has(cart.unit_id)).toBe(true);
    for (const count of await listAll(sandbox, '/inventory/counts', {}, KEYS.unitCounter))
      expect(allowed.has(count.unit_id)).toBe(true);
  });
});

describe('query parameters', () => {
  const bad: [path: string, query: Record<string, string>][] = [
    ['/customers', { colour: 'blue' }],
    ['/customers', { from: '2026-10-01' }],
    ['/customers', { limit: '0' }],
    ['/customers', { limit: '201' }],
    ['/customers', { limit: 'ten' }],
    ['/customers', { limit: '1.5' }],
    ['/customers', { limit: '' }],
    ['/invoices', { from: '2026-02-30' }],
    ['/invoices', { from: '2026-1-05' }],
    ['/invoices', { to: 'yesterday' }],
    ['/invoices', { from: '2026-10-02', to: '2026-10-01' }],
    ['/invoices', { status: 'draft' }],
    ['/invoices', { status: 'void' }],
    ['/manifests', { type: 'dirty' }],
    ['/manifests', { status: 'lost' }],
    ['/orders', { stage: 'packed' }],
    ['/inventory/signals', { status: 'closed' }],
    ['/inventory/counts', { status: 'done' }],
    ['/rewash', { status: 'open' }],
    ['/purchase-orders', { status: 'expired' }],
    ['/quality-tickets', { status: 'closed' }],
    ['/deliveries/daily', { from: '2026-01-01', to: '2026-06-01' }],
    ['/inventory/counts', { from: '2026-07-01', to: '2026-10-30' }],
    ['/inventory/signals', { kind: '' }],
  ];
  it.each(bad)('%s %o is 422 invalid_params', async (path, query) => {
    const res = await call(sandbox, path, { query });
    expectError(res, 422, 'invalid_params');
  });

  it('names the offending parameter in the message', async () => {
    const res = await call(sandbox, '/invoices', { query: { statuss: 'sent' } });
    expect(res.body.error.message).toContain('statuss');
  });

  it('rejects a repeated parameter', async () => {
    const url = `${sandbox.baseUrl}/invoices?status=sent&status=paid`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${KEYS.all}` } });
    expect(res.status).toBe(422);
  });

  it('accepts a 92-day window on deliveries and counts and every enum value', async () => {
    const window = { from: '2026-08-06', to: '2026-11-05' }; // 92 days inclusive
    expect((await call(sandbox, '/deliveries/daily', { query: window })).status).toBe(200);
    expect((await call(sandbox, '/inventory/counts', { query: window })).status).toBe(200);
    for (const status of ['sent', 'partially_paid', 'paid']) {
      expect((await call(sandbox, '/invoices', { query: { status } })).status).toBe(200);
    }
    expect((await call(sandbox, '/inventory/signals', { query: { kind: 'some_future_kind' } })).status).toBe(200);
  });
});

describe('pagination', () => {
  it('walks a multi-page list to the end with no duplicate or missing row', async () => {
    const everything = await listAll(sandbox, '/manifests');
    expect(everything.length).toBeGreaterThan(400);
    const walked: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await call(sandbox, '/manifests', { query: { limit: '97', ...(cursor ? { cursor } : {}) } });
      expect(res.status).toBe(200);
      walked.push(...res.body.data.map((m: any) => m.id));
      cursor = res.body.pagination.has_more ? res.body.pagination.cursor : undefined;
      if (!res.body.pagination.has_more) expect(res.body.pagination.cursor).toBeNull();
      pages++;
    } while (cursor);
    expect(pages).toBe(Math.ceil(everything.length / 97));
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(everything.map((m) => m.id));
    expect(everything.length).toBe(sandbox.data.manifests.length);
  });

  it('defaults to 50 rows a page', async () => {
    const res = await call(sandbox, '/manifests');
    expect(res.body.data).toHaveLength(50);
    expect(res.body.pagination.has_more).toBe(true);
  });

  it('rejects tampered, foreign and re-filtered cursors', async () => {
    const first = await call(sandbox, '/manifests', { query: { type: 'normal', limit: '5' } });
    const cursor: string = first.body.pagination.cursor;
    const tampered = cursor.slice(0, -2) + (cursor.endsWith('A') ? 'BB' : 'AA');
    expectError(
      await call(sandbox, '/manifests', { query: { type: 'normal', cursor: tampered } }),
      422,
      'invalid_params',
    );
    expectError(
      await call(sandbox, '/manifests', { query: { type: 'normal', cursor: 'not-a-cursor' } }),
      422,
      'invalid_params',
    );
    expectError(await call(sandbox, '/invoices', { query: { cursor } }), 422, 'invalid_params');
    expectError(await call(sandbox, '/manifests', { query: { type: 'rewash', cursor } }), 422, 'invalid_params');
    expect((await call(sandbox, '/manifests', { query: { type: 'normal', cursor, limit: '9' } })).status).toBe(200);
  });
});
