/**
 * The workspace tables, in the service's one database beside the digests (applied with every part's migrations).
 * Slack installations (version 21) keep one sealed value (the whole installation, tokens included) per
 * workspace, or per Enterprise Grid organization for an org-wide install. Workspace connections (versions 25–29)
 * are our own rows next to the installation, keyed by team id: where accounting answers may appear, and the
 * Linen keys bound to places (`*` the workspace default, or a channel id), each sealed.
 */

import type { SealedColumn } from '../../base/secrets/reencrypt.ts';
import type { Migration } from '../../base/store/migrate.ts';

export const WORKSPACE_MIGRATIONS: readonly Migration[] = [
  {
    version: 21,
    name: 'slack installations',
    sql: `
CREATE TABLE slack_installations (
  id text PRIMARY KEY,
  team_id text,
  enterprise_id text,
  is_enterprise_install boolean NOT NULL,
  installation_sealed text NOT NULL,
  installed_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX slack_installations_team ON slack_installations (team_id);
CREATE INDEX slack_installations_enterprise ON slack_installations (enterprise_id);
CREATE INDEX digest_subscriptions_team ON digest_subscriptions (team_id);
`,
  },
  {
    version: 25,
    name: 'workspace connections and their Linen keys',
    sql: `
CREATE TABLE workspace_connections (
  team_id text PRIMARY KEY,
  accounting_channels jsonb NOT NULL DEFAULT '[]',
  accounting_in_dms boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL
);
CREATE TABLE workspace_keys (
  team_id text NOT NULL REFERENCES workspace_connections (team_id) ON DELETE CASCADE,
  place text NOT NULL,
  key_ref text NOT NULL,
  key_sealed text NOT NULL,
  last_four text NOT NULL,
  base_url text NOT NULL,
  time_zone text NOT NULL,
  scopes jsonb NOT NULL DEFAULT '[]',
  connected_by text NOT NULL,
  connected_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, place)
);
CREATE INDEX workspace_keys_by_ref ON workspace_keys (key_ref);
`,
  },
  {
    version: 26,
    name: 'workspace keys get an id of their own (re-encryption walks rows by id)',
    sql: `
ALTER TABLE workspace_keys ADD COLUMN id text;
UPDATE workspace_keys SET id = 'wk_' || substr(md5(team_id || ':' || place), 1, 16);
ALTER TABLE workspace_keys ALTER COLUMN id SET NOT NULL;
ALTER TABLE workspace_keys DROP CONSTRAINT workspace_keys_pkey;
ALTER TABLE workspace_keys ADD PRIMARY KEY (id);
ALTER TABLE workspace_keys ADD CONSTRAINT workspace_keys_place UNIQUE (team_id, place);
`,
  },
  {
    version: 27,
    name: "a workspace connection remembers its Enterprise Grid organization (digests post with an org-wide install's token)",
    sql: `
ALTER TABLE workspace_connections ADD COLUMN enterprise_id text;
`,
  },
  {
    version: 28,
    // Null until a command answers after this version: when a key answered before is not known.
    name: 'a workspace key remembers when a command last got an answer with it (npm run admin -- status)',
    sql: `
ALTER TABLE workspace_keys ADD COLUMN last_answered_at timestamptz;
`,
  },
  {
    version: 29,
    // A Teams tenant is connected like a Slack workspace (its GUID never looks like a Slack team id). Teams sends no
    // admin role with a message: the people allowed to manage a tenant's connection are kept here. Each conversation
    // the app is installed in is kept with the service URL it is reached through.
    name: 'connections name their platform; connection admins; Teams conversations',
    sql: `
ALTER TABLE workspace_connections ADD COLUMN platform text NOT NULL DEFAULT 'slack';
ALTER TABLE workspace_keys ADD COLUMN connected_by_name text;
CREATE TABLE connection_admins (
  team_id text NOT NULL,
  user_id text NOT NULL,
  user_name text,
  added_by text,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (team_id, user_id)
);
CREATE TABLE teams_conversations (
  conversation_id text PRIMARY KEY,
  tenant_id text NOT NULL,
  conversation_type text NOT NULL,
  team_id text,
  service_url text NOT NULL,
  installed_at timestamptz NOT NULL
);
CREATE INDEX teams_conversations_tenant ON teams_conversations (tenant_id);
CREATE INDEX teams_conversations_team ON teams_conversations (team_id)
`,
  },
];

/** The columns of these tables that hold sealed values (moved to a new key by `npm run reencrypt`). */
export const WORKSPACE_SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'slack_installations', idColumn: 'id', column: 'installation_sealed' },
  { table: 'workspace_keys', idColumn: 'id', column: 'key_sealed' },
];
