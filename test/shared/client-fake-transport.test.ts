/** The client over a scripted in-memory transport, through both runners, on a virtual clock. */
import { describe, expect, it } from 'vitest';
import {
  type AsyncTransport,
  ConfigurationError,
  ConnectionError,
  createLinenClient,
  createLinenClientSync,
  type HttpRequest,
  type HttpResponse,
  InvalidParamsError,
  NotFoundError,
  RateLimitError,
  type RequestPacer,
  ResponseShapeError,
  type SyncTransport,
} from '../../shared/index.ts';

const KEY = 'lk_live_fake_key_0123456789abcdef';
const BASE = 'https://linen.test/v1';

type Handler = (req: HttpRequest, n: number) => HttpResponse | Error;

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const list = (data: unknown[], cursor: string | null = null, rid = 'req_list') =>
  json(200, { data, pagination: { cursor, has_more: cursor !== null }, request_id: rid });
const apiError = (status: number, code: string, rid = 'req_err', headers: Record<string, string> = {}) =>
  json(status, { error: { code, message: `${code} happened` }, request_id: rid }, headers);

const customer = (i: number) => ({
  id: `c${i}`,
  name: `Customer ${i}`,
  is_group: false,
  created_at: '2025-01-01T00:00:00.000Z',
  departments: [],
});

function harness(
  handler: Handler,
  opts: { pacing?: { limit: number; windowMs: number; marginMs?: number } | false; timeBudgetMs?: number } = {},
) {
  let clock = 1_700_000_000_000;
  const requests: { req: HttpRequest; at: number }[] = [];
  const sleeps: number[] = [];
  const respond = (req: HttpRequest) => {
    requests.push({ req, at: clock });
    const r = handler(req, requests.length);
    if (r instanceof Error) throw r;
    return r;
  };
  const sync: SyncTransport = { request: respond };
  const async: AsyncTransport = { request: async (req) => respond(req) };
  const common = {
    apiKey: KEY,
    baseUrl: BASE,
    timeZone: 'America/Chicago',
    pacing: opts.pacing ?? false,
    random: () => 0,
    now: () => clock,
    ...(opts.timeBudgetMs ? { timeBudgetMs: opts.timeBudgetMs } : {}),
  } as const;
  const client = createLinenClientSync({
    ...common,
    transport: sync,
    sleep: (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
  });
  const aclient = createLinenClient({ ...common, transport: async, initialRetryDelayMs: 1, maxRetryDelayMs: 2 });
  return {
    client,
    aclient,
    requests,
    sleeps,
    common,
    sync,
    async,
    urls: () => requests.map((r) => new URL(r.req.url)),
  };
}

describe('requests', () => {
  it('sends the key only in the Authorization header and maps params to snake_case', () => {
    const h = harness(() => list([]));
    h.client.invoices.list({ customerId: 'c1', status: 'sent', from: '2025-01-01', limit: 10 }).page();
    const { req } = h.requests[0]!;
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.url).not.toContain(KEY);
    const u = new URL(req.url);
    expect(u.pathname).toBe('/v1/invoices');
    expect(Object.fromEntries(u.searchParams)).toEqual({
      customer_id: 'c1',
      status: 'sent',
      from: '2025-01-01',
      limit: '10',
    });
  });

  it('refuses invalid params before any request', () => {
    const h = harness(() => list([]));
    expect(() => h.client.deliveries.daily({ from: '2025-13-01' })).toThrow(InvalidParamsError);
    expect(() => h.client.invoices.list({ status: 'void' as 'sent' })).toThrow(InvalidParamsError);
    expect(() => h.client.invoices.list({ limit: 500 })).toThrow(/limit/);
    expect(() => h.client.manifests.get('')).toThrow(InvalidParamsError);
    expect(h.requests).toHaveLength(0);
  });
});

describe('pagination', () => {
  it('follows cursors with limit 200 until has_more is false, sync and async', async () => {
    const handler: Handler = (req) => {
      const c = new URL(req.url).searchParams.get('cursor');
      if (!c) return list([customer(1), customer(2)], 'p2');
      if (c === 'p2') return list([customer(3)], 'p3');
      return list([customer(4)]);
    };
    const h = harness(handler);
    const ids: string[] = [];
    for (const c of h.client.customers.list()) ids.push(c.id);
    expect(ids).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(h.urls().map((u) => u.searchParams.get('limit'))).toEqual(['200', '200', '200']);
    const aids: string[] = [];
    for await (const c of h.aclient.customers.list()) aids.push(c.id);
    expect(aids).toEqual(ids);
    expect((await h.aclient.customers.list().all({ maxItems: 3 })).length).toBe(3);
    const first = await h.aclient.customers.list().page();
    expect(first).toMatchObject({ cursor: 'p2', hasMore: true, requestId: 'req_list' });
  });

  it('throws instead of looping on a repeated cursor', async () => {
    const h = harness(() => list([customer(1)], 'same'));
    expect(() => h.client.customers.list().all()).toThrow(ResponseShapeError);
    await expect(h.aclient.customers.list().all()).rejects.toThrow(/repeated a cursor/);
  });
});

