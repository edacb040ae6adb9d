/**
 * The `/linen` slash command: acknowledge at once (Slack allows 3 seconds), then answer through the
 * command's response_url with an ephemeral message, with the Linen key of the command's workspace and channel:
 * "Looking that up…" first when the answer takes more than
 * about 2 s (the answer then replaces it), and by the deadline whatever the Linen API does.
 */
import type { App, RespondArguments } from '@slack/bolt';
import {
  answerInTime,
  INTERACTIVE_DEADLINES,
  interimContent,
  notAnsweringContent,
} from '../../../chat/answers/answer-in-time.ts';
import { answerCommand } from '../../../chat/connections/answer-in-place.ts';
import { commandLabelOf } from '../../../chat/operations/command-label.ts';
import { toSlackMessage } from '../../blocks/render.ts';
import { slackRequest } from '../../place.ts';
import type { BotDeps } from '../index.ts';
import { yieldToPendingAcks } from '../pending-acks.ts';
import { hasResponseUrl } from '../response-url.ts';

export const COMMAND_NAME = '/linen';

export function register(app: App, deps: BotDeps): void {
  const deadlines = deps.deadlines ?? INTERACTIVE_DEADLINES;
  app.command(COMMAND_NAME, async ({ command, ack, respond, client }) => {
    await ack();
    if (!hasResponseUrl(command)) {
      deps.logger.info('ignored /linen without a response_url: there is nowhere to answer');
      return;
    }
    await yieldToPendingAcks();
    const started = Date.now();
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
    let interimSent = false;
    const outcome = await answerInTime(answerCommand(request, deps), {
      deadlines,
      onInterim: async () => {
        interimSent = true;
        await send({ response_type: 'ephemeral', ...toSlackMessage(interimContent()) }, 'interim');
      },
      onLate: () =>
        deps.logger.info(`/linen: no answer within ${deadlines.deadlineMs} ms; said the API is not answering`),
    });
    const seconds = () => (Date.now() - started) / 1000;
    if (outcome.inTime && outcome.value === null) {
      // A modal was opened: nothing to say, and an interim message shown meanwhile goes.
      if (interimSent) await send({ delete_original: true }, 'interim');
      deps.metrics?.command(commandLabelOf(text), 'answered', seconds());
      return;
    }
    const answered = outcome.inTime ? outcome.value! : { content: notAnsweringContent(), command: 'timeout' };
    const message = toSlackMessage(answered.content);
    await send(
      { response_type: 'ephemeral', replace_original: interimSent, text: message.text, blocks: message.blocks },
      answered.command,
    );
    deps.metrics?.command(commandLabelOf(text), outcome.inTime ? outcome.value!.outcome : 'error', seconds());
    deps.logger.debug(`/linen ${answered.command} answered in ${Date.now() - started} ms`);
  });
}

export default { register };
