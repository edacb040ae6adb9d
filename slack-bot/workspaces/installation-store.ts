/**
 * Bolt's InstallationStore over the bot's database. The whole installation (bot token, refresh token and expiry,
 * the installer's user token, any webhook URL) is kept as one sealed value, so no token is ever stored in clear;
 * team, enterprise and org-install flag stay in clear to find it. A workspace install is keyed by its team id, an
 * Enterprise Grid org-wide install by its enterprise id.
 */
import type { Installation, InstallationQuery, InstallationStore } from '@slack/bolt';
import type { SecretBox } from '../../base/secrets/crypto.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';

/** The store could not find an installation: Bolt then ignores the request (and logs that it did). */
export class InstallationNotFoundError extends Error {
  override name = 'InstallationNotFoundError';
}

type AnyInstallation = Installation<'v1' | 'v2', boolean>;

/** The row id: the organization for an org-wide install, the workspace otherwise. */
function rowIdOf(q: {
  isEnterpriseInstall?: boolean | undefined;
  enterpriseId?: string | undefined;
  teamId?: string | undefined;
}) {
  if (q.isEnterpriseInstall && q.enterpriseId) return `enterprise:${q.enterpriseId}`;
  if (q.teamId) return `team:${q.teamId}`;
  return undefined;
}

export class SqlInstallationStore implements InstallationStore {
  readonly #db: SqlExecutor;
  readonly #box: SecretBox;

  constructor(options: { db: SqlExecutor; box: SecretBox }) {
    this.#db = options.db;
    this.#box = options.box;
  }

  async storeInstallation(installation: AnyInstallation): Promise<void> {
    const isEnterpriseInstall = installation.isEnterpriseInstall === true;
    const teamId = installation.team?.id;
    const enterpriseId = installation.enterprise?.id;
    const id = rowIdOf({ isEnterpriseInstall, enterpriseId, teamId });
    if (!id) throw new Error('an installation without a team or an enterprise cannot be stored');
    await this.#db.query(
      `INSERT INTO slack_installations (id, team_id, enterprise_id, is_enterprise_install, installation_sealed)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET team_id = EXCLUDED.team_id, enterprise_id = EXCLUDED.enterprise_id,
         is_enterprise_install = EXCLUDED.is_enterprise_install,
         installation_sealed = EXCLUDED.installation_sealed, updated_at = now()`,
      [
        id,
        isEnterpriseInstall ? null : (teamId ?? null),
        enterpriseId ?? null,
        isEnterpriseInstall,
        this.#box.seal(JSON.stringify(installation)),
      ],
    );
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<AnyInstallation> {
    const found = await this.find(query);
    if (!found) {
      throw new InstallationNotFoundError(
        `no installation for ${query.isEnterpriseInstall ? `organization ${query.enterpriseId}` : `workspace ${query.teamId}`}`,
      );
    }
    return found;
  }

  /** The installation for a query, or undefined: a workspace of an organization falls back to the org-wide one. */
  async find(query: InstallationQuery<boolean>): Promise<AnyInstallation | undefined> {
    const ids = [rowIdOf(query)];
    if (!query.isEnterpriseInstall && query.enterpriseId) ids.push(`enterprise:${query.enterpriseId}`);
    for (const id of ids) {
      if (!id) continue;
      const [row] = await this.#db.query<{ installation_sealed: string }>(
        'SELECT installation_sealed FROM slack_installations WHERE id = $1',
        [id],
      );
      if (row) return JSON.parse(this.#box.open(row.installation_sealed)) as AnyInstallation;
    }
    return undefined;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const id = rowIdOf(query);
    if (id) await this.#db.query('DELETE FROM slack_installations WHERE id = $1', [id]);
  }
}
