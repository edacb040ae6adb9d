/**
 * SQL migrations, applied in order inside one transaction and recorded in `digest_migrations`. A transaction
 * advisory lock (keyed by the current schema) makes concurrent starts wait for each other, so several
 * replicas starting at once apply each migration exactly once.
 */
import { WORKSPACE_MIGRATIONS } from '../../connections/migrations.ts';
import type { SqlExecutor } from './sql.ts';

export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'subscriptions, runs and shown signals',
    sql: `
CREATE TABLE digest_subscriptions (
  id text PRIMARY KEY,
  team_id text,
  key_ref text NOT NULL,
  channel_id text NOT NULL,
  cadence text NOT NULL,
  time_of_day text NOT NULL,
  time_zone text NOT NULL,
  customer_ids jsonb NOT NULL DEFAULT '[]',
  min_severity text NOT NULL DEFAULT 'low',
  all_clear boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'failing')),
  failure_reason text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  next_run_at timestamptz
);
CREATE INDEX digest_subscriptions_due ON digest_subscriptions (next_run_at) WHERE status = 'active';

CREATE TABLE digest_runs (
  id text PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES digest_subscriptions (id) ON DELETE CASCADE,
  scheduled_for timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'claimed', 'posting', 'posted', 'quiet', 'skipped', 'failed')),
  claimed_by text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  channel_id text,
  message_ts text,
  error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz,
  UNIQUE (subscription_id, scheduled_for)
);
CREATE INDEX digest_runs_open ON digest_runs (scheduled_for) WHERE status IN ('pending', 'claimed', 'posting');

CREATE TABLE digest_run_signals (
  run_id text NOT NULL REFERENCES digest_runs (id) ON DELETE CASCADE,
  signal_id text NOT NULL,
  state text NOT NULL,
  snapshot jsonb NOT NULL,
  PRIMARY KEY (run_id, signal_id)
);
`,
  },
  // Numbered 20: the versions below it are reserved for the workspace tables.
  {
    version: 20,
    name: 'digest kinds and their options',
    sql: `
ALTER TABLE digest_subscriptions ADD COLUMN kind text NOT NULL DEFAULT 'shortfall'
  CHECK (kind IN ('shortfall', 'receivables', 'tickets', 'budgets'));
ALTER TABLE digest_subscriptions ADD COLUMN options jsonb NOT NULL DEFAULT '{}';
`,
  },
  ...WORKSPACE_MIGRATIONS,
  // Numbered 30: the pacing tables use 30-34.
  {
    version: 30,
    name: 'pacing shared by the replicas, a row per key fingerprint',
    sql: `
CREATE TABLE linen_pacing (
  key_fingerprint text PRIMARY KEY,
  sent double precision[] NOT NULL DEFAULT '{}',
  blocked_until double precision NOT NULL DEFAULT 0
);
`,
  },
  // Numbered 40 and on: digests again.
  {
    version: 40,
    name: 'what a run showed, one row per run',
    // One row per run rather than one per signal: a digest run of thousands of posts writes a tenth of the rows.
    sql: `
CREATE TABLE digest_run_shown (
  run_id text PRIMARY KEY REFERENCES digest_runs (id) ON DELETE CASCADE,
  shown jsonb NOT NULL
);
INSERT INTO digest_run_shown (run_id, shown)
  SELECT run_id, jsonb_agg(jsonb_build_object('signalId', signal_id, 'state', state, 'snapshot', snapshot) ORDER BY signal_id)
  FROM digest_run_signals GROUP BY run_id;
DROP TABLE digest_run_signals;
`,
  },
  {
    version: 41,
    name: 'subscriptions name their chat platform, and where Teams is reached',
    // Slack subscriptions are all there was. A Teams digest is posted to its conversation through the service URL
    // of the activity that subscribed it; the channel's name is kept for the answers that list subscriptions.
    sql: `
ALTER TABLE digest_subscriptions ADD COLUMN platform text NOT NULL DEFAULT 'slack';
ALTER TABLE digest_subscriptions ADD COLUMN service_url text;
ALTER TABLE digest_subscriptions ADD COLUMN channel_name text
`,
  },
];

export async function migrate(db: SqlExecutor): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':linen_digest_migrations'))`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS digest_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM digest_migrations')).map((r) => Number(r.version)),
    );
    const applied: number[] = [];
    for (const m of [...MIGRATIONS].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      for (const stmt of m.sql
        .split(/;\s*\n/)
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(stmt);
      await tx.query('INSERT INTO digest_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** The migrations this code knows that the database has not applied (all of them before the first start). */
export async function pendingMigrations(db: SqlExecutor): Promise<number[]> {
  const applied = await db.query<{ version: number }>('SELECT version FROM digest_migrations').catch((e: unknown) => {
    if ((e as { code?: unknown }).code === '42P01') return []; // undefined_table: never migrated
    throw e;
  });
  const done = new Set(applied.map((r) => Number(r.version)));
  return MIGRATIONS.map((m) => m.version).filter((v) => !done.has(v));
}
