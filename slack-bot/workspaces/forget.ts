/**
 * Forgetting a workspace: when Slack says the app was uninstalled or its tokens revoked, every row keyed by the
 * workspace's team id goes, in one transaction, so no secret outlives its workspace. A table that keeps data per
 * workspace adds itself to WORKSPACE_TABLES (rows that hang off those, such as digest runs, go by ON DELETE CASCADE).
 */
import type { SqlExecutor } from '../digests/storage/sql.ts';

/** Every table with rows that belong to one workspace, and the column holding its team id. */
export const WORKSPACE_TABLES: readonly { table: string; teamColumn: string }[] = [
  { table: 'slack_installations', teamColumn: 'team_id' },
  { table: 'digest_subscriptions', teamColumn: 'team_id' },
  // The workspace's Linen keys (workspace_keys) go with it, by ON DELETE CASCADE.
  { table: 'workspace_connections', teamColumn: 'team_id' },
];

/** Deletes everything kept for the workspace; returns the rows deleted per table. */
export async function forgetWorkspace(db: SqlExecutor, teamId: string): Promise<Record<string, number>> {
  return db.transaction(async (tx) => {
    const deleted: Record<string, number> = {};
    for (const { table, teamColumn } of WORKSPACE_TABLES) {
      const rows = await tx.query(`DELETE FROM ${table} WHERE ${teamColumn} = $1 RETURNING 1`, [teamId]);
      deleted[table] = rows.length;
    }
    return deleted;
  });
}

/** Deletes an Enterprise Grid organization's org-wide installation (its workspaces' own rows stay keyed by team). */
export async function forgetOrganization(db: SqlExecutor, enterpriseId: string): Promise<number> {
  const rows = await db.query(
    'DELETE FROM slack_installations WHERE enterprise_id = $1 AND is_enterprise_install RETURNING 1',
    [enterpriseId],
  );
  return rows.length;
}
