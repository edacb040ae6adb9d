/** runSyncBatch: several operations driven together, their waiting requests sent as one batch. */
import { describe, expect, it } from 'vitest';
import { type HttpRequest, http, type Operation, sleep } from '../../shared/core/effects.ts';
import { type BatchSyncTransport, runSyncBatch } from '../../shared/core/run-batch.ts';

const req = (url: string): HttpRequest => ({ method: 'GET', url, headers: {}, responseType: 'text' });

function* walk(name: string, pages: number): Operation<string[]> {
  const out: string[] = [];
  for (let i = 0; i < pages; i++) out.push((yield* http(req(`${name}/${i}`), 1_000)).body as string);
  return out;
}

function recorder(fail: (url: string) => boolean = () => false) {
  const batches: string[][] = [];
  const transport: BatchSyncTransport = {
    requestAll(batch) {
      batches.push(batch.map((b) => b.req.url));
      return batch.map((b) =>
        fail(b.req.url) ? new Error(`down: ${b.req.url}`) : { status: 200, headers: {}, body: b.req.url },
      );
    },
  };
  return { batches, transport };
}

describe('runSyncBatch', () => {
  it('sends the first pages of every walk together, then the next pages of those with more', () => {
    const { batches, transport } = recorder();
    const results = runSyncBatch([walk('a', 2), walk('b', 1), walk('c', 3)], transport, { sleep: () => {} });
    expect(batches).toEqual([['a/0', 'b/0', 'c/0'], ['a/1', 'c/1'], ['c/2']]);
    expect(results).toEqual([
      { ok: true, value: ['a/0', 'a/1'] },
      { ok: true, value: ['b/0'] },
      { ok: true, value: ['c/0', 'c/1', 'c/2'] },
    ]);
  });

  it('a failed request fails its own operation only', () => {
    const { transport } = recorder((url) => url === 'b/0');
    const results = runSyncBatch([walk('a', 2), walk('b', 2)], transport, { sleep: () => {} });
    expect(results[0]).toEqual({ ok: true, value: ['a/0', 'a/1'] });
    expect(results[1]).toMatchObject({ ok: false, error: { message: 'down: b/0' } });
  });

  it('an operation told to wait sleeps while the others go on, and joins the batch once its time has come', () => {
    let now = 0;
    const slept: number[] = [];
    function* waits(): Operation<string[]> {
      yield* sleep(500);
      return yield* walk('late', 1);
    }
    const { batches, transport } = recorder();
    const results = runSyncBatch([waits(), walk('a', 2)], transport, {
      now: () => now,
      sleep: (ms) => {
        slept.push(ms);
        now += ms;
      },
    });
    expect(batches).toEqual([['a/0'], ['a/1'], ['late/0']]);
    expect(slept).toEqual([500]);
    expect(results.every((r) => r.ok)).toBe(true);
  });

  it('never sends more than maxBatch requests at once', () => {
    const { batches, transport } = recorder();
    runSyncBatch(
      Array.from({ length: 5 }, (_, i) => walk(`w${i}`, 1)),
      transport,
      { sleep: () => {}, maxBatch: 2 },
    );
    expect(batches.map((b) => b.length)).toEqual([2, 2, 1]);
  });
});
