/**
 * Slack's app_uninstalled and tokens_revoked events: the workspace's installation, its Linen keys and its digest
 * subscriptions are deleted at once (forgetWorkspace). Bolt delivers both without authorizing them (the tokens are
 * already gone). A revoked user token alone (the installer's) is removed from the installation, which stays.
 */
import type { App } from '@slack/bolt';
import type { ServiceLogger } from '../../base/logging/logger.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { forgetOrganization, forgetWorkspace } from '../../chat/connections/forget.ts';
import type { SqlInstallationStore } from './installation-store.ts';

export interface WorkspaceEventDeps {
  db: SqlExecutor;
  installations: SqlInstallationStore;
  logger: ServiceLogger;
}

interface Where {
  teamId: string | undefined;
  enterpriseId: string | undefined;
  isEnterpriseInstall: boolean;
}

async function forget(deps: WorkspaceEventDeps, where: Where, why: string): Promise<void> {
  if (where.isEnterpriseInstall && where.enterpriseId) {
    const { installations, workspaces } = await forgetOrganization(deps.db, where.enterpriseId);
    const served = workspaces.length ? `, and the workspaces it served: ${workspaces.join(', ')}` : '';
    deps.logger.info(`${why}: organization ${where.enterpriseId} forgotten (${installations} installation${served})`);
  }
  if (where.teamId) {
    const deleted = await forgetWorkspace(deps.db, where.teamId);
    const counts = Object.entries(deleted)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    deps.logger.info(`${why}: workspace ${where.teamId} forgotten (${counts})`);
  }
}

export function registerWorkspaceEvents(app: App, deps: WorkspaceEventDeps): void {
  app.event('app_uninstalled', async ({ context }) => {
    await forget(deps, where(context), 'app_uninstalled');
  });

  app.event('tokens_revoked', async ({ event, context }) => {
    const w = where(context);
    if ((event.tokens.bot ?? []).length > 0) {
      await forget(deps, w, 'tokens_revoked');
      return;
    }
    // Only user tokens: keep the installation without the installer's token.
    const query = { teamId: w.teamId, enterpriseId: w.enterpriseId, isEnterpriseInstall: w.isEnterpriseInstall };
    const installation = await deps.installations.find(query);
    if (installation?.user.token === undefined) return;
    await deps.installations.storeInstallation({
      ...installation,
      user: { id: installation.user.id, token: undefined, scopes: undefined },
    });
    deps.logger.info(`tokens_revoked: the installer's user token of ${w.teamId ?? w.enterpriseId} removed`);
  });
}

function where(context: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean }): Where {
  return {
    teamId: context.teamId,
    enterpriseId: context.enterpriseId,
    isEnterpriseInstall: context.isEnterpriseInstall === true,
  };
}
