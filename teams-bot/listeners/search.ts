/**
 * The message extension (search command `linen`, parameter `query`): the Teams form of "Share in channel". What the
 * person types (`ticket TKT-26-00417`, `balance Mercy`) is answered as a result card only they see, which they may
 * then insert into the conversation. Teams waits about 5 seconds for the result, so the answer has 4.5 s; after that
 * the card says the Linen API is slow. Accounting answers follow the access rules of the conversation.
 */
import { cardAttachment, type MessagingExtensionResponse } from '@microsoft/teams.api';
import type { App } from '@microsoft/teams.apps';
import { answerInTime } from '../../chat/answers/answer-in-time.ts';
import { answerButton } from '../../chat/connections/answer-in-place.ts';
import type { Content } from '../../chat/content/document.ts';
import { commandLabelOf } from '../../chat/operations/command-label.ts';
import { errorView } from '../../chat/views/common.ts';
import { plainSummary, toAdaptiveCard } from '../cards/render.ts';
import { commandTextOf, placeOf } from '../place.ts';
import { INVOKE_DEADLINE_MS, placeDeps, requestFor } from './answering.ts';
import type { TeamsDeps } from './index.ts';

/** The answer as the result Teams shows in the compose box: its card, and a title for the list of results. */
const result = (content: Content): MessagingExtensionResponse => ({
  composeExtension: {
    type: 'result',
    attachmentLayout: 'list',
    attachments: [
      {
        ...cardAttachment('adaptive', toAdaptiveCard(content)),
        preview: cardAttachment('thumbnail', { title: plainSummary(content).slice(0, 120) }),
      },
    ],
  },
});

export function register(app: App, deps: TeamsDeps): void {
  app.on('message.ext.query', async (ctx) => {
    const started = Date.now();
    const place = placeOf(ctx);
    const raw = ctx.activity.value?.parameters?.find((p) => p.name === 'query')?.value;
    const text = commandTextOf(typeof raw === 'string' ? raw : '');
    // No share action in the card: inserting it is the sharing.
    const work = answerButton(text || 'help', requestFor(place, deps), placeDeps(deps), { share: false });
    const outcome = await answerInTime(work, {
      deadlines: { interimMs: INVOKE_DEADLINE_MS, deadlineMs: INVOKE_DEADLINE_MS },
    });
    const content = outcome.inTime
      ? outcome.value.content
      : errorView('The Linen API is taking longer than Teams waits for a search; try again in a moment.');
    deps.metrics.command(
      commandLabelOf(text),
      outcome.inTime ? outcome.value.outcome : 'error',
      (Date.now() - started) / 1000,
      'teams',
    );
    return result(content);
  });
}

export default { register };
