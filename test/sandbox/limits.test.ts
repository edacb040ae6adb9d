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
});
