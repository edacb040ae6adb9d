/**
 * A command typed to Linen: in the 1:1 chat, or in a channel or group chat after @Linen (the SDK strips the mention),
 * with or without a leading `linen` or `/linen`. The activity is acknowledged at once (the SDK answers Teams when
 * this handler returns, and it returns before any of the answer's work, which waits for the acknowledgements of the
 * activities received with it), and the answer follows as a card in the conversation: in a channel, in the message's
 * thread. "Looking that up…" shows first when the answer takes more than about 2 s (the answer then replaces it);
 * by the deadline the person has an answer whatever the Linen API does.
 */
import type { IMessageActivity } from '@microsoft/teams.api';
import type { App, IActivityContext } from '@microsoft/teams.apps';
import { deliverAnswer } from '../../chat/answers/deliver-answer.ts';
import { answerCommand } from '../../chat/connections/answer-in-place.ts';
import { note } from '../../chat/content/document.ts';
import { commandTextOf, mentionedPeople, placeOf } from '../place.ts';
import { afterAcknowledging, placeDeps, post, replace, requestFor } from './answering.ts';
import type { TeamsDeps } from './index.ts';

async function answerMessage(ctx: IActivityContext<IMessageActivity>, deps: TeamsDeps): Promise<void> {
  const { activity } = ctx;
  const place = placeOf(ctx);
  if (!place.tenantId) {
    deps.logger.info('ignored a Teams message with no tenant: there is no organization to answer for');
    return;
  }
  // In a channel or a group chat a command follows @Linen; anything else is the people's conversation.
  if (place.type !== 'personal' && !activity.isRecipientMentioned()) {
    deps.logger.debug('ignored a Teams message that does not mention Linen');
    return;
  }
  await deps.conversations
    .record(place, new Date())
    .catch((err: Error) => deps.logger.warn(`could not record a Teams conversation: ${err.message}`));
  const input = commandTextOf(activity.text);
  let interimId: string | undefined;
  await deliverAnswer(
    answerCommand({ text: input, ...requestFor(place, deps, mentionedPeople(activity)) }, placeDeps(deps)),
    {
      interim: async (content) => {
        interimId = await post(deps, place, content, 'interim');
      },
      final: async (content, { replacesInterim, command }) => {
        if (replacesInterim && interimId) await replace(deps, place, interimId, content, command);
        else await post(deps, place, content, command);
      },
      formShown: async ({ interimShown }) => {
        if (interimShown && interimId)
          await replace(
            deps,
            place,
            interimId,
            { summary: ['The connect form is below.'], parts: [note(['The connect form is below.'])] },
            'connect',
          );
      },
    },
    { text: input, platform: 'teams', logger: deps.logger, metrics: deps.metrics, deadlines: deps.deadlines },
  );
}

export function register(app: App, deps: TeamsDeps): void {
  app.on('message', async (ctx) => {
    afterAcknowledging(deps, 'message', () => answerMessage(ctx, deps));
  });
}

export default { register };