describe('retries', () => {
  it('retries 500 and 429, honouring Retry-After', () => {
    const h = harness((_r, n) =>
      n === 1
        ? apiError(500, 'internal_error')
        : n === 2
          ? apiError(429, 'rate_limited', 'r', { 'retry-after': '2' })
          : list([customer(1)]),
    );
    expect(
      h.client.customers
        .list()
        .all()
        .map((c) => c.id),
    ).toEqual(['c1']);
    expect(h.requests).toHaveLength(3);
    expect(h.sleeps).toEqual([500, 2000]);
  });

  it('retries connection failures and gives up after maxRetries with the last error', async () => {
    const h = harness(() => new Error(`ECONNRESET while sending Authorization: Bearer ${KEY}`));
    let err: unknown;
    try {
      h.client.customers.list().page();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConnectionError);
    expect(h.requests).toHaveLength(4);
    for (const s of [String(err), JSON.stringify(err), (err as Error).stack, String((err as Error).cause)])
      expect(s).not.toContain(KEY);
    await expect(h.aclient.customers.list().page()).rejects.toBeInstanceOf(ConnectionError);
  });

  it('never retries other 4xx', () => {
    const h = harness(() => apiError(404, 'not_found', 'req_404'));
    let err: unknown;
    try {
      h.client.manifests.get('m1');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'not_found', requestId: 'req_404' });
    expect(h.requests).toHaveLength(1);
  });

  it('fails at once when Retry-After does not fit in the time budget', () => {
    const h = harness(() => apiError(429, 'rate_limited', 'r', { 'retry-after': '30' }), { timeBudgetMs: 25_000 });
    expect(() => h.client.customers.list().page()).toThrow(RateLimitError);
    expect(h.sleeps).toEqual([]);
    expect(h.requests).toHaveLength(1);
  });
});

describe('pacing', () => {
  it('spaces requests so no window ever holds more than the limit', () => {
    let n = 0;
    const h = harness(() => list([customer(++n)], n < 25 ? `c${n}` : null), {
      pacing: { limit: 5, windowMs: 1000, marginMs: 0 },
    });
    expect(h.client.customers.list().all()).toHaveLength(25);
    const times = h.requests.map((r) => r.at);
    for (const t of times) expect(times.filter((u) => u >= t && u < t + 1000).length).toBeLessThanOrEqual(5);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(4000);
  });

  it('fails with a RateLimitError when pacing cannot fit in the budget', () => {
    const h = harness(() => list([customer(1)], 'more'), {
      pacing: { limit: 2, windowMs: 60_000 },
      timeBudgetMs: 1_000,
    });
    const paged = h.client.customers.list();
    paged.page();
    paged.page();
    expect(() => paged.page()).toThrow(RateLimitError);
    expect(h.requests).toHaveLength(2);
  });

  it('waits for a pacer that answers with promises, shared by two clients of the key', async () => {
    // One slot per 50 ms, dated by the answer, as a database row shared by two processes would keep it.
    let last: { slot: number; done?: number } | undefined;
    const shared: RequestPacer = {
      limit: 1,
      windowMs: 50,
      acquire: async (now) => {
        const free = last ? (last.done ?? now + 50) + 50 : now;
        if (free > now) return { waitMs: free - now, slot: 0 };
        last = { slot: now };
        return { waitMs: 0, slot: now };
      },
      settle: async (slot, now) => {
        if (last?.slot === slot) last.done = now;
      },
      blockFor: async () => {},
    };
    const sent: number[] = [];
    const transport: AsyncTransport = {
      request: async () => {
        sent.push(Date.now());
        return list([customer(1)]);
      },
    };
    const opts = { apiKey: KEY, baseUrl: BASE, timeZone: 'America/Chicago', transport, pacing: shared } as const;
    const [a, b] = [createLinenClient(opts), createLinenClient(opts)];
    await Promise.all([a.customers.list().page(), b.customers.list().page()]);
    expect(sent).toHaveLength(2);
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(49);
  });

  it('refuses, on a blocking runtime, a pacer that answers with promises', () => {
    const h = harness(() => list([customer(1)]), {});
    const pacer: RequestPacer = {
      limit: 1,
      windowMs: 1000,
      acquire: async () => ({ waitMs: 0, slot: 0 }),
      settle: async () => {},
      blockFor: async () => {},
    };
    const client = createLinenClientSync({ ...h.common, transport: h.sync, sleep: () => {}, pacing: pacer });
    expect(() => client.customers.list().page()).toThrow(TypeError);
    expect(h.requests).toHaveLength(0);
  });
});

