/**
 * Answers shared by the Node clients of one key: identical requests in flight sent once, answers reused while
 * fresh, never across keys, errors reaching every caller, callers with their own budgets and signals.
 */
import { describe, expect, it } from 'vitest';
import {
  type AsyncTransport,
  createLinenClient,
  type HttpRequest,
  type HttpResponse,
  NotFoundError,
  Pacer,
  RateLimitError,
  type RequestPacer,
  SharedAnswers,
  TimeoutError,
} from '../../shared/node.ts';
import { AnswerCache } from '../../shared/sharing/answer-cache.ts';
import { freshnessMs, MOVING_DATA_MS, SLOW_DATA_MS } from '../../shared/sharing/freshness.ts';

const KEY_A = 'lk_live_fake_key_a_0123456789abcdef';
const KEY_B = 'lk_live_fake_key_b_0123456789abcdef';
const BASE = 'https://linen.test/v1';

const json = (status: number, body: unknown): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const customers = (names: string[]) =>
  json(200, {
    data: names.map((name, i) => ({
      id: `c${i}`,
      name,
      is_group: false,
      created_at: '2025-01-01T00:00:00.000Z',
      departments: [],
    })),
    pagination: { cursor: null, has_more: false },
    request_id: 'req_list',
  });

/** A transport whose answers the test releases; it records every request it is sent. */
function heldTransport(answer: (req: HttpRequest) => HttpResponse = () => customers(['Harborview Hotel'])) {
  const sent: { req: HttpRequest; signal: AbortSignal | undefined }[] = [];
  const held: (() => void)[] = [];
  const transport: AsyncTransport = {
    request: (req, opts) =>
      new Promise((resolve) => {
        sent.push({ req, signal: opts.signal });
        held.push(() => resolve(answer(req)));
      }),
  };
  const releaseAll = () => {
    for (const release of held.splice(0)) release();
  };
  /** Releases the held answers once `n` requests have been sent (the callers have all asked by then). */
  const releaseWhen = async (n: number) => {
    while (sent.length < n) await new Promise((r) => setTimeout(r, 1));
    await new Promise((r) => setTimeout(r, 5));
    releaseAll();
  };
  return { transport, sent, releaseAll, releaseWhen };
}

const client = (
  shared: SharedAnswers,
  transport: AsyncTransport,
  extra: Partial<Parameters<typeof createLinenClient>[0]> = {},
) =>
  createLinenClient({
    apiKey: KEY_A,
    baseUrl: BASE,
    timeZone: 'America/Chicago',
    transport,
    pacing: false,
    maxRetries: 0,
    sharedAnswers: shared,
    ...extra,
  });

