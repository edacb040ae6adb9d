/**
 * What the handlers share: the chat core's dependencies with Teams' own parts (its channels for digests, its
 * admins and connect form), the request of an activity, work that goes on after the activity is acknowledged, and
 * posting an answer where it was asked (a channel's thread, a chat) without letting a failed post escape as an error.
 */

import { MessageActivityInput } from '@microsoft/teams.api';
import { yieldToPendingAcks } from '../../base/pending-acks.ts';
import type { CommandRequest, PlaceDeps } from '../../chat/connections/answer-in-place.ts';
import type { Content } from '../../chat/content/document.ts';
import type { TeamsPerson } from '../admins.ts';
import { connectForm } from '../connect-form.ts';
import { cardMessage } from '../connector.ts';
import { teamsDigestChannels } from '../digests/channels.ts';
import { type TeamsPlace, teamsRequest } from '../place.ts';
import type { TeamsDeps } from './index.ts';

/**
 * How long an invoke waits for its answer: Teams gives up on one (a message extension's query, a card's action) after
 * about five seconds, and then shows its own error instead of the answer.
 */
export const INVOKE_DEADLINE_MS = 4_500;

export function placeDeps(deps: TeamsDeps): PlaceDeps {
  return {
    ...deps.place,
    connect: deps.connect,
    // No digest admins: on Teams anyone in a conversation may manage its digests.
    digests: deps.digests && { ...deps.digests, platform: 'teams', channels: teamsDigestChannels },
  };
}

/** The request of a message in `place`; `mentioned`: the people it @mentions besides the bot. */
export function requestFor(
  place: TeamsPlace,
  deps: TeamsDeps,
  mentioned: readonly TeamsPerson[] = [],
): Omit<CommandRequest, 'text'> {
  return teamsRequest(
    place,
    {
      connect: deps.connect,
      admins: deps.admins,
      async showConnectForm(p, timeZone) {
        const form = connectForm({ allowedBaseUrls: deps.connect?.allowedBaseUrls ?? [], timeZone });
        await deps
          .connectorFor(p.serviceUrl)
          .send(
            p.conversationId,
            new MessageActivityInput(undefined, { summary: 'Connect Linen' }).addCard('adaptive', form),
          );
      },
      personalChat: (p, userId) => deps.connectorFor(p.serviceUrl).personalChat(userId, p.tenantId),
    },
    mentioned,
  );
}

/**
 * Runs `work` once the handler has returned and the requests already received are acknowledged: the SDK
 * acknowledges an activity (or answers an invoke) only when its handler returns, Teams gives up on the bot after a
 * few seconds, and an answer's work (the Linen API, its card, its post) would otherwise take turns on the event loop
 * with the acknowledgements of a burst's other activities. Counted until it ends, for a shutdown to wait for it.
 */
export function afterAcknowledging(deps: TeamsDeps, what: string, work: () => Promise<void>): void {
  void deps.work.track(
    yieldToPendingAcks()
      .then(work)
      .catch((err: unknown) =>
        deps.logger.error(`a Teams ${what} failed: ${(err as Error).name}: ${(err as Error).message}`),
      ),
  );
}

/**
 * Posts an answer in the conversation (a channel's thread included); the new message's id, or undefined. Through
 * the Connector, not `ctx.send`: the SDK neither keeps a conversation's send limits nor waits out a 429, and an
 * answer must not be lost to a busy channel (connector.ts).
 */
export async function post(
  deps: TeamsDeps,
  place: TeamsPlace,
  content: Content,
  what: string,
): Promise<string | undefined> {
  try {
    return await deps.connectorFor(place.serviceUrl).send(place.conversationId, cardMessage(content));
  } catch (err) {
    deps.logger.warn(`teams ${what}: could not post the answer: ${(err as Error).message}`);
    return undefined;
  }
}

/** Replaces a message of the bot's with another answer; a failure posts it as a new message instead. */
export async function replace(
  deps: TeamsDeps,
  place: TeamsPlace,
  activityId: string,
  content: Content,
  what: string,
): Promise<void> {
  try {
    await deps.connectorFor(place.serviceUrl).update(place.conversationId, activityId, cardMessage(content));
  } catch (err) {
    deps.logger.info(`teams ${what}: could not update its message (${(err as Error).message}); posting it anew`);
    await post(deps, place, content, what);
  }
}
