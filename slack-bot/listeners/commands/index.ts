/**
 * The `/linen` slash command: acknowledge at once (Slack allows 3 seconds), then answer through the
 * command's response_url with an ephemeral message, with the Linen key of the command's workspace and channel:
 * "Looking that up…" first when the answer takes more than
 * about 2 s (the answer then replaces it), and by the deadline whatever the Linen API does.
 */
import type { App, RespondArguments } from '@slack/bolt';
import { yieldToPendingAcks } from '../../../base/pending-acks.ts';
import { deliverAnswer } from '../../../chat/answers/deliver-answer.ts';
import { answerCommand } from '../../../chat/connections/answer-in-place.ts';
import { toSlackMessage } from '../../blocks/render.ts';
import { slackRequest } from '../../place.ts';
import type { BotDeps } from '../index.ts';
import { hasResponseUrl } from '../response-url.ts';

export const COMMAND_NAME = '/linen';

export function register(app: App, deps: BotDeps): void {
  app.command(COMMAND_NAME, async ({ command, ack, respond, client }) => {
    await ack();
    if (!hasResponseUrl(command)) {
      deps.logger.info('ignored /linen without a response_url: there is nowhere to answer');
      return;
    }
    await yieldToPendingAcks();
    // A signed form may lack fields Slack always sends: answer what can be answered, never throw.
    const text = typeof command.text === 'string' ? command.text : '';
    const request = {
      text,
      ...slackRequest(
        {
          userId: command.user_id ?? '',
          channelId: command.channel_id ?? '',
          teamId: command.team_id ?? null,
          triggerId: command.trigger_id,
          slack: client,
        },
        deps,
      ),
    };
    const send = async (message: RespondArguments, what: string) => {
      try {
        await respond(message);
      } catch (err) {
        deps.logger.warn(`/linen ${what}: could not answer through response_url: ${(err as Error).message}`);
      }
    };
    await deliverAnswer(
      answerCommand(request, deps),
      {
        interim: (content) => send({ response_type: 'ephemeral', ...toSlackMessage(content) }, 'interim'),
        final: (content, { replacesInterim, command }) => {
          const message = toSlackMessage(content);
          return send(
            {
              response_type: 'ephemeral',
              replace_original: replacesInterim,
              text: message.text,
              blocks: message.blocks,
            },
            command,
          );
        },
        // A modal was opened: nothing to say, and an interim message shown meanwhile goes.
        formShown: async ({ interimShown }) => {
          if (interimShown) await send({ delete_original: true }, 'interim');
        },
      },
      { text, platform: 'slack', logger: deps.logger, metrics: deps.metrics, deadlines: deps.deadlines },
    );
  });
}

export default { register };
