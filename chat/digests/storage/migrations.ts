/**
 * The digest tables: subscriptions, their runs and what each run showed (versions 1, 20, 40 and on; the workspace
 * tables use 21–29 and the pacing 30–34). The process applies them with every other part's (`chat/store.ts`).
 */
import type { Migration } from '../../../base/store/migrate.ts';

export const DIGEST_MIGRATIONS: readonly Migration[] = [
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
  // Numbered 40 and on: the workspace tables use 21-29 and the pacing 30-34.
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
  {
    version: 42,
    name: 'digest kinds checked by the store against its registry, not by a CHECK list',
    // The store refuses a kind its registry does not know (chat/digests/kinds/), so a new kind is one module, not
    // one more migration. The CHECK of version 20 was declared with its column, so PostgreSQL (and PGlite) named it
    // <table>_<column>_check; without IF EXISTS, a database where it is named otherwise fails here, not later.
    sql: `
ALTER TABLE digest_subscriptions DROP CONSTRAINT digest_subscriptions_kind_check
`,
  },
];
