/**
 * A command typed to Linen: in the 1:1 chat, or in a channel or group chat after @Linen (the SDK strips the mention),
 * with or without a leading `linen` or `/linen`. The activity is acknowledged at once (the SDK answers Teams when
 * this handler returns), and the answer follows as a card in the conversation: in a channel, in the message's
 * thread. "Looking that up…" shows first when the answer takes more than about 2 s (the answer then replaces it);
 * by the deadline the person has an answer whatever the Linen API does. `admins` is Teams' own (who may connect).
 */
import type { IMessageActivity } from '@microsoft/teams.api';
import type { App, IActivityContext } from '@microsoft/teams.apps';
import { deliverAnswer } from '../../chat/answers/deliver-answer.ts';
import { answerCommand } from '../../chat/connections/answer-in-place.ts';
import { type Content, note, text } from '../../chat/content/document.ts';
import { b, joinRich, type Rich, r } from '../../chat/content/rich.ts';
import { errorView } from '../../chat/views/common.ts';
import { ADMINS_ONLY } from '../admins.ts';
import { commandTextOf, mentionedPeople, placeOf, type TeamsPlace } from '../place.ts';
import { afterAcknowledging, placeDeps, post, replace, requestFor } from './answering.ts';
import type { TeamsDeps } from './index.ts';

const ADMIN_WORDS = /^admins\b/i;

const said = (...lines: Rich[]): Content => ({ summary: joinRich(lines, ' '), parts: lines.map((l) => text(l)) });

/** `admins` · `admins add @person` · `admins remove @person`: the people who may connect keys and change access. */
async function adminsCommand(input: string, activity: IMessageActivity, place: TeamsPlace, deps: TeamsDeps) {
  if (!deps.connect)
    return errorView(
      'This bot answers with the one Linen key it was started with (LINEN_API_KEY); its admins are set by whoever runs it.',
    );
  const [, verb] = input.trim().split(/\s+/);
  const list = async () => {
    const admins = await deps.admins.list(place.tenantId);
    return admins.length
      ? r`${b('Linen admins of your organization')}: ${admins.map((a) => a.userName ?? a.userId).join(', ')}.`
      : r`Your organization has no Linen admin yet: whoever connects its key first becomes one.`;
  };
  if (!verb) return said(await list());
  if (!(await deps.admins.isAdmin(place.tenantId, place.person))) return errorView(ADMINS_ONLY);
  const people = mentionedPeople(activity);
  if ((verb !== 'add' && verb !== 'remove') || people.length === 0)
    return said(['Say “admins add @person” or “admins remove @person”, mentioning them.']);
  const now = new Date((deps.place.now ?? Date.now)());
  for (const person of people) {
    if (verb === 'add') await deps.admins.add(place.tenantId, person, place.person.id, now);
    else await deps.admins.remove(place.tenantId, person.id);
  }
  const listed = await list();
  return {
    summary: listed,
    parts: [text(listed), note(['Operators name admins of every organization with TEAMS_ADMIN_USER_IDS.'])],
  };
}

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
  if (ADMIN_WORDS.test(input)) {
    await post(deps, place, await adminsCommand(input, activity, place, deps), 'admins');
    return;
  }
  let interimId: string | undefined;
  await deliverAnswer(
    answerCommand({ text: input, ...requestFor(place, deps) }, placeDeps(deps)),
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
    afterAcknowledging(deps, 'message', answerMessage(ctx, deps));
  });
}

export default { register };
