/**
 * Who may connect a tenant's Linen key and change where accounting answers appear. Teams sends no admin role with a
 * message, so the decision is ours: the operator's `TEAMS_ADMIN_USER_IDS` (Microsoft Entra object ids, in every
 * tenant), the person who first connects a tenant's key (while it has no admin, anyone may), and whoever an admin
 * names with `admins add @person`. The names are kept per tenant in `connection_admins`.
 */
import type { SqlExecutor } from '../base/store/sql.ts';

/** A person as a Teams activity names them: the bot-specific id (`29:…`) and, usually, the Entra object id. */
export interface TeamsPerson {
  id: string;
  aadObjectId?: string | undefined;
  name?: string | undefined;
}

export const ADMINS_ONLY =
  "Only your organization's Linen admins (or the admins the bot was set up with) can connect Linen or change its access; an admin can add you with “admins add @you”.";

export interface TenantAdmin {
  userId: string;
  userName: string | null;
}

export class TenantAdmins {
  constructor(
    private readonly db: SqlExecutor,
    /** `TEAMS_ADMIN_USER_IDS`. */
    private readonly operatorAdmins: readonly string[],
  ) {}

  async list(tenantId: string): Promise<TenantAdmin[]> {
    const rows = await this.db.query<{ user_id: string; user_name: string | null }>(
      'SELECT user_id, user_name FROM connection_admins WHERE team_id = $1 ORDER BY added_at, coalesce(user_name, user_id)',
      [tenantId],
    );
    return rows.map((r) => ({ userId: r.user_id, userName: r.user_name }));
  }

  /** Whether the person is an admin of the tenant; `orFirst`: also when the tenant has none yet. */
  async isAdmin(tenantId: string, person: TeamsPerson, options: { orFirst?: boolean } = {}): Promise<boolean> {
    if ([person.id, person.aadObjectId].some((id) => id && this.operatorAdmins.includes(id))) return true;
    const admins = await this.list(tenantId);
    if (admins.some((a) => a.userId === person.id)) return true;
    return Boolean(options.orFirst) && admins.length === 0;
  }

  async add(tenantId: string, person: TeamsPerson, addedBy: string | null, now: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO connection_admins (team_id, user_id, user_name, added_by, added_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (team_id, user_id) DO UPDATE SET user_name = COALESCE(EXCLUDED.user_name, connection_admins.user_name)`,
      [tenantId, person.id, person.name ?? null, addedBy, now],
    );
  }

  async remove(tenantId: string, userId: string): Promise<boolean> {
    const rows = await this.db.query('DELETE FROM connection_admins WHERE team_id = $1 AND user_id = $2 RETURNING 1', [
      tenantId,
      userId,
    ]);
    return rows.length > 0;
  }
}
