/**
 * Forgetting a workspace or tenant: when Slack says the app was uninstalled or its tokens revoked, or Teams that it
 * was removed from a tenant's last conversation, every row keyed by its id goes, in one transaction, so no secret
 * outlives it. A table that keeps data per workspace or tenant adds itself to WORKSPACE_TABLES (rows that hang off
 * those, such as digest runs, go by ON DELETE CASCADE).
 */
import type { SqlExecutor } from '../../base/store/sql.ts';

/** Every table with rows that belong to one workspace, and the column holding its team id. */
export const WORKSPACE_TABLES: readonly { table: string; teamColumn: string }[] = [
  { table: 'slack_installations', teamColumn: 'team_id' },
  { table: 'digest_subscriptions', teamColumn: 'team_id' },
  // The workspace's Linen keys (workspace_keys) go with it, by ON DELETE CASCADE.
  { table: 'workspace_connections', teamColumn: 'team_id' },
  { table: 'connection_admins', teamColumn: 'team_id' },
  { table: 'teams_conversations', teamColumn: 'tenant_id' },
  { table: 'home_follows', teamColumn: 'org_id' },
  // Its alerts' checks are the key's (dropped once no active alert uses it); their posts go by ON DELETE CASCADE.
  { table: 'alerts', teamColumn: 'team_id' },
];

/** Deletes everything kept for the workspace; returns the rows deleted per table. */
export async function forgetWorkspace(db: SqlExecutor, orgId: string): Promise<Record<string, number>> {
  return db.transaction((tx) => deleteWorkspaceRows(tx, orgId));
}

/** The same, inside a transaction of the caller's. */
export async function deleteWorkspaceRows(tx: SqlExecutor, orgId: string): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const { table, teamColumn } of WORKSPACE_TABLES) {
    const rows = await tx.query(`DELETE FROM ${table} WHERE ${teamColumn} = $1 RETURNING 1`, [orgId]);
    deleted[table] = rows.length;
  }
  return deleted;
}

/**
 * Deletes an Enterprise Grid organization's org-wide installation and everything kept for the workspaces it
 * served: those of the organization that connected a key and have no installation of their own.
 */
export async function forgetOrganization(
  db: SqlExecutor,
  enterpriseId: string,
): Promise<{ installations: number; workspaces: string[] }> {
  return db.transaction(async (tx) => {
    const served = await tx.query<{ team_id: string }>(
      `SELECT c.team_id FROM workspace_connections c
       WHERE c.enterprise_id = $1
         AND NOT EXISTS (SELECT 1 FROM slack_installations i WHERE i.team_id = c.team_id AND NOT i.is_enterprise_install)
       ORDER BY c.team_id`,
      [enterpriseId],
    );
    for (const { team_id } of served) await deleteWorkspaceRows(tx, team_id);
    const rows = await tx.query(
      'DELETE FROM slack_installations WHERE enterprise_id = $1 AND is_enterprise_install RETURNING 1',
      [enterpriseId],
    );
    return { installations: rows.length, workspaces: served.map((r) => r.team_id) };
  });
}
