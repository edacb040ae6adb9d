/**
 * The chat tables as the metrics see them: a few counts read at scrape time (installations, connections,
 * subscriptions by status, how overdue the earliest due digest is). Each count is one indexed or small-table query;
 * a count that fails is left out of that scrape, never failing it.
 */
import type { SqlExecutor } from '../../base/store/sql.ts';
import type { DigestStore } from '../digests/index.ts';
import type { StoreCounts } from './metrics.ts';

/** `platform, n` rows as counts by platform; null when the table cannot be read. */
async function countsBy(db: SqlExecutor, sql: string): Promise<Record<string, number> | null> {
  const rows = await db.query<{ platform: string; n: unknown }>(sql).catch(() => null);
  if (!rows) return null;
  return Object.fromEntries(rows.map((r) => [r.platform, Number(r.n)]));
}

/** The counts the gauges show, from the store's database. */
export function readStoreCounts(
  db: SqlExecutor,
  store: Pick<DigestStore, 'nextDueAt'>,
  now: () => number = Date.now,
): () => Promise<StoreCounts> {
  return async () => {
    const [slack, teams, connections, statuses, alertRows, due] = await Promise.all([
      countsBy(db, `SELECT 'slack' AS platform, count(*) AS n FROM slack_installations`),
      countsBy(db, `SELECT 'teams' AS platform, count(DISTINCT tenant_id) AS n FROM teams_conversations`),
      countsBy(db, 'SELECT platform, count(*) AS n FROM workspace_connections GROUP BY platform'),
      db
        .query<{ platform: string; status: string; n: unknown }>(
          'SELECT platform, status, count(*) AS n FROM digest_subscriptions GROUP BY platform, status',
        )
        .catch(() => []),
      db
        .query<{ platform: string; status: string; n: unknown }>(
          'SELECT platform, status, count(*) AS n FROM alerts GROUP BY platform, status',
        )
        .catch(() => []),
      store.nextDueAt().catch(() => null),
    ]);
    const installations = slack || teams ? { ...slack, ...teams } : null;
    const subscriptions: StoreCounts['subscriptions'] = [];
    for (const row of statuses) subscriptions.push({ platform: row.platform, status: row.status, n: Number(row.n) });
    const overdueMs = due ? now() - due.getTime() : 0;
    const alerts = alertRows.map((row) => ({ platform: row.platform, status: row.status, n: Number(row.n) }));
    return { installations, connections, subscriptions, alerts, overdueSeconds: Math.max(0, overdueMs / 1000) };
  };
}
