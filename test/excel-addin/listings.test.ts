/**
 * The listings the cells of one Excel runtime share (excel-addin/src/listings.ts): one walk for every cell asking
 * meanwhile, its rows kept for an hour, a failure a retry would repeat kept for a minute and a passing one not at
 * all, a cancelled cell leaving a walk others wait on alone, and Refresh dropping what is kept.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Listings } from '../../excel-addin/src/listings.ts';
import { ConnectionError, PermissionDeniedError } from '../../shared/errors.ts';

type Rows = Record<string, unknown>[];

/** A walk the test finishes: `started` counts walks begun, `signals` their abort signals. */
function walks() {
  const pending: { resolve(rows: Rows): void; reject(e: unknown): void; signal: AbortSignal }[] = [];
  return {
    pending,
    start: (signal: AbortSignal) =>
      new Promise<Rows>((resolve, reject) => {
        pending.push({ resolve, reject, signal });
      }),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-05T15:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('listings in one runtime', () => {
  it('are walked once for every cell asking meanwhile, then kept for an hour', async () => {
    const l = new Listings();
    const w = walks();
    const cells = Array.from({ length: 5 }, () => l.wait('deliveries.daily {}', w.start));
    expect(w.pending).toHaveLength(1);
    w.pending[0]!.resolve([{ id: 'a' }]);
    for (const rows of await Promise.all(cells)) expect(rows).toEqual([{ id: 'a' }]);
    expect(l.peek('deliveries.daily {}')).toEqual([{ id: 'a' }]);
    vi.setSystemTime(Date.now() + 59 * 60_000);
    await l.wait('deliveries.daily {}', w.start);
    expect(w.pending).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect(l.peek('deliveries.daily {}')).toBeNull();
    void l.wait('deliveries.daily {}', w.start);
    expect(w.pending).toHaveLength(2);
  });

  it("keep the API's failure for a minute (as Sheets does: a hundred failing cells cost one request), not a bug's", async () => {
    const l = new Listings();
    const w = walks();
    const denied = l.wait('invoices.list {}', w.start);
    w.pending[0]!.reject(
      new PermissionDeniedError({ status: 403, code: 'forbidden', message: 'no', requestId: 'r', scope: 'accounting' }),
    );
    await expect(denied).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(l.wait('invoices.list {}', w.start)).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(w.pending).toHaveLength(1);
    vi.setSystemTime(Date.now() + 61_000);
    void l.wait('invoices.list {}', w.start);
    expect(w.pending).toHaveLength(2);

    const down = l.wait('items.list {}', w.start);
    w.pending[2]!.reject(new ConnectionError({ message: 'connection reset' }));
    await expect(down).rejects.toBeInstanceOf(ConnectionError);
    await expect(l.wait('items.list {}', w.start)).rejects.toBeInstanceOf(ConnectionError);
    expect(w.pending).toHaveLength(3);

    const bug = l.wait('units.list {}', w.start);
    w.pending[3]!.reject(new TypeError('a bug'));
    await expect(bug).rejects.toBeInstanceOf(TypeError);
    void l.wait('units.list {}', w.start);
    expect(w.pending).toHaveLength(5);
  });

  it('let a cancelled cell go; the walk goes on for the others, and is aborted when none waits', async () => {
    const l = new Listings();
    const w = walks();
    const a = new AbortController();
    const b = new AbortController();
    const first = l.wait('ratings.list {}', w.start, a.signal);
    const second = l.wait('ratings.list {}', w.start, b.signal);
    a.abort();
    await expect(first).rejects.toThrow();
    expect(w.pending[0]!.signal.aborted).toBe(false);
    b.abort();
    await expect(second).rejects.toThrow();
    expect(w.pending[0]!.signal.aborted).toBe(true);
    // The aborted walk is not kept, and the next cell walks again.
    void l.wait('ratings.list {}', w.start);
    expect(w.pending).toHaveLength(2);
  });

  it('are dropped by Refresh; a walk in flight still answers its cells but is not kept', async () => {
    const l = new Listings();
    const w = walks();
    await Promise.all([l.wait('customers.list {}', w.start), Promise.resolve(w.pending[0]!.resolve([{ id: 'c' }]))]);
    const inFlight = l.wait('items.list {}', w.start);
    l.clear();
    expect(l.peek('customers.list {}')).toBeNull();
    w.pending[1]!.resolve([{ id: 'i' }]);
    expect(await inFlight).toEqual([{ id: 'i' }]);
    expect(l.peek('items.list {}')).toBeNull();
  });
});
