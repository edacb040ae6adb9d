/**
 * A Slack request as the chat core takes it: where it was typed (workspace, channel, a direct message or not), who
 * typed it, and what the answers need of Slack there (the channels digests can post in, who may connect keys and
 * the connect form).
 */
import type { CommandRequest, ConnectDeps } from '../chat/connections/answer-in-place.ts';
import type { ConnectionPlatform } from '../chat/connections/connection-commands.ts';
import { channelOf } from '../chat/digests/subscribe-args.ts';
import { errorView } from '../chat/views/common.ts';
import { ADMINS_ONLY, isWorkspaceAdmin, slackTimeZoneOf, type UsersInfo } from './admins.ts';
import { connectModal } from './connect-form.ts';
import { slackDigestChannels } from './digests/channels.ts';
import type { SlackClient } from './digests/delivery.ts';
import { isSlackDirectMessage } from './direct-message.ts';
import { SLACK_SURFACE } from './surface.ts';

export interface ViewsOpen {
  views: { open(args: { trigger_id: string; view: ReturnType<typeof connectModal> }): Promise<unknown> };
}

/** The Web API client authorized for the request's workspace. */
export type RequestSlack = UsersInfo & ViewsOpen & SlackClient;

export interface SlackPlace {
  teamId: string | null;
  channelId: string;
  userId: string;
  triggerId?: string | undefined;
  slack: RequestSlack;
}

export interface SlackRequestDeps {
  /** Present when organizations connect their own keys (Add to Slack). */
  connect?: ConnectDeps | undefined;
  /** The bot's own client (one workspace): it checks digest channels; with many, each workspace's client does. */
  digestSlack?: SlackClient | undefined;
}

function connectionPlatform(place: SlackPlace, connect: ConnectDeps): ConnectionPlatform {
  return {
    surface: SLACK_SURFACE,
    adminsOnly: ADMINS_ONLY,
    isAdmin: (userId) => isWorkspaceAdmin(place.slack, userId, connect.adminUserIds),
    async openConnectForm(timeZone) {
      if (!place.triggerId)
        return errorView('Slack sent no trigger to open the connect form; type /linen connect again.');
      try {
        await place.slack.views.open({
          trigger_id: place.triggerId,
          view: connectModal({
            channelId: place.channelId,
            allowedBaseUrls: connect.allowedBaseUrls,
            defaultTimeZone: timeZone ?? connect.defaultTimeZone ?? (await slackTimeZoneOf(place.slack, place.userId)),
          }),
        });
        return null;
      } catch {
        return errorView(
          'Slack did not open the connect form (it expires after 3 seconds); type /linen connect again.',
        );
      }
    },
    channelArgument(token) {
      try {
        const arg = channelOf(token);
        return arg && 'id' in arg ? arg.id : null;
      } catch {
        return null;
      }
    },
  };
}

/** The request for the chat core, without its text. */
export function slackRequest(place: SlackPlace, deps: SlackRequestDeps): Omit<CommandRequest, 'text'> {
  // With many workspaces each one's own token checks its channels; with one, the bot's.
  const digestClient = deps.connect ? place.slack : (deps.digestSlack ?? place.slack);
  return {
    platform: 'slack',
    surface: SLACK_SURFACE,
    orgId: place.teamId,
    channelId: place.channelId,
    privateChat: isSlackDirectMessage(place.channelId),
    userId: place.userId,
    digestChannels: slackDigestChannels(digestClient),
    connection: deps.connect ? connectionPlatform(place, deps.connect) : undefined,
  };
}
