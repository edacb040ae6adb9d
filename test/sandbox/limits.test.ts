/** The per-key rate limit and the fault injection that tests and benchmarks rely on. */
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import { call, expectError, KEYS, startTestSandbox } from '../support/sandbox-http.ts';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

describe('rate limit', () => {
  it('answers 429 rate_limited with Retry-After past the limit, per key, and recovers after the wait', async () => {
    sandbox = await startTestSandbox({ rateLimit: { limit: 5, windowMs: 1_500 } });
    for (let i = 0; i < 5; i++) expect((await call(sandbox, '/customers')).status).toBe(200);
    const limited = await call(sandbox, '/customers');
    expectError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);

    // Another key has its own budget; unauthenticated requests spend nobody's.
    expect((await call(sandbox, '/customers', { key: KEYS.mercyOps })).status).toBe(200);
    expect((await call(sandbox, '/customers', { key: null })).status).toBe(401);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await call(sandbox, '/customers')).status).toBe(200);
  });

  it('counts errors after authentication but not the 429 answers themselves', async () => {
    sandbox = await startTestSandbox({ rateLimit: { limit: 3, windowMs: 60_000 } });
    expect((await call(sandbox, '/nope')).status).toBe(404);
    expect((await call(sandbox, '/customers', { query: { limit: '0' } })).status).toBe(422);
    expect((await call(sandbox, '/customers')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await call(sandbox, '/customers')).status).toBe(429);
    const res = await call(sandbox, '/customers');
    expect(res.headers.get('x-ratelimit-limit')).toBe('3');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('defaults to 120 requests per minute', async () => {
    sandbox = await startTestSandbox({ rateLimit: undefined });
    const res = await call(sandbox, '/customers');
    expect(res.headers.get('x-ratelimit-limit')).toBe('120');
  });
});

describe('fault injection', () => {
  it('is off by default and injects queued 500s, 429 bursts, dropped connections and malformed bodies', async () => {
    sandbox = await startTestSandbox();
    expect((await call(sandbox, '/customers')).status).toBe(200);

    sandbox.faults.enqueue({ kind: '500', count: 2 });
    expectError(await call(sandbox, '/customers'), 500, 'internal_error');
    expectError(await call(sandbox, '/customers'), 500, 'internal_error');
    expect((await call(sandbox, '/customers')).status).toBe(200);

    sandbox.faults.enqueue({ kind: '429', count: 1 });
    const limited = await call(sandbox, '/customers');
    expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('1');

    sandbox.faults.enqueue({ kind: 'drop', count: 1 });
    await expect(call(sandbox, '/customers')).rejects.toThrow();

    sandbox.faults.enqueue({ kind: 'malformed', count: 1 });
    const raw = await fetch(`${sandbox.baseUrl}/customers`, { headers: { authorization: `Bearer ${KEYS.all}` } });
    expect(raw.status).toBe(200);
    await expect(raw.json()).rejects.toThrow();

    sandbox.faults.enqueue({ kind: 'latency', count: 1, ms: 300 });
    const started = performance.now();
    expect((await call(sandbox, '/customers')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('can be set over HTTP for a sandbox in another process', async () => {
    sandbox = await startTestSandbox();
    const set = await fetch(`${sandbox.origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errorRate: 1 }),
    });
    expect(set.status).toBe(200);
    expectError(await call(sandbox, '/customers'), 500, 'internal_error');
    await fetch(`${sandbox.origin}/__sandbox/faults`, { method: 'DELETE' });
    expect((await call(sandbox, '/customers')).status).toBe(200);
  });

  const get = (sb: Sandbox, path: string, query = '') =>
    fetch(`${sb.baseUrl}${path}${query}`, { headers: { authorization: `Bearer ${KEYS.all}` } });

  it('a queued hang holds the request unanswered until the client gives up', async () => {
    sandbox = await startTestSandbox();
    sandbox.faults.enqueue({ kind: 'hang' });
    const hung = fetch(`${sandbox.baseUrl}/customers`, {
      headers: { authorization: `Bearer ${KEYS.all}` },
      signal: AbortSignal.timeout(300),
    });
    await expect(hung).rejects.toThrow(/timeout|aborted/i);
    expect((await get(sandbox, '/customers')).status).toBe(200);
  });

  it('answers invalid JSON, or an HTML page, with a 200', async () => {
    sandbox = await startTestSandbox();
    sandbox.faults.enqueue({ kind: 'invalid_json' });
    const bad = await get(sandbox, '/customers');
    expect(bad.status).toBe(200);
    expect(bad.headers.get('content-type')).toMatch(/^application\/json/);
    const text = await bad.text();
    expect(() => JSON.parse(text)).toThrow();
    sandbox.faults.enqueue({ kind: 'html' });
    const html = await get(sandbox, '/customers');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await html.text()).toMatch(/^<!doctype html>/);
  });

  it('an evolved answer carries extra fields and enum values the specification does not list', async () => {
    sandbox = await startTestSandbox();
    sandbox.faults.enqueue({ kind: 'evolved' });
    const body = (await (await get(sandbox, '/invoices')).json()) as any;
    expect(body.added_in_a_later_version).toBe(true);
    expect(body.data[0].status).toBe('future_status');
    expect(body.data[0].added_in_a_later_version).toEqual({ note: 'a field this client does not know', count: 1 });
  });

  it('a missing field leaves the id out of every row', async () => {
    sandbox = await startTestSandbox();
    sandbox.faults.enqueue({ kind: 'missing_field' });
    const body = (await (await get(sandbox, '/customers')).json()) as any;
    expect(body.data.length).toBeGreaterThan(0);
    for (const row of body.data) expect(row).not.toHaveProperty('id');
    expect(body.request_id).toMatch(/^req_/);
  });

  it('a repeated cursor offers the page just served as the next one', async () => {
    sandbox = await startTestSandbox();
    sandbox.faults.enqueue({ kind: 'repeated_cursor', count: 2 });
    const first = (await (await get(sandbox, '/customers')).json()) as any;
    expect(first.pagination.has_more).toBe(true);
    const second = (await (await get(sandbox, '/customers', `?cursor=${first.pagination.cursor}`)).json()) as any;
    expect(second.pagination.cursor).toBe(first.pagination.cursor);
    expect(second.data).toEqual(first.data);
  });

  it('logs every authenticated request with its fault, in process and over HTTP', async () => {
    sandbox = await startTestSandbox();
    sandbox.faults.enqueue({ kind: '500' });
    await get(sandbox, '/customers');
    await get(sandbox, '/items');
    await fetch(`${sandbox.baseUrl}/customers`);
    expect(sandbox.requests.entries).toEqual([
      { path: '/v1/customers', fault: '500' },
      { path: '/v1/items', fault: 'none' },
    ]);
    const logged = (await (await fetch(`${sandbox.origin}/__sandbox/requests`)).json()) as any;
    expect(logged.data.count).toBe(2);
    await fetch(`${sandbox.origin}/__sandbox/requests`, { method: 'DELETE' });
    expect(sandbox.requests.count).toBe(0);
  });
});