describe('answers shared by the clients of one key', () => {
  it('N identical concurrent calls, from several clients of the key, cost one request and one pacing slot', async () => {
    const shared = new SharedAnswers();
    const t = heldTransport();
    const pacer = new Pacer({ limit: 120, windowMs: 60_000 });
    let slots = 0;
    const counting: RequestPacer = {
      limit: pacer.limit,
      windowMs: pacer.windowMs,
      acquire: (at) => {
        slots++;
        return pacer.acquire(at);
      },
      settle: (slot, at) => pacer.settle(slot, at),
      blockFor: (at, ms) => pacer.blockFor(at, ms),
    };
    const clients = [
      client(shared, t.transport, { pacing: counting }),
      client(shared, t.transport, { pacing: counting }),
    ];
    const pages = Promise.all(Array.from({ length: 20 }, (_, i) => clients[i % 2]!.customers.list().page()));
    await t.releaseWhen(1);
    const answers = await pages;
    expect(t.sent).toHaveLength(1);
    expect(slots).toBe(1);
    for (const page of answers) expect(page.data.map((c) => c.name)).toEqual(['Harborview Hotel']);
    // Each caller has its own rows: changing one answer changes no other.
    expect(new Set(answers.map((p) => p.data)).size).toBe(20);
  });

  it('never shares between keys, in flight or kept', async () => {
    const shared = new SharedAnswers();
    const t = heldTransport((req) =>
      customers([req.headers.authorization === `Bearer ${KEY_A}` ? 'Seen by A' : 'Seen by B']),
    );
    const a = client(shared, t.transport);
    const b = client(shared, t.transport, { apiKey: KEY_B });
    const both = Promise.all([a.customers.list().page(), b.customers.list().page()]);
    await t.releaseWhen(2);
    const [pa, pb] = await both;
    expect(t.sent.map((s) => s.req.headers.authorization)).toEqual([`Bearer ${KEY_A}`, `Bearer ${KEY_B}`]);
    expect(pa.data[0]!.name).toBe('Seen by A');
    expect(pb.data[0]!.name).toBe('Seen by B');
    // Kept per key: each key reads its own answer again without a request.
    expect((await b.customers.list().page()).data[0]!.name).toBe('Seen by B');
    expect((await a.customers.list().page()).data[0]!.name).toBe('Seen by A');
    expect(t.sent).toHaveLength(2);
    // A third key asks the API.
    const c = client(shared, t.transport, { apiKey: `${KEY_B}x` });
    const third = c.customers.list().page();
    await t.releaseWhen(3);
    expect((await third).data[0]!.name).toBe('Seen by B');
    expect(t.sent).toHaveLength(3);
  });

  it('an error reaches every caller of the request, and is not kept', async () => {
    const shared = new SharedAnswers();
    const t = heldTransport(() =>
      json(404, { error: { code: 'not_found', message: 'No such manifest.' }, request_id: 'req_404' }),
    );
    const c = client(shared, t.transport);
    const calls = Array.from({ length: 10 }, () => c.manifests.get('man_1').catch((e: unknown) => e));
    await t.releaseWhen(1);
    const errors = await Promise.all(calls);
    expect(t.sent).toHaveLength(1);
    for (const e of errors) expect(e).toBeInstanceOf(NotFoundError);
    const again = c.manifests.get('man_1').catch((e: unknown) => e);
    await t.releaseWhen(2);
    expect(await again).toBeInstanceOf(NotFoundError);
    expect(t.sent).toHaveLength(2);
  });

  it('reuses an answer while it is fresh, and asks again once it is not', async () => {
    const shared = new SharedAnswers();
    let clock = Date.parse('2026-11-20T18:00:00Z');
    const t = heldTransport();
    const c = client(shared, t.transport, { now: () => clock });
    const first = c.customers.list().page();
    await t.releaseWhen(1);
    await first;
    clock += SLOW_DATA_MS - 1;
    await c.customers.list().page();
    expect(t.sent).toHaveLength(1);
    clock += 1;
    const stale = c.customers.list().page();
    await t.releaseWhen(2);
    await stale;
    expect(t.sent).toHaveLength(2);
  });

  it("forgetting a key's answers (its data changed) asks the API again for that key alone", async () => {
    const shared = new SharedAnswers();
    const t = heldTransport((req) =>
      customers([req.headers.authorization === `Bearer ${KEY_A}` ? `A after ${t.sent.length}` : 'B']),
    );
    const a = client(shared, t.transport);
    const b = client(shared, t.transport, { apiKey: KEY_B });
    const first = Promise.all([a.customers.list().page(), b.customers.list().page()]);
    await t.releaseWhen(2);
    await first;
    shared.forgetKey(KEY_A);
    const again = a.customers.list().page();
    await t.releaseWhen(3);
    expect((await again).data[0]!.name).toBe('A after 3');
    // The other key's answer is still kept.
    expect((await b.customers.list().page()).data[0]!.name).toBe('B');
    expect(t.sent).toHaveLength(3);
  });

  it('does not merge requests whose queries differ', async () => {
    const shared = new SharedAnswers();
    const t = heldTransport();
    const c = client(shared, t.transport);
    const pages = Promise.all([
      c.customers.list().page({ limit: 10 }),
      c.customers.list().page({ limit: 20 }),
      c.customers.list().page({ limit: 10 }),
    ]);
    await t.releaseWhen(2);
    await pages;
    expect(t.sent.map((s) => new URL(s.req.url).search).sort()).toEqual(['?limit=10', '?limit=20']);
  });

  it('a caller with a shorter budget stops waiting at its own deadline; the request goes on for the others', async () => {
    const shared = new SharedAnswers();
    const t = heldTransport();
    const long = client(shared, t.transport, { timeBudgetMs: 1_000 });
    const short = client(shared, t.transport, { timeBudgetMs: 150 });
    const started = Date.now();
    const first = long.customers.list().page();
    const second = short.customers
      .list()
      .page()
      .catch((e: unknown) => e);
    const err = await second;
    expect(err).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeLessThan(600);
    t.releaseAll();
    expect((await first).data[0]!.name).toBe('Harborview Hotel');
    expect(t.sent).toHaveLength(1);
  });

  it("a caller with more time goes on alone when the request it joined ran out of its starter's time", async () => {
    const shared = new SharedAnswers();
    const sent: string[] = [];
    const transport: AsyncTransport = {
      request: async (req) => {
        sent.push(req.url);
        return customers(['Harborview Hotel']);
      },
    };
    const pacing = new Pacer({ limit: 1, windowMs: 400 });
    const short = client(shared, transport, { pacing, timeBudgetMs: 300 });
    const long = client(shared, transport, { pacing, timeBudgetMs: 5_000 });
    await short.customers.list().page({ limit: 1 }); // the window is now full for 400 ms
    const [s, l] = await Promise.all([
      short.customers
        .list()
        .page()
        .catch((e: unknown) => e),
      long.customers.list().page(),
    ]);
    expect(s).toBeInstanceOf(RateLimitError);
    expect(l.data[0]!.name).toBe('Harborview Hotel');
    expect(sent).toHaveLength(2);
  });

  it('the first caller aborting leaves the others their answer; nobody left waiting cancels the request', async () => {
    const shared = new SharedAnswers();
    const t = heldTransport();
    const c = client(shared, t.transport);
    const leaving = new AbortController();
    const first = c.customers
      .list()
      .page({ signal: leaving.signal })
      .catch((e: unknown) => e);
    const second = c.customers.list().page();
    while (t.sent.length < 1) await new Promise((r) => setTimeout(r, 1));
    leaving.abort();
    expect((await first) as Error).toHaveProperty('name', 'AbortError');
    expect(t.sent[0]!.signal?.aborted).toBe(false);
    t.releaseAll();
    expect((await second).data).toHaveLength(1);

    const only = new AbortController();
    const lone = c.customers
      .list()
      .page({ limit: 5, signal: only.signal })
      .catch((e: unknown) => e);
    while (t.sent.length < 2) await new Promise((r) => setTimeout(r, 1));
    only.abort();
    expect((await lone) as Error).toHaveProperty('name', 'AbortError');
    expect(t.sent[1]!.signal?.aborted).toBe(true);
  });

  it('a client without shared answers asks the API every time', async () => {
    const t = heldTransport();
    const c = client(new SharedAnswers(), t.transport, { sharedAnswers: undefined });
    const pages = Promise.all([c.customers.list().page(), c.customers.list().page()]);
    await t.releaseWhen(2);
    await pages;
    expect(t.sent).toHaveLength(2);
  });
});

