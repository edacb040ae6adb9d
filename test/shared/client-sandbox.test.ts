/** The client against the sandbox over real HTTP, through both runners. */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorForResponse } from '../../shared/core/failures.ts';
import { addDays, daysInclusive } from '../../shared/dates.ts';
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  createLinenClient,
  createLinenClientSync,
  InternalServerError,
  InvalidParamsError,
  type LinenClient,
  type LinenClientOptions,
  type LinenClientSync,
  type LinenError,
  MethodNotAllowedError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  UndiciTransport,
} from '../../shared/node.ts';
import {
  BlockingTransport,
  blockingSleep,
  recording,
  startWorkerSandbox,
  type WorkerSandbox,
} from '../support/worker-sandbox.ts';

const ALL = 'lk_live_demo_all_access';
const OPS = 'lk_live_demo_mercy_ops';
const REVOKED = 'lk_live_demo_revoked';
const TODAY = '2025-03-20';
const TZ = 'America/Chicago';

let sb: WorkerSandbox;
let blocking: BlockingTransport;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  sb = await startWorkerSandbox({ today: TODAY, timeZone: TZ, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  blocking = new BlockingTransport();
});
afterAll(async () => {
  for (const o of open) await o.close();
  await blocking?.close();
  await sb?.close();
});

type AnyClient = LinenClient | LinenClientSync;
type Extra = Partial<LinenClientOptions>;

function makeClient(mode: 'async' | 'sync', apiKey = ALL, extra: Extra = {}) {
  const base = { apiKey, baseUrl: sb.baseUrl, timeZone: TZ, initialRetryDelayMs: 50, ...extra };
  if (mode === 'async') {
    const t = recording(new UndiciTransport());
    open.push(t as { close(): Promise<void> });
    return { client: createLinenClient({ ...base, transport: t }) as AnyClient, t };
  }
  const t = recording(blocking);
  return { client: createLinenClientSync({ ...base, transport: t, sleep: blockingSleep }) as AnyClient, t };
}

async function caught(f: () => unknown): Promise<LinenError> {
  try {
    await f();
  } catch (e) {
    return e as LinenError;
  }
  throw new Error('expected an error');
}

function expectNoKey(e: unknown, key: string) {
  for (const s of [String(e), JSON.stringify(e), (e as Error).stack ?? '', inspect(e, { depth: 5 })])
    expect(s).not.toContain(key);
}

