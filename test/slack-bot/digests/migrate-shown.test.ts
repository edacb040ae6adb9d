/**
 * Migration 40 on PGlite and PostgreSQL: a store written before it (what each run showed, a row per signal) keeps
 * every run's record, now one row per run in signal order, and the next digest compares with it as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../base/store/migrate.ts';
import { openPg } from '../../../base/store/pg.ts';
import { openPglite } from '../../../base/store/pglite.ts';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { digestStoreOver } from '../../../chat/digests/storage/index.ts';
import { migrateServiceDatabase, SERVICE_MIGRATIONS } from '../../../service/store.ts';
import { drivers, dropSchema, freshSchema, newSubscription, PG_URL } from '../../support/digest-db.ts';

const BEFORE_40 = `CREATE TABLE digest_run_signals (
  run_id text NOT NULL REFERENCES digest_runs (id) ON DELETE CASCADE,
  signal_id text NOT NULL,
  state text NOT NULL,
  snapshot jsonb NOT NULL,
  PRIMARY KEY (run_id, signal_id)
)`;

const snapshot = (summary: string) => ({
  kind: 'shortfall_streak',
  severity: 'high',
  summary,
  customerId: 'cus_1',
  departmentId: 'dep_1',
  itemId: 'itm_1',
  itemName: 'Bath towel',
});

describe.each(drivers)('migration 40 on %s', (driver) => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  async function openRaw(): Promise<SqlExecutor> {
    if (driver === 'pglite') return openPglite();
    const schema = freshSchema();
    cleanup.push(() => dropSchema(PG_URL!, schema));
    return openPg({ connectionString: PG_URL!, schema });
  }

  it("keeps each run's shown signals, one row per run in signal order", async () => {
    const db = await openRaw();
    const store = digestStoreOver(await migrateServiceDatabase(db));
    cleanup.push(async () => {
      await store.drain();
      await db.close();
    });
    const sub = await store.createSubscription(
      newSubscription({ keyRef: 'kr_1', channelId: 'C0MIGRATE' }),
      new Date('2026-11-01T12:00:00Z'),
      null,
    );
    const runs = [
      { id: 'r_posted', at: '2026-11-04T13:00:00Z', status: 'posted' },
      { id: 'r_quiet', at: '2026-11-03T13:00:00Z', status: 'quiet' },
    ];
    for (const r of runs)
      await db.query(
        `INSERT INTO digest_runs (id, subscription_id, scheduled_for, status, created_at, finished_at) VALUES ($1, $2, $3, $4, $3, $3)`,
        [r.id, sub.id, new Date(r.at), r.status],
      );
    // The store as it was before migration 40.
    await db.query('DROP TABLE digest_run_shown');
    await db.query(BEFORE_40);
    await db.query('DELETE FROM digest_migrations WHERE version = 40');
    for (const [signal, state] of [
      ['sig_b', 'acknowledged'],
      ['sig_a', 'open'],
    ] as const)
      await db.query(
        'INSERT INTO digest_run_signals (run_id, signal_id, state, snapshot) VALUES ($1, $2, $3, $4::jsonb)',
        ['r_posted', signal, state, JSON.stringify(snapshot(`summary of ${signal}`))],
      );

    expect(await migrate(db, SERVICE_MIGRATIONS)).toEqual([40]);
    const previous = await store.previousDigest(sub.id, new Date('2026-11-05T13:00:00Z'));
    expect(previous?.run.id).toBe('r_posted');
    expect(previous?.shown).toEqual([
      { signalId: 'sig_a', state: 'open', snapshot: snapshot('summary of sig_a') },
      { signalId: 'sig_b', state: 'acknowledged', snapshot: snapshot('summary of sig_b') },
    ]);
    // A run that showed nothing has no row, and reads as showing nothing.
    const quiet = await store.previousDigest(sub.id, new Date('2026-11-04T13:00:00Z'));
    expect(quiet).toMatchObject({ run: { id: 'r_quiet' }, shown: [] });
    await expect(db.query('SELECT 1 FROM digest_run_signals')).rejects.toThrow(/digest_run_signals/);
    expect(await db.query('SELECT count(*)::int AS n FROM digest_run_shown')).toEqual([{ n: 1 }]);
  });
});
