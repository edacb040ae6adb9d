/** The `linen_connect` modal's submission: answered within Slack's 3 seconds with an update or field errors. */
import type { App } from '@slack/bolt';
import { isWorkspaceAdmin } from '../../admins.ts';
import { CONNECT_CALLBACK } from '../../connect-form.ts';
import { submitConnect } from '../../workspaces/connect-submission.ts';
import type { BotDeps } from '../index.ts';

export function register(app: App, deps: BotDeps): void {
  app.view(CONNECT_CALLBACK, async ({ ack, body, view, client }) => {
    const connect = deps.connect;
    const teamId = body.team?.id ?? body.user.team_id;
    if (!connect || !teamId) {
      await ack({ response_action: 'errors', errors: { api_key: 'Keys are not connected from Slack on this bot.' } });
      return;
    }
    const answer = await submitConnect(view, {
      orgId: teamId,
      enterpriseId: body.enterprise?.id ?? body.team?.enterprise_id ?? undefined,
      userId: body.user.id,
      connections: connect.connections,
      allowedBaseUrls: connect.allowedBaseUrls,
      isAdmin: () => isWorkspaceAdmin(client, body.user.id, connect.adminUserIds),
      onSecret: (s) => deps.logger.addSecret(s),
      logger: deps.logger,
      now: deps.now,
    }).catch((err: unknown) => {
      deps.logger.error(`connect for ${teamId} failed: ${(err as Error).name}: ${(err as Error).message}`);
      return {
        response_action: 'errors' as const,
        errors: { api_key: 'The key could not be saved just now; try again in a minute.' },
      };
    });
    await ack(answer as never);
  });
}

export default { register };
