/**
 * Migration 42 on PGlite and PostgreSQL: a store created before it, whose CHECK of migration 20 lists the kinds
 * there were, loses that CHECK (and only it) and keeps its subscriptions; a kind the store's registry knows can
 * then be stored, and the store alone decides which kinds it takes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../base/store/migrate.ts';
import { openPg } from '../../../base/store/pg.ts';
import { openPglite } from '../../../base/store/pglite.ts';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { digestStoreOver } from '../../../chat/digests/storage/index.ts';
import { SERVICE_MIGRATIONS } from '../../../service/store.ts';
import { drivers, dropSchema, freshSchema, newSubscription, PG_URL } from '../../support/digest-db.ts';

const checksOfSubscriptions = async (db: SqlExecutor) =>
  (
    await db.query<{ name: string }>(
      `SELECT conname AS name FROM pg_constraint WHERE conrelid = 'digest_subscriptions'::regclass AND contype = 'c'
       ORDER BY conname`,
    )
  ).map((r) => r.name);

describe.each(drivers)('migration 42 on %s', (driver) => {
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

  it('drops the CHECK list of kinds from a store created before it; the registry decides', async () => {
    const db = await openRaw();
    cleanup.push(() => db.close());
    // The store as it was before migration 42.
    expect(
      await migrate(
        db,
        SERVICE_MIGRATIONS.filter((m) => m.version < 42),
      ),
    ).not.toContain(42);
    const before = digestStoreOver(db);
    const kept = await before.createSubscription(
      newSubscription({ keyRef: 'kr_1', channelId: 'C0MIGRATE', kind: 'receivables' }),
      new Date('2026-11-01T12:00:00Z'),
      null,
    );
    const insert = (id: string) =>
      db.query(
        `INSERT INTO digest_subscriptions (id, key_ref, channel_id, cadence, time_of_day, time_zone, created_by,
           created_at, updated_at, kind) VALUES ($1, 'kr_1', 'C0MIGRATE', 'fri', '07:00', 'UTC', 'U0A', now(), now(), 'past-due')`,
        [id],
      );
    await expect(insert('d_before')).rejects.toThrow(/digest_subscriptions_kind_check/);
    expect(await checksOfSubscriptions(db)).toEqual([
      'digest_subscriptions_kind_check',
      'digest_subscriptions_status_check',
    ]);

    // The version after it, and nothing later (later versions are other parts' tables).
    const upTo42 = SERVICE_MIGRATIONS.filter((m) => m.version <= 42);
    expect(await migrate(db, upTo42)).toEqual([42]);
    expect(await checksOfSubscriptions(db)).toEqual(['digest_subscriptions_status_check']);
    expect(await migrate(db, upTo42)).toEqual([]);
    expect(await before.getSubscription(kept.id)).toMatchObject({ kind: 'receivables', status: 'active' });

    // The table takes any kind now; the store takes the ones it was given.
    await insert('d_after');
    const withPastDue = digestStoreOver(db, ['shortfall', 'past-due']);
    const added = await withPastDue.createSubscription(
      newSubscription({ keyRef: 'kr_1', channelId: 'C0MIGRATE', kind: 'past-due' as never }),
      new Date('2026-11-02T12:00:00Z'),
      null,
    );
    expect((await withPastDue.getSubscription(added.id))?.kind).toBe('past-due');
    await expect(
      withPastDue.createSubscription(
        newSubscription({ keyRef: 'kr_1', channelId: 'C0MIGRATE', kind: 'receivables' }),
        new Date('2026-11-02T12:00:00Z'),
        null,
      ),
    ).rejects.toThrow('"receivables" is not a digest kind; the kinds are shortfall, past-due.');
    // A subscription naming no kind is of the store's first.
    const plain = await withPastDue.createSubscription(
      newSubscription({ keyRef: 'kr_1', channelId: 'C0MIGRATE' }),
      new Date('2026-11-02T12:00:00Z'),
      null,
    );
    expect(plain.kind).toBe('shortfall');
    expect((await before.listSubscriptions()).map((s) => s.kind).sort()).toEqual([
      'past-due',
      'past-due',
      'receivables',
      'shortfall',
    ]);
    await Promise.all([before.drain(), withPastDue.drain()]);
  });
});
