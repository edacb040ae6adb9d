/** A key's pacing in PostgreSQL, shared by replicas (each its own pool on one schema), and the per-key registry. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { keyPacers } from '../../../base/pacing/key-pacers.ts';
import { SqlPacer } from '../../../base/pacing/sql-pacer.ts';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { backgroundPacer, Pacer } from '../../../shared/core/pacing.ts';
import { openTestDb, PG_URL, type TestDb } from '../../support/digest-db.ts';

const KEY = 'lk_live_pacing_test_key_0123456789';

describe.skipIf(!PG_URL)('pacing kept in PostgreSQL', () => {
  let db: TestDb;
  let replicas: SqlExecutor[];
  beforeAll(async () => {
    db = await openTestDb('pg');
    replicas = [db.executor, (await db.another()).executor, (await db.another()).executor];
  });
  afterAll(() => db.close());

  const pacerOn = (executor: SqlExecutor, fingerprint: string) =>
    new SqlPacer({ db: executor, fingerprint, limit: 5, windowMs: 60_000 });

  it('grants exactly `limit` slots to a burst of concurrent requests from three replicas', async () => {
    const pacers = replicas.map((r) => pacerOn(r, 'key_burst'));
    const answers = await Promise.all(Array.from({ length: 21 }, (_, i) => pacers[i % 3]!.acquire()));
    expect(answers.filter((a) => a.waitMs === 0)).toHaveLength(5);
    for (const a of answers.filter((x) => x.waitMs > 0)) expect(a.waitMs).toBeGreaterThan(50_000);
  });

  it('dates a slot by its answer, on the database clock', async () => {
    const pacer = new SqlPacer({ db: replicas[0]!, fingerprint: 'key_settle', limit: 1, windowMs: 60_000 });
    const first = await pacer.acquire();
    expect(first.waitMs).toBe(0);
    await new Promise((r) => setTimeout(r, 300)); // the request's round trip
    await pacer.settle(first.slot);
    const [row] = await replicas[1]!.query<{ sent: number[] }>(
      "SELECT sent FROM linen_pacing WHERE key_fingerprint = 'key_settle'",
    );
    expect(row!.sent).toHaveLength(1);
    expect(row!.sent[0]! - first.slot).toBeGreaterThanOrEqual(300);
  });

  it('leaves background work short of the limit while a person waiting still gets the last slots, across replicas', async () => {
    const pacers = replicas.map((r) => pacerOn(r, 'key_reserve'));
    const background = backgroundPacer(pacers[0]!, 2);
    for (let i = 0; i < 3; i++) expect((await background.acquire(0)).waitMs).toBe(0);
    expect((await background.acquire(0)).waitMs).toBeGreaterThan(50_000);
    // Another replica's interactive request takes the reserve, and the window is then full for it too.
    expect((await pacers[1]!.acquire()).waitMs).toBe(0);
    expect((await pacers[2]!.acquire()).waitMs).toBe(0);
    expect((await pacers[1]!.acquire()).waitMs).toBeGreaterThan(50_000);
  });

  it('holds back every replica after one of them is answered 429', async () => {
    await pacerOn(replicas[0]!, 'key_blocked').blockFor(0, 30_000);
    const answer = await pacerOn(replicas[2]!, 'key_blocked').acquire();
    expect(answer.waitMs).toBeGreaterThan(25_000);
  });

  it('keeps a row per key fingerprint and never the key', async () => {
    const pacers = keyPacers({ db: replicas[0]! });
    await pacers.for(KEY).acquire(0);
    const rows = await replicas[0]!.query<Record<string, unknown>>('SELECT * FROM linen_pacing');
    expect(rows.map((r) => r.key_fingerprint)).toContain(keyRefOf(KEY));
    expect(JSON.stringify(rows)).not.toContain(KEY);
  });

  it('gives every client of a key the same shared pacer', () => {
    const pacers = keyPacers({ db: replicas[0]! });
    expect(pacers.for(KEY)).toBeInstanceOf(SqlPacer);
    expect(pacers.for(KEY)).toBe(pacers.for(KEY));
    expect(pacers.for(`${KEY}x`)).not.toBe(pacers.for(KEY));
  });
});

describe('pacing with the embedded store', () => {
  it('gives every client of a key one in-process pacer, and never asks the database', () => {
    const untouched = {
      driver: 'pglite',
      query: () => Promise.reject(new Error('the embedded store is not asked for pacing')),
      transaction: () => Promise.reject(new Error('the embedded store is not asked for pacing')),
      close: async () => {},
    } as const satisfies SqlExecutor;
    const pacers = keyPacers({ db: untouched });
    expect(pacers.for(KEY)).toBeInstanceOf(Pacer);
    expect(pacers.for(KEY)).toBe(pacers.for(KEY));
    expect(pacers.for(KEY).acquire(0)).toEqual({ waitMs: 0, slot: 0, used: 1 });
  });
});
