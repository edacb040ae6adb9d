/**
 * The workspace connection tables (versions 25–29 are theirs), applied with the digest store's migrations.
 * A connection is our own row next to Slack's installation, keyed by team id: where accounting answers may
 * appear, and the Linen keys bound to places (`*` the workspace default, or a channel id), each sealed.
 */
export const CONNECTION_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
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
];
