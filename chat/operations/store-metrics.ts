/**
 * The store as the metrics see it: its failures counted by operation, and a few counts read at scrape time
 * (installations, connections, subscriptions by status, how overdue the earliest due digest is). Each count is
 * one indexed or small-table query; a count that fails is left out of that scrape, never failing it.
 */
import type { DigestStore } from '../digests/index.ts';
import type { SqlExecutor } from '../digests/storage/sql.ts';
import type { BotMetrics, StoreCounts } from './metrics.ts';

type OnError = (operation: string) => void;

/** Calls of `target`'s methods whose promise rejects (or that throw) are reported by method name. */
function countingFailures<T extends object>(
  target: T,
  onError: OnError,
  wrapProperty?: (name: string, value: unknown) => unknown,
): T {
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop, obj);
      if (typeof prop !== 'string') return value;
      if (typeof value !== 'function') return wrapProperty ? wrapProperty(prop, value) : value;
      return (...args: unknown[]) => {
        try {
          const result = (value as (...a: unknown[]) => unknown).apply(obj, args);
          if (result instanceof Promise)
            return result.catch((err: unknown) => {
              onError(prop);
              throw err;
            });
          return result;
        } catch (err) {
          onError(prop);
          throw err;
        }
      };
    },
  });
}

/**
 * The store with its failures counted: its own methods by name, and the queries others run on its database
 * (connections, installations, pacing) as `sql_query` and `sql_transaction`.
 */
export function storeCountingErrors(store: DigestStore, metrics: BotMetrics): DigestStore {
  const executor = countingFailures<SqlExecutor>(store.executor, (op) => metrics.storeError(`sql_${op}`));
  return countingFailures(
    store,
    (op) => metrics.storeError(op),
    (name, value) => (name === 'executor' ? executor : value),
  );
}

/** `platform, n` rows as counts by platform; null when the table cannot be read. */
async function countsBy(db: SqlExecutor, sql: string): Promise<Record<string, number> | null> {
  const rows = await db.query<{ platform: string; n: unknown }>(sql).catch(() => null);
  if (!rows) return null;
  return Object.fromEntries(rows.map((r) => [r.platform, Number(r.n)]));
}

/** The counts the gauges show, from the store's database. */
export function readStoreCounts(store: DigestStore, now: () => number = Date.now): () => Promise<StoreCounts> {
  const db = store.executor;
  return async () => {
    const [slack, teams, connections, statuses, due] = await Promise.all([
      countsBy(db, `SELECT 'slack' AS platform, count(*) AS n FROM slack_installations`),
      countsBy(db, `SELECT 'teams' AS platform, count(DISTINCT tenant_id) AS n FROM teams_conversations`),
      countsBy(db, 'SELECT platform, count(*) AS n FROM workspace_connections GROUP BY platform'),
      db
        .query<{ platform: string; status: string; n: unknown }>(
          'SELECT platform, status, count(*) AS n FROM digest_subscriptions GROUP BY platform, status',
        )
        .catch(() => []),
      store.nextDueAt().catch(() => null),
    ]);
    const installations = slack || teams ? { ...slack, ...teams } : null;
    const subscriptions: StoreCounts['subscriptions'] = [];
    for (const row of statuses) subscriptions.push({ platform: row.platform, status: row.status, n: Number(row.n) });
    const overdueMs = due ? now() - due.getTime() : 0;
    return { installations, connections, subscriptions, overdueSeconds: Math.max(0, overdueMs / 1000) };
  };
}
