/**
 * Digests delivered to Teams: each subscription's card posted to its conversation through the service URL stored
 * with it (the SDK's `app.send()` knows one app-wide service URL only), and the creator told in a 1:1 chat when it
 * stops. The Connector keeps within each conversation's limits and waits out 429s (connector.ts); what still
 * fails is read by connector-errors.ts. A failure that may hide a message that went out cannot be checked, as
 * Teams cannot be searched for it: such a run is not posted again (never twice).
 */

import { MessageActivityInput } from '@microsoft/teams.api';
import type { Content } from '../../chat/content/document.ts';
import { type DeliveryFor, type DigestDelivery, linenFailureReason } from '../../chat/digests/delivery/delivery.ts';
import type { RunOwner } from '../../chat/digests/delivery/run-executor.ts';
import { type Connector, cardMessage } from '../connector.ts';
import { classifyTeamsError } from '../connector-errors.ts';

/** Answers meaning the subscription can never be posted again: the bot removed, the conversation gone. */
export const PERMANENT_ERRORS = new Set(['bot_removed', 'conversation_not_found', 'forbidden', 'bad_request']);

export function explainTeamsFailure(code: string): string {
  switch (code) {
    case 'bot_removed':
      return 'Linen is no longer in that conversation; add it again, then resume';
    case 'conversation_not_found':
      return 'the conversation no longer exists or Linen cannot see it';
    case 'forbidden':
      return 'Teams refused the post (the conversation may be closed to bots)';
    case 'bad_request':
      return 'Teams refused the digest as it was built; tell whoever runs Linen';
    default:
      return linenFailureReason(code) ?? `Teams answered ${code}`;
  }
}

export interface TeamsDeliveryDeps {
  connectorFor: (serviceUrl: string) => Connector;
}

function teamsDelivery(sub: RunOwner, deps: TeamsDeliveryDeps): DigestDelivery {
  const connector = deps.connectorFor(sub.serviceUrl!);
  return {
    platform: 'Teams',
    findsPosted: false,
    post: (channel: string, message: Content) => connector.send(channel, cardMessage(message)),
    findPosted: async () => null,
    explain: (code) => explainTeamsFailure(code),
    async tellCreator(s: RunOwner, code: string, reason: string) {
      const chat = await connector.personalChat(s.createdBy, s.orgId!);
      const noun = s.noun ?? 'digest';
      const ids = [s.id, ...(s.together ?? []).map((o) => o.id)];
      const one = ids.length === 1;
      const resume =
        code === 'linen_key_missing'
          ? ''
          : one
            ? ` Fix it, then type “${noun} resume ${s.id}”.`
            : ` Fix it, then type “${noun} resume <id>” for each.`;
      await connector.send(
        chat,
        new MessageActivityInput(
          `Your Linen ${noun}${one ? '' : 's'} ${ids.join(', ')} ${one ? 'has' : 'have'} stopped: ${reason}.${resume}`,
        ),
      );
    },
    classify: classifyTeamsError,
  };
}

/** Each Teams subscription's delivery, through the service URL it was subscribed from. */
export function teamsDeliveries(deps: TeamsDeliveryDeps): DeliveryFor {
  return async (sub) => (sub.serviceUrl && sub.orgId ? teamsDelivery(sub, deps) : null);
}
