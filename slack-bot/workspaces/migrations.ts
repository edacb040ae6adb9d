/**
 * The workspace tables (versions 21–24), applied by the digest store's migration runner: they live in the same
 * database. Slack installations keep one sealed value (the whole installation, tokens included) per workspace, or
 * per Enterprise Grid organization for an org-wide install.
 */
export const WORKSPACE_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
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
];
