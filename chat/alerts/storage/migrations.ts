/**
 * The alert tables (versions 50 and on): alerts, each key's checks, and the posts that tell what a check found.
 * The process applies them with every other part's (`chat/store.ts`).
 */
import type { Migration } from '../../../base/store/migrate.ts';

export const ALERT_MIGRATIONS: readonly Migration[] = [
  {
    version: 50,
    name: 'alerts, their checks and their posts',
    sql: `
CREATE TABLE alerts (
  id text PRIMARY KEY,
  platform text NOT NULL,
  team_id text,
  key_ref text NOT NULL,
  kind text NOT NULL,
  options jsonb NOT NULL DEFAULT '{}',
  customer_ids jsonb NOT NULL DEFAULT '[]',
  time_zone text NOT NULL,
  channel_id text NOT NULL,
  channel_name text,
  service_url text,
  direct boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused', 'failing')),
  failure_reason text,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  seen jsonb,
  seen_at timestamptz,
  last_day text,
  last_fired_at timestamptz
);
CREATE INDEX alerts_key ON alerts (key_ref) WHERE status = 'active';
CREATE INDEX alerts_team ON alerts (team_id);

CREATE TABLE alert_checks (
  key_ref text PRIMARY KEY,
  next_at timestamptz NOT NULL,
  claimed_by text,
  lease_until timestamptz,
  last_at timestamptz,
  last_requests integer,
  last_error text
);
CREATE INDEX alert_checks_due ON alert_checks (next_at);

CREATE TABLE alert_posts (
  id text PRIMARY KEY,
  alert_id text NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  checked_at timestamptz NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'claimed', 'posting', 'posted', 'skipped', 'failed')),
  told jsonb NOT NULL,
  test boolean NOT NULL DEFAULT false,
  claimed_by text,
  lease_until timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  channel_id text,
  message_ts text,
  error text,
  created_at timestamptz NOT NULL,
  finished_at timestamptz
);
CREATE INDEX alert_posts_open ON alert_posts (checked_at) WHERE status IN ('pending', 'claimed', 'posting');
CREATE INDEX alert_posts_alert ON alert_posts (alert_id, checked_at);
`,
  },
];
