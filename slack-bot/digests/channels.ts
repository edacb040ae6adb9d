/**
 * What `/linen digest` needs of Slack: a bare `#name` found among the channels the bot can see, and whether the
 * bot can post in a channel (a member, not archived) before a digest is subscribed or resumed there.
 */

import { channel, code, type Rich, r } from '../../chat/content/rich.ts';
import type { DigestChannels } from '../../chat/digests/digest-answers.ts';
import type { SlackClient } from './delivery.ts';

const INVITE = code('/invite @Linen');

/** A bare `#name`: the channel of that name the bot can see (public, or private ones it is in), paging through. */
async function channelNamed(slack: SlackClient, name: string): Promise<string | null> {
  let cursor: string | undefined;
  for (let page = 0; page < 50; page++) {
    const res = await slack.conversations.list({
      types: 'public_channel,private_channel',
      exclude_archived: true,
      limit: 1000,
      ...(cursor ? { cursor } : {}),
    });
    const hit = (res.channels ?? []).find((c) => c.name === name || c.name_normalized === name);
    if (hit?.id) return hit.id;
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  return null;
}

const slackErrorOf = (e: unknown) => (e as { data?: { error?: string } }).data?.error;

async function canPost(slack: SlackClient, channelId: string): Promise<Rich | null> {
  const here = channel(channelId);
  try {
    const info = await slack.conversations.info({ channel: channelId });
    const c = info.channel as { is_member?: boolean; is_im?: boolean; is_archived?: boolean } | undefined;
    if (c?.is_archived) return r`${here} is archived; pick another channel.`;
    if (c?.is_member || c?.is_im) return null;
    return r`I'm not a member of ${here}; run ${INVITE} in that channel, then try again.`;
  } catch (e) {
    const error = slackErrorOf(e);
    if (error === 'channel_not_found') return r`I can't see ${here}; if it is private, run ${INVITE} there first.`;
    return r`I couldn't check ${here} (${error ?? String(e)}); try again.`;
  }
}

export function slackDigestChannels(slack: SlackClient): DigestChannels {
  return {
    async resolve(arg) {
      if ('id' in arg) return { id: arg.id };
      try {
        const id = await channelNamed(slack, arg.name);
        if (id) return { id };
      } catch (e) {
        return {
          problem: [
            `I couldn't look up #${arg.name} (${slackErrorOf(e) ?? 'Slack did not answer'}); pick the channel from Slack's autocomplete or try again.`,
          ],
        };
      }
      return {
        problem: r`I can't find a channel named #${arg.name}: check the spelling, and if it is private, run ${INVITE} in it first.`,
      };
    },
    canPost: (channelId) => canPost(slack, channelId),
    // The person's direct conversation with the bot (an alert with `dm`): its channel id, so that a post there can be
    // looked for in its history like any channel's.
    async direct(userId) {
      try {
        const res = await slack.conversations.open({ users: userId });
        const id = (res.channel as { id?: string } | undefined)?.id;
        if (id) return { id };
      } catch (e) {
        return {
          problem: [
            `I couldn't open a direct conversation with you (${slackErrorOf(e) ?? 'Slack did not answer'}); try again.`,
          ],
        };
      }
      return { problem: ['I could not open a direct conversation with you; try again.'] };
    },
  };
}