describe.each(['async', 'sync'] as const)('%s client against the sandbox', (mode) => {
  it('parses every endpoint', async () => {
    const { client: c } = makeClient(mode);
    const d = sb.data;
    const customers = await c.customers.list().all();
    expect(customers.map((x) => x.id).sort()).toEqual(d.customers.map((x) => x.id).sort());
    const withDepts = customers.find((x) => x.departments.length > 0)!;
    expect((await c.customers.departments(withDepts.id).all()).length).toBe(withDepts.departments.length);
    expect((await c.items.list().all()).length).toBeGreaterThan(0);
    const manifests = await c.manifests.list({ limit: 5 }).page();
    const detail = await c.manifests.get(manifests.data[0]!.id);
    expect(detail.id).toBe(manifests.data[0]!.id);
    expect(Array.isArray(detail.bins)).toBe(true);
    expect((await c.deliveries.daily().all()).every((r) => r.date >= addDays(TODAY, -6) && r.date <= TODAY)).toBe(true);
    for (const f of ['totals', 'par', 'units', 'carts', 'counts', 'balances', 'signals'] as const) {
      const page = await c.inventory[f]({ limit: 20 }).page();
      expect(page.requestId).toMatch(/^req_/);
    }
    await c.newLinen.list({ limit: 10 }).page();
    await c.rewash.list({ limit: 10 }).page();
    const invoices = await c.invoices.list().all();
    expect(invoices.length).toBe(
      d.invoices.filter((i) => ['sent', 'partially_paid', 'paid'].includes(i.status)).length,
    );
    await c.payments.list({ limit: 10 }).page();
    expect((await c.balance.list().all()).length).toBe(d.customers.length);
    await c.purchaseOrders.list({ limit: 10 }).page();
    const orders = await c.orders.list({ limit: 5 }).page();
    const order = await c.orders.get(orders.data[0]!.id);
    expect(order.lines.length).toBeGreaterThan(0);
    await c.qualityTickets.list({ limit: 10 }).page();
    await c.ratings.list({ limit: 10 }).page();
    const pdf = await c.files.invoicePdf(invoices[0]!.pdf_url);
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe('%PDF-');
  });

  it('walks pages with cursors and sees every row once', async () => {
    const { client: c, t } = makeClient(mode);
    const all = await c.payments.list({ limit: 7 }).all();
    expect(all.length).toBe(sb.data.payments.length);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    expect(t.urls.length).toBe(Math.ceil(all.length / 7) + (all.length % 7 === 0 ? 1 : 0));
    const paged = c.payments.list({ limit: 3 });
    const p1 = await paged.page();
    const p2 = await paged.page({ cursor: p1.cursor! });
    expect(p2.data[0]!.id).toBe(all[3]!.id);
  });

  it('maps each error status to its class, with the key nowhere', async () => {
    const revoked = makeClient(mode, REVOKED).client;
    const e401 = await caught(() => revoked.customers.list().page());
    expect(e401).toBeInstanceOf(AuthenticationError);
    expect(e401.userMessage).toBe('The API key was rejected: it may be revoked or mistyped.');
    expectNoKey(e401, REVOKED);

    const ops = makeClient(mode, OPS).client;
    const e403 = await caught(() => ops.invoices.list().page());
    expect(e403).toBeInstanceOf(PermissionDeniedError);
    expect(e403.userMessage).toBe('This key has no accounting access.');
    expect(e403.requestId).toMatch(/^req_/);

    const { client: c } = makeClient(mode);
    const e404 = await caught(() => c.manifests.get('does_not_exist'));
    expect(e404).toBeInstanceOf(NotFoundError);
    const outside = sb.data.customers.find((x) => x.name.includes('Harbor'))!;
    expect(await caught(() => ops.invoices.list({ customerId: outside.id }).page())).toBeInstanceOf(
      PermissionDeniedError,
    );
    expect(await caught(() => ops.manifests.list({ customerId: outside.id }).page())).toBeInstanceOf(NotFoundError);

    const e422 = await caught(() => c.invoices.list().page({ cursor: 'forged' }));
    expect(e422).toBeInstanceOf(InvalidParamsError);
    expect(e422.status).toBe(422);

    const raw = await new UndiciTransport().request(
      {
        method: 'POST' as 'GET',
        url: `${sb.baseUrl}/customers`,
        headers: { authorization: `Bearer ${ALL}` },
        responseType: 'text',
      },
      { timeoutMs: 5000 },
    );
    expect(errorForResponse(raw, Date.now(), { secrets: [ALL] })).toBeInstanceOf(MethodNotAllowedError);

    await sb.enqueue({ kind: '500', count: 2 });
    const e500 = await caught(() => makeClient(mode, ALL, { maxRetries: 1 }).client.customers.list().page());
    expect(e500).toBeInstanceOf(InternalServerError);
    expect(e500.userMessage).toBe(
      `The Linen API had an internal error (request ${e500.requestId}); quote it to support.`,
    );

    await sb.enqueue({ kind: '429', count: 1 });
    const e429 = (await caught(() =>
      makeClient(mode, ALL, { maxRetries: 0 }).client.customers.list().page(),
    )) as RateLimitError;
    expect(e429).toBeInstanceOf(RateLimitError);
    expect(e429.retryAfterMs).toBeGreaterThanOrEqual(1000);
    for (const e of [e403, e404, e422, e500, e429]) expectNoKey(e, ALL);
  });

  it('retries 429 (after Retry-After), 500, dropped connections and truncated bodies', async () => {
    const { client: c, t } = makeClient(mode);
    await sb.enqueue({ kind: '429', count: 1 });
    const started = Date.now();
    await c.customers.list().page();
    expect(t.statuses).toEqual([429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    for (const kind of ['500', 'drop', 'malformed'] as const) {
      await sb.enqueue({ kind, count: 1 });
      const page = await c.customers.list().page();
      expect(page.data.length).toBeGreaterThan(0);
    }
    expect(t.urls.length).toBe(2 + 3 * 2);
  });

  it('splits a window over 92 days and merges it newest first', async () => {
    const { client: c, t } = makeClient(mode);
    const from = sb.data.seeded.first_day > addDays(TODAY, -199) ? sb.data.seeded.first_day : addDays(TODAY, -199);
    expect(daysInclusive(from, TODAY)).toBeGreaterThan(92);
    const rows = await c.deliveries.daily({ from, to: TODAY }).all();
    const expected = sb.data.daily_deliveries.filter((r) => r.date >= from && r.date <= TODAY);
    expect(rows.map((r) => `${r.date}|${r.customer_id}|${r.department_id}|${r.item_id}`)).toEqual(
      expected.map((r) => `${r.date}|${r.customer_id}|${r.department_id}|${r.item_id}`),
    );
    const windows = new Set(t.urls.map((u) => new URL(u).searchParams.get('from')));
    expect(windows.size).toBe(Math.ceil(daysInclusive(from, TODAY) / 92));
  });

  it('reads dates in the org timezone across the DST change', async () => {
    const { client: c, t } = makeClient(mode);
    // 05:30Z on 9 March is still 8 March in Chicago; the clocks jump that night.
    const rows = await c.deliveries.daily({ from: new Date('2025-03-09T05:30:00Z'), to: '2025-03-10' }).all();
    expect(new URL(t.urls[0]!).searchParams.get('from')).toBe('2025-03-08');
    const expected = sb.data.daily_deliveries.filter((r) => r.date >= '2025-03-08' && r.date <= '2025-03-10');
    expect(rows.length).toBe(expected.length);
  });

  it('refuses a PDF link on another origin before sending anything', async () => {
    const { client: c, t } = makeClient(mode);
    const inv = (await c.invoices.list({ limit: 1 }).page()).data[0]!;
    const before = t.urls.length;
    const foreign = inv.pdf_url.replace('127.0.0.1', 'localhost');
    const err = await caught(() => c.files.invoicePdf(foreign));
    expect(err).toBeInstanceOf(ConfigurationError);
    expect(err.userMessage).toMatch(/not to the configured Linen API/);
    expect(t.urls.length).toBe(before);
  });

  it('reports an unreachable API as a ConnectionError without the key', async () => {
    const { client: c } = makeClient(mode, ALL, { maxRetries: 1, baseUrl: 'http://127.0.0.1:9/v1' });
    const err = await caught(() => c.customers.list().page());
    expect(err).toBeInstanceOf(ConnectionError);
    expectNoKey(err, ALL);
  });
});

describe('pacing under a scaled-down limit (20 per 2 s)', () => {
  let paced: WorkerSandbox;
  beforeAll(async () => {
    paced = await startWorkerSandbox({ today: TODAY, timeZone: TZ, rateLimit: { limit: 20, windowMs: 2000 } });
  });
  afterAll(async () => {
    await paced?.close();
  });

  it.each(['async', 'sync'] as const)('%s: 45 pages in a row never see a 429', async (mode) => {
    const pacing = { limit: 20, windowMs: 2000 };
    const opts = { apiKey: ALL, baseUrl: paced.baseUrl, timeZone: TZ, pacing };
    const at = recording(new UndiciTransport());
    const st = recording(blocking);
    const t = mode === 'async' ? at : st;
    const c: AnyClient =
      mode === 'async'
        ? createLinenClient({ ...opts, transport: at })
        : createLinenClientSync({ ...opts, transport: st, sleep: blockingSleep });
    const rows = await c.manifests.list({ limit: 2 }).all({ maxItems: 90 });
    expect(rows.length).toBe(90);
    expect(t.statuses.length).toBe(45);
    expect(t.statuses.every((s) => s === 200)).toBe(true);
    await at.close();
    // let the window drain before the next runner uses the same key
    await new Promise((r) => setTimeout(r, 2100));
  });
});
