/** Digest stores for tests: PGlite in memory, and a fresh schema on TEST_DATABASE_URL (dropped afterwards). */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPg } from '../../base/store/pg.ts';
import { openPglite } from '../../base/store/pglite.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { type DigestStore, digestStoreOver, type NewSubscription } from '../../chat/digests/storage/index.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import { KEYS } from './sandbox-http.ts';
import { assertNoLeaks, tableRows } from './secret-leaks.ts';

export const PG_URL = process.env.TEST_DATABASE_URL;
// In CI the PostgreSQL suites must run: a missing URL there is a broken setup, not a reason to skip them.
if (process.env.CI && !PG_URL) throw new Error('TEST_DATABASE_URL must be set in CI (.ci/run sets it)');

export interface TestDb {
  driver: 'pglite' | 'pg';
  /** The service's database (every part's tables, migrated). */
  executor: SqlExecutor;
  store: DigestStore;
  /** For PostgreSQL: the schema and URL other processes can join. */
  schema?: string;
  url?: string;
  /** Another store on the same database, over a connection pool of its own (a second replica). */
  another(): Promise<{ executor: SqlExecutor; store: DigestStore }>;
  close(): Promise<void>;
}

let sharedPglite: Promise<{ db: SqlExecutor; store: DigestStore }> | undefined;

export const drivers: ('pglite' | 'pg')[] = PG_URL ? ['pglite', 'pg'] : ['pglite'];

const DIGEST_TABLES = ['digest_subscriptions', 'digest_runs', 'digest_run_shown'] as const;

/** Stored rows never hold an API key, in any encoding. */
async function assertNoKeysStored(db: SqlExecutor): Promise<void> {
  assertNoLeaks(Object.values(KEYS), await tableRows(db, DIGEST_TABLES));
}

export function freshSchema(): string {
  return `digest_test_${randomBytes(5).toString('hex')}`;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await c.end();
}

/** `via`: PostgreSQL only, another address of the server for the store's connections (a proxy a test can cut). */
export async function openTestDb(driver: 'pglite' | 'pg', options: { via?: string } = {}): Promise<TestDb> {
  if (driver === 'pglite') {
    // One embedded database per test process (it takes a few seconds to start); emptied between tests.
    sharedPglite ??= openPglite().then(async (db) => ({
      db,
      store: digestStoreOver(await migrateServiceDatabase(db)),
    }));
    const { db, store } = await sharedPglite;
    // The previous test's rows, checked before they go.
    await assertNoKeysStored(db);
    await db.query('TRUNCATE digest_run_shown, digest_runs, digest_subscriptions');
    return {
      driver,
      executor: db,
      store,
      another: async () => ({ executor: db, store }),
      close: () => assertNoKeysStored(db),
    };
  }
  if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
  const schema = freshSchema();
  const extra: { executor: SqlExecutor; store: DigestStore }[] = [];
  const db = await migrateServiceDatabase(await openPg({ connectionString: options.via ?? PG_URL, schema }));
  const store = digestStoreOver(db);
  return {
    driver,
    executor: db,
    store,
    schema,
    url: PG_URL,
    async another() {
      const executor = await openPg({ connectionString: PG_URL, schema });
      const s = { executor, store: digestStoreOver(executor) };
      extra.push(s);
      return s;
    },
    async close() {
      const rowsChecked = assertNoKeysStored(db);
      await rowsChecked.finally(async () => {
        await Promise.all(
          [{ executor: db, store }, ...extra].map(async (s) => {
            await s.store.drain();
            await s.executor.close();
          }),
        );
        await dropSchema(PG_URL, schema);
      });
    },
  };
}

/**
 * A subscription as the suites make them: a daily shortfall digest at 07:00 Chicago time, every customer, every
 * severity, no all-clear; `fields` name its key and channel and change the rest.
 */
export function newSubscription(
  fields: Pick<NewSubscription, 'keyRef' | 'channelId'> & Partial<NewSubscription>,
): NewSubscription {
  return {
    cadence: 'daily',
    time: '07:00',
    timeZone: 'America/Chicago',
    customerIds: [],
    minSeverity: 'low',
    allClear: false,
    createdBy: 'U0A',
    ...fields,
  };
}

/** A daily digest subscription of the workspace `teamId` (key `k1`, channel C0A), due now: a row to see kept or forgotten. */
export function subscribeWorkspace(store: DigestStore, teamId: string) {
  return store.createSubscription(
    newSubscription({ orgId: teamId, keyRef: 'k1', channelId: 'C0A' }),
    new Date(),
    new Date(),
  );
}