describe('validation', () => {
  it('names the endpoint, field and request id of a shape mismatch', () => {
    const h = harness(() => list([customer(1), { ...customer(2), is_group: 'no' }], null, 'req_shape'));
    try {
      h.client.customers.list().all();
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ResponseShapeError);
      expect(e).toMatchObject({ endpoint: 'GET /customers', field: 'data[1].is_group', requestId: 'req_shape' });
      expect((e as Error).message).toMatch(/expected boolean, got string/);
    }
  });

  it('lets unknown fields and unknown open-enum values through', () => {
    const signal = {
      id: 's1',
      kind: 'par_drift',
      severity: 'high',
      status: 'open',
      customer_id: null,
      department_id: null,
      item_id: null,
      item_name: null,
      summary: 'x',
      suggested_order_qty: null,
      window_start: '2025-01-01',
      window_end: '2025-01-07',
      generated_at: '2025-01-08T00:00:00.000Z',
      brand_new_field: 1,
    };
    const h = harness(() => list([signal]));
    const [s] = h.client.inventory.signals().all();
    expect(s!.kind).toBe('par_drift');
  });
});

describe('date windows', () => {
  it('splits a window over 92 days into chunks fetched newest first and merged', () => {
    const h = harness((req) => {
      const u = new URL(req.url);
      const to = u.searchParams.get('to')!;
      const c = u.searchParams.get('cursor');
      const row = (date: string) => ({
        date,
        customer_id: 'c',
        customer_name: 'C',
        department_id: null,
        department_name: null,
        item_id: 'i',
        item_name: 'I',
        delivered_count: 1,
        daily_par: null,
        fill_rate: null,
      });
      return c ? list([row(u.searchParams.get('from')!)]) : list([row(to)], 'next');
    });
    const rows = h.client.deliveries.daily({ from: '2025-01-01', to: '2025-06-30', customerId: 'c' }).all();
    const windows = h
      .urls()
      .filter((u) => !u.searchParams.get('cursor'))
      .map((u) => [u.searchParams.get('from'), u.searchParams.get('to')]);
    expect(windows).toEqual([
      ['2025-03-31', '2025-06-30'],
      ['2025-01-01', '2025-03-30'],
    ]);
    expect(rows.map((r) => r.date)).toEqual(['2025-06-30', '2025-03-31', '2025-03-30', '2025-01-01']);
    expect(h.urls().every((u) => u.searchParams.get('customer_id') === 'c')).toBe(true);
  });

  it('leaves windows of 92 days or less alone', () => {
    const h = harness(() => list([]));
    h.client.inventory.counts({ from: '2025-01-01', to: '2025-04-02' }).all();
    expect(h.requests).toHaveLength(1);
  });
});

describe('invoice PDFs', () => {
  it('refuses a pdf_url on another origin before sending anything', async () => {
    const h = harness(() => ({
      status: 200,
      headers: { 'content-type': 'application/pdf' },
      body: new Uint8Array([37, 80]),
    }));
    expect(() => h.client.files.invoicePdf('https://evil.test/v1/files/invoice/i1?sig=1')).toThrow(ConfigurationError);
    await expect(h.aclient.files.invoicePdf('http://linen.test/v1/files/invoice/i1')).rejects.toThrow(
      /Refusing to send the API key/,
    );
    expect(h.requests).toHaveLength(0);
    const bytes = h.client.files.invoicePdf(`${BASE}/files/invoice/i1?key_id=k&expires=1&signature=s`);
    expect([...bytes]).toEqual([37, 80]);
  });
});

describe('configuration', () => {
  it('rejects a missing key, a bad base URL or timezone, and never shows the key', () => {
    const t: SyncTransport = { request: () => list([]) };
    const base = { apiKey: KEY, baseUrl: BASE, timeZone: 'America/Chicago', transport: t, sleep: () => {} };
    expect(() => createLinenClientSync({ ...base, apiKey: '' })).toThrow(ConfigurationError);
    expect(() => createLinenClientSync({ ...base, baseUrl: 'nope' })).toThrow(ConfigurationError);
    expect(() => createLinenClientSync({ ...base, timeZone: 'Mars/Base' })).toThrow(ConfigurationError);
    const client = createLinenClientSync(base);
    expect(JSON.stringify(client)).not.toContain(KEY);
    expect(client.baseUrl).toBe(BASE);
  });
});