describe('freshness and memory', () => {
  it('minutes for slow lists, seconds for what moves, nothing for the rest', () => {
    for (const p of ['/customers', '/customers/cus_1/departments', '/items', '/inventory/par', '/inventory/units'])
      expect(freshnessMs(p)).toBe(SLOW_DATA_MS);
    for (const p of [
      '/balance',
      '/invoices',
      '/inventory/signals',
      '/inventory/counts',
      '/quality-tickets',
      '/orders/o1',
    ])
      expect(freshnessMs(p)).toBe(MOVING_DATA_MS);
    expect(freshnessMs('/files/invoice/inv_1')).toBe(0);
    expect(freshnessMs('/something-new')).toBe(0);
  });

  it('keeps within its entry and byte limits, least recently used first out', () => {
    const cache = new AnswerCache({ maxEntries: 2, maxBytes: 800 });
    const body = (n: number): HttpResponse => ({ status: 200, headers: {}, body: 'x'.repeat(n) });
    cache.set('a', body(10), 100);
    cache.set('b', body(10), 100);
    expect(cache.get('a', 0)).toBeDefined();
    cache.set('c', body(10), 100);
    expect(cache.get('b', 0)).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('d', body(90), 100);
    expect(cache.bytes).toBeLessThanOrEqual(800);
    cache.set('big', body(101), 100);
    expect(cache.get('big', 0)).toBeUndefined();
    expect(cache.get('d', 100)).toBeUndefined();
  });
});
