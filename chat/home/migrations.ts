/**
 * The home's table (version 60): what each person follows, by platform, organization and person. The process applies
 * it with every other part's (`chat/store.ts`); forgetting a workspace or tenant deletes its rows
 * (`connections/forget.ts`).
 */
import type { Migration } from '../../base/store/migrate.ts';

export const HOME_MIGRATIONS: readonly Migration[] = [
  {
    version: 60,
    name: 'what each person follows on their home',
    sql: `
CREATE TABLE home_follows (
  platform text NOT NULL,
  -- The Slack workspace or Microsoft 365 tenant; '' for a bot of one workspace that names none (the console).
  org_id text NOT NULL DEFAULT '',
  user_id text NOT NULL,
  customer_ids jsonb NOT NULL DEFAULT '[]',
  places jsonb NOT NULL DEFAULT '[]',
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (platform, org_id, user_id)
);
CREATE INDEX home_follows_org ON home_follows (org_id);
`,
  },
];
