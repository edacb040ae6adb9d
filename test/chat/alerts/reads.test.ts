/**
 * `alertReads` over the sandbox: each listing is asked once per reads object however many alerts ask for it
 * (counted in the sandbox's own request log), every row of it is read, and a listing that failed fails every alert
 * that asks without being asked again until the next check.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlertKind, AlertScope } from '../../../chat/alerts/kind.ts';
import { ALERT_KINDS } from '../../../chat/alerts/kinds/index.ts';
import { alertReads } from '../../../chat/alerts/reads.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import { createLinenClient, InternalServerError, type LinenClient } from '../../../shared/node.ts';
import { KEYS, listAll, startTestSandbox, TODAY } from '../../support/sandbox-http.ts';

const TZ = 'America/Chicago';
const YESTERDAY = '2026-11-04';
const NOW = new Date(`${TODAY}T18:00:00Z`);
const TIME = { now: NOW, today: TODAY, yesterday: YESTERDAY };

let sandbox: Sandbox;
let client: LinenClient;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  client = createLinenClient({
    apiKey: KEYS.all,
    baseUrl: sandbox.baseUrl,
    timeZone: TZ,
    pacing: false,
    maxRetries: 0,
    now: () => NOW.getTime(),
  });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});
beforeEach(() => {
  sandbox.faults.reset();
  sandbox.requests.clear();
});

/** Requests by path since the log was cleared. */
function requestsByPath(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of sandbox.requests.entries) out[r.path] = (out[r.path] ?? 0) + 1;
  return out;
}

describe('alertReads', () => {
  it('fifty alerts of every kind on one key: each listing asked once, tickets once per customer', async () => {
    const reads = alertReads(client, { now: NOW });
    const customers = await listAll(sandbox, '/customers');
    sandbox.requests.clear();
    const options: Record<string, unknown> = {
      short: { minMissing: 1 },
      signal: {},
      ticket: {},
      overdue: { days: 30 },
      budget: { percent: 60 },
      parmet: { belowPercent: 100 },
    };
    const checks: Promise<unknown>[] = [];
    for (let i = 0; i < 50; i++) {
      for (const kind of ALERT_KINDS as readonly AlertKind[]) {
        // Every customer, and each customer in turn: scopes overlap, listings do not repeat.
        const ids = i % 2 ? [] : [customers[i % customers.length].id];
        const scope: AlertScope<unknown> = { options: options[kind.name], customerIds: ids, timeZone: TZ };
        checks.push(kind.occurrences(scope, reads, TIME, new Set()));
      }
    }
    await Promise.all(checks);
    expect(requestsByPath()).toEqual({
      '/v1/customers': 1,
      '/v1/inventory/counts': 1,
      '/v1/inventory/signals': 1,
      // Sent and partially paid.
      '/v1/invoices': 2,
      '/v1/purchase-orders': 1,
      '/v1/deliveries/daily': 1,
      '/v1/quality-tickets': customers.length,
    });
  });

  it('reads every row the API lists', async () => {
    const reads = alertReads(client, { now: NOW });
    const pairs: [() => Promise<unknown[]>, string, Record<string, string>][] = [
      [reads.customers, '/customers', {}],
      [() => reads.cartCounts(TODAY), '/inventory/counts', { from: TODAY, to: TODAY }],
      [reads.units, '/inventory/units', {}],
      [reads.signals, '/inventory/signals', {}],
      [reads.activePurchaseOrders, '/purchase-orders', { status: 'active' }],
      [() => reads.deliveries(YESTERDAY), '/deliveries/daily', { from: YESTERDAY, to: YESTERDAY }],
    ];
    for (const [read, path, query] of pairs) {
      const want = await listAll(sandbox, path, query);
      expect((await read()).map((r: any) => JSON.stringify(r)).sort()).toEqual(
        want.map((r) => JSON.stringify(r)).sort(),
      );
    }
    const open = [
      ...(await listAll(sandbox, '/invoices', { status: 'sent' })),
      ...(await listAll(sandbox, '/invoices', { status: 'partially_paid' })),
    ];
    expect((await reads.openInvoices()).map((i) => i.id).sort()).toEqual(open.map((i) => i.id).sort());
    const mercy = (await reads.customers()).find((c) => c.name === 'Mercy General Hospital')!;
    const tickets = await listAll(sandbox, '/quality-tickets', { customer_id: mercy.id, from: '2025-11-05' });
    expect((await reads.ticketsOf(mercy.id)).map((t) => t.id).sort()).toEqual(tickets.map((t) => t.id).sort());
    expect((await reads.departments(mercy.id)).map((d) => d.cost_center_code)).toContain('MGH-4030');
  });

  it('a day is its own listing: two days, two requests', async () => {
    const reads = alertReads(client, { now: NOW });
    await Promise.all([reads.cartCounts(TODAY), reads.cartCounts(YESTERDAY), reads.cartCounts(TODAY)]);
    expect(requestsByPath()).toEqual({ '/v1/inventory/counts': 2 });
  });

  it('a failed listing fails every alert asking for it, and is asked again only by the next reads', async () => {
    sandbox.faults.enqueue({ kind: '500', count: 1 });
    const reads = alertReads(client, { now: NOW });
    const kinds = ALERT_KINDS.filter((k) => k.name === 'signal');
    const scope = { options: {}, customerIds: [], timeZone: TZ };
    const outcomes = await Promise.allSettled([
      reads.signals(),
      ...kinds.map((k) => (k as AlertKind).occurrences(scope, reads, TIME, new Set())),
      reads.signals(),
    ]);
    for (const o of outcomes) {
      expect(o.status).toBe('rejected');
      expect((o as PromiseRejectedResult).reason).toBeInstanceOf(InternalServerError);
    }
    // The customers' listing is its own: it succeeds.
    expect((await reads.customers()).length).toBeGreaterThan(0);
    expect(requestsByPath()).toEqual({ '/v1/inventory/signals': 1, '/v1/customers': 1 });
    const next = alertReads(client, { now: NOW });
    expect((await next.signals()).length).toBeGreaterThan(0);
    expect(requestsByPath()['/v1/inventory/signals']).toBe(2);
  });
});
