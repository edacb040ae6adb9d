/**
 * Digests delivered to Teams: each subscription's card posted to its conversation through the service URL stored
 * with it (the SDK's `app.send()` knows one app-wide service URL only), and the creator told in a 1:1 chat when it
 * stops. The SDK does not retry: its errors are read here. Teams answers 429 with `Retry-After` when a conversation
 * gets more than 7 messages a second or 60 in 30 seconds (the worker's pacing keeps well under); a 412, 502 or 504
 * is retried as Microsoft advises, the message not posted. Other failures may hide a message that went out, and
 * Teams cannot be searched for it: such a run is not posted again (never twice).
 */

import { MessageActivityInput } from '@microsoft/teams.api';
import type { Digest } from '../../chat/digests/content.ts';
import {
  type DeliveryFailure,
  type DeliveryFor,
  type DigestDelivery,
  linenFailureReason,
} from '../../chat/digests/delivery/delivery.ts';
import type { Subscription } from '../../chat/digests/storage/types.ts';
import { type Connector, cardMessage } from '../connector.ts';

/** Answers meaning the subscription can never be posted again: the bot removed, the conversation gone. */
export const PERMANENT_ERRORS = new Set(['bot_removed', 'conversation_not_found', 'forbidden', 'bad_request']);

interface HttpFailure {
  response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
  code?: string;
}

const errorCodeOf = (data: unknown): string | undefined => {
  const code = (data as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
};

function retryAfterMs(headers: Record<string, unknown> | undefined): number {
  const raw = headers?.['retry-after'];
  const seconds = Number(Array.isArray(raw) ? raw[0] : raw);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000;
}

export function classifyTeamsError(err: unknown): DeliveryFailure {
  const e = err as HttpFailure;
  const status = e?.response?.status;
  if (status === undefined)
    // No answer: the request may or may not have reached Teams.
    return { kind: 'transient', code: e?.code ?? 'no_answer', unsure: true };
  const code = errorCodeOf(e.response?.data);
  if (status === 429)
    return { kind: 'ratelimited', code: 'ratelimited', retryAfterMs: retryAfterMs(e.response?.headers) };
  if (status === 403)
    return { kind: 'permanent', code: code === 'BotNotInConversationRoster' ? 'bot_removed' : 'forbidden' };
  if (status === 404) return { kind: 'permanent', code: 'conversation_not_found' };
  if (status === 400) return { kind: 'permanent', code: 'bad_request' };
  if (status === 412 || status === 502 || status === 504)
    return { kind: 'transient', code: `http_${status}`, unsure: false };
  return { kind: 'transient', code: `http_${status}`, unsure: status >= 500 };
}

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

function teamsDelivery(sub: Subscription, deps: TeamsDeliveryDeps): DigestDelivery {
  const connector = deps.connectorFor(sub.serviceUrl!);
  return {
    platform: 'Teams',
    findsPosted: false,
    post: (channel: string, digest: Digest) => connector.send(channel, cardMessage(digest)),
    findPosted: async () => null,
    explain: (code) => explainTeamsFailure(code),
    async tellCreator(s: Subscription, code: string, reason: string) {
      const chat = await connector.personalChat(s.createdBy, s.teamId!);
      const resume = code === 'linen_key_missing' ? '' : ` Fix it, then type “digest resume ${s.id}”.`;
      await connector.send(
        chat,
        new MessageActivityInput(`Your Linen digest ${s.id} has stopped: ${reason}.${resume}`),
      );
    },
    classify: classifyTeamsError,
  };
}

/** Each Teams subscription's delivery, through the service URL it was subscribed from. */
export function teamsDeliveries(deps: TeamsDeliveryDeps): DeliveryFor {
  return async (sub) => (sub.serviceUrl && sub.teamId ? teamsDelivery(sub, deps) : null);
}
