/**
 * The `/linen` slash command: acknowledge at once (Slack allows 3 seconds), then answer through the
 * command's response_url with an ephemeral message, with the Linen key of the command's workspace and channel.
 */
import type { App } from '@slack/bolt';
import { answerCommand } from '../../workspaces/answer-in-workspace.ts';
import type { BotDeps } from '../index.ts';
import { yieldToPendingAcks } from '../pending-acks.ts';

export const COMMAND_NAME = '/linen';

export function register(app: App, deps: BotDeps): void {
  app.command(COMMAND_NAME, async ({ command, ack, respond, client }) => {
    await ack();
    await yieldToPendingAcks();
    const started = Date.now();
    const message = await answerCommand(
      {
        text: command.text,
        userId: command.user_id,
        channelId: command.channel_id,
        teamId: command.team_id ?? null,
        triggerId: command.trigger_id,
        slack: client,
      },
      deps,
    );
    if (!message) return; // a modal was opened
    try {
      await respond({ response_type: 'ephemeral', text: message.text, blocks: message.blocks });
      deps.logger.debug(`/linen ${message.command} answered in ${Date.now() - started} ms`);
    } catch (err) {
      deps.logger.warn(
        `/linen ${message.command}: the answer could not be delivered through response_url: ${(err as Error).message}`,
      );
    }
  });
}

export default { register };
