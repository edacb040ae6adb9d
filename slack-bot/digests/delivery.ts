/**
 * Digests delivered to Slack: `chat.postMessage` with the run id in the message's metadata (so a retry after an
 * unsure failure, or a replica taking over a run, first finds a message already posted in the channel's history),
 * Slack's error codes classified, and the creator told in a direct message when a subscription stops.
 */
import type { WebClient } from '@slack/web-api';
import type { Content } from '../../chat/content/document.ts';
import { renderedOnce } from '../../chat/content/rendered-once.ts';
import {
  type DeliveryFailure,
  type DeliveryFor,
  type DigestDelivery,
  linenFailureReason,
  type PostedRun,
} from '../../chat/digests/delivery/delivery.ts';
import type { RunOwner } from '../../chat/digests/delivery/run-executor.ts';
import { toSlackMessage } from '../blocks/render.ts';
import { messageBody, postMessageJson } from './post-message.ts';

/** A workspace's Web API client: scheduled posts go to its `slackApiUrl` with its token (`post-message.ts`). */
export type SlackClient = Pick<WebClient, 'chat' | 'conversations' | 'slackApiUrl' | 'token'>;

/**
 * Multi-workspace mode: the client of a workspace's own bot token, by team id; null when the workspace has no
 * installation (its subscriptions are then stopped, never posted with another workspace's token).
 */
export type SlackForTeam = (teamId: string | null) => Promise<SlackClient | null>;

/** One client for every subscription (single-workspace mode), or one per workspace. */
export type DigestSlack = SlackClient | SlackForTeam;

/** Errors that will not go away by retrying: the subscription is marked failing and its creator told. */
export const PERMANENT_ERRORS = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'not_authed',
  'missing_scope',
  'restricted_action',
  'team_access_not_granted',
  'ekm_access_denied',
]);

export const METADATA_EVENT = 'linen_digest';

/** Plain one-line reasons for the creator's DM. */
export function explainFailure(code: string, channelId: string): string {
  switch (code) {
    case 'not_in_channel':
      return `the bot is not a member of <#${channelId}>; invite it with \`/invite @Linen\` there`;
    case 'channel_not_found':
      return `channel <#${channelId}> no longer exists or the bot cannot see it`;
    case 'is_archived':
      return `channel <#${channelId}> is archived`;
    case 'invalid_auth':
    case 'token_revoked':
    case 'account_inactive':
    case 'not_authed':
      return 'the bot token was revoked or is no longer valid; reinstall the app';
    default:
      return linenFailureReason(code) ?? `Slack answered \`${code}\``;
  }
}

export function classifySlackError(err: unknown): DeliveryFailure {
  const e = err as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number };
  if (e?.code === 'slack_webapi_rate_limited_error' || e?.data?.error === 'ratelimited') {
    return { kind: 'ratelimited', code: 'ratelimited', retryAfterMs: Math.max(1, e.retryAfter ?? 1) * 1000 };
  }
  const code = e?.data?.error ?? e?.code ?? 'unknown_error';
  if (PERMANENT_ERRORS.has(code)) return { kind: 'permanent', code };
  // A 5xx or a dropped connection may hide a message that went out; the channel's history tells.
  return { kind: 'transient', code, unsure: true };
}

/** The ts of a message in `channel` carrying this run id in its metadata, looking back to `oldest`. */
export async function findPostedRun(
  slack: SlackClient,
  channel: string,
  runId: string,
  oldest: Date,
  pages = 5,
): Promise<string | null> {
  let cursor: string | undefined;
  for (let i = 0; i < pages; i++) {
    const res = await slack.conversations.history({
      channel,
      include_all_metadata: true,
      limit: 200,
      oldest: (oldest.getTime() / 1000).toFixed(6),
      ...(cursor ? { cursor } : {}),
    });
    for (const m of res.messages ?? []) {
      const meta = m.metadata as { event_type?: string; event_payload?: { run_id?: unknown } } | undefined;
      if (meta?.event_type === METADATA_EVENT && meta.event_payload?.run_id === runId && m.ts) return m.ts;
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor || !res.has_more) break;
  }
  return null;
}

/** Each digest's Slack message, its blocks serialized once for every channel it goes to. */
const messageOf = renderedOnce((content) => {
  const { text, blocks } = toSlackMessage(content);
  return { text, blocksJson: JSON.stringify(blocks) };
});

/** Posting through one workspace's client. */
export function slackDelivery(slack: SlackClient): DigestDelivery {
  return {
    platform: 'Slack',
    findsPosted: true,
    async post(channel: string, content: Content, run: PostedRun) {
      const { text, blocksJson } = messageOf(content);
      return postMessageJson(
        slack,
        messageBody(channel, text, blocksJson, {
          event_type: METADATA_EVENT,
          event_payload: { run_id: run.runId, subscription_id: run.subscriptionId },
        }),
      );
    },
    findPosted: (channel, runId, since) => findPostedRun(slack, channel, runId, since),
    explain: explainFailure,
    async tellCreator(owner: RunOwner, code: string, reason: string) {
      const noun = owner.noun ?? 'digest';
      const all = [owner, ...(owner.together ?? [])];
      const which = all.map((o) => `${o.id} for <#${o.channelId}>`).join(', ');
      const resume =
        all.length === 1
          ? `Fix it, then run \`/linen ${noun} resume ${owner.id}\`.`
          : `Fix it, then run \`/linen ${noun} resume <id>\` for each.`;
      await slack.chat.postMessage({
        channel: owner.createdBy,
        text: `Your Linen ${noun}${all.length === 1 ? '' : 's'} ${which} ${all.length === 1 ? 'has' : 'have'} stopped: ${reason}.${
          code === 'linen_key_missing' ? '' : ` ${resume}`
        }`,
      });
    },
    classify: (err) => classifySlackError(err),
  };
}

/** Each subscription's delivery: one client, or its workspace's own (resolved by team id). */
export function slackDeliveries(slack: DigestSlack): DeliveryFor {
  if (typeof slack !== 'function') {
    const one = slackDelivery(slack);
    return async () => one;
  }
  return async (sub) => {
    const client = await slack(sub.orgId);
    return client ? slackDelivery(client) : null;
  };
}
