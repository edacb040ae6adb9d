/**
 * A Teams activity as the chat core takes it: where it was typed (tenant, conversation, a 1:1 chat or not), who typed
 * it, the command's words (the bot's @mention is stripped by the SDK; a leading `linen` or `/linen` is too), and what
 * the answers need of Teams there (its channels for digests, its admins and connect form).
 */
import type { ConversationReference, Entity, IActivity, MentionEntity } from '@microsoft/teams.api';
import type { CommandRequest, ConnectDeps } from '../chat/connections/answer-in-place.ts';
import type { ConnectionPlatform } from '../chat/connections/connection-commands.ts';
import type { Content } from '../chat/content/document.ts';
import { errorView } from '../chat/views/common.ts';
import { ADMINS_ONLY, type TeamsPerson, type TenantAdmins } from './admins.ts';
import { type ConversationType, channelOf } from './conversations.ts';
import { teamsChannelsWithDirect, teamsDigestChannels } from './digests/channels.ts';
import { TEAMS_SURFACE } from './surface.ts';

export interface TeamsPlace {
  /** Where to answer: the conversation as the activity names it (a channel's thread included). */
  conversationId: string;
  /** The channel or chat itself (a digest goes there, not into a thread). */
  channelId: string;
  channelName: string | null;
  tenantId: string;
  type: ConversationType;
  teamId: string | null;
  serviceUrl: string;
  person: TeamsPerson;
}

/** Where an activity happened and who sent it, from what the SDK gives every handler (`ctx.activity`, `ctx.ref`). */
export function placeOf({ activity, ref }: { activity: IActivity; ref: ConversationReference }): TeamsPlace {
  const type = activity.conversation.conversationType;
  return {
    conversationId: activity.conversation.id,
    channelId: channelOf(activity.conversation.id),
    channelName: activity.channelData?.channel?.name ?? activity.conversation.name ?? null,
    tenantId: activity.conversation.tenantId ?? activity.channelData?.tenant?.id ?? '',
    type: type === 'channel' ? 'channel' : type === 'groupChat' ? 'groupChat' : 'personal',
    teamId: activity.channelData?.team?.id ?? null,
    // As Teams sent it (recorded with the conversation); the SDK's `ref` has it trimmed, or the token's if none.
    serviceUrl: activity.serviceUrl ?? ref.serviceUrl,
    person: { id: activity.from.id, aadObjectId: activity.from.aadObjectId, name: activity.from.name },
  };
}

/**
 * The command in a message's text: the bot's mention is gone (the SDK strips it), and the command may still start
 * with `linen` or `/linen`, as people type it from Slack's habit or from the manifest's command list.
 */
export function commandTextOf(text: string | undefined): string {
  return (text ?? '')
    .replace(/<at>[^<]*<\/at>/gi, ' ')
    .replace(/&nbsp;/gi, ' ')
    .trim()
    .replace(/^\/?linen\b[:,]?/i, '')
    .trim();
}

const isMention = (e: Entity): e is MentionEntity => e.type === 'mention';

/** The people an activity @mentions besides the bot: `admins add @person` names them so. */
export function mentionedPeople(activity: IActivity): TeamsPerson[] {
  return (activity.entities ?? [])
    .filter(isMention)
    .filter((e) => e.mentioned?.id && e.mentioned.id !== activity.recipient.id)
    .map((e) => ({ id: e.mentioned.id, name: e.mentioned.name }));
}

export interface TeamsRequestDeps {
  connect?: ConnectDeps | undefined;
  admins: TenantAdmins;
  /** Shows the connect form in the person's 1:1 chat. */
  showConnectForm(place: TeamsPlace, timeZone: string | undefined): Promise<void>;
  /** The 1:1 chat between a person of the place's tenant and Linen (created if need be), by its conversation id. */
  personalChat?(place: TeamsPlace, userId: string): Promise<string>;
}

function connectionPlatform(
  place: TeamsPlace,
  deps: TeamsRequestDeps,
  mentioned: readonly TeamsPerson[],
): ConnectionPlatform {
  return {
    surface: TEAMS_SURFACE,
    adminsOnly: ADMINS_ONLY,
    // While a tenant has no admin, whoever connects its first key becomes one.
    isAdmin: () => deps.admins.isAdmin(place.tenantId, place.person, { orFirst: true }),
    namedAdmins: {
      list: async () => (await deps.admins.list(place.tenantId)).map((a) => ({ id: a.userId, name: a.userName })),
      add: (person, now) => deps.admins.add(place.tenantId, person, place.person.id, now),
      remove: async (person) => {
        await deps.admins.remove(place.tenantId, person.id);
      },
      mentioned,
      operatorSetting: 'TEAMS_ADMIN_USER_IDS',
    },
    async openConnectForm(timeZone): Promise<Content | null> {
      if (place.type !== 'personal')
        return errorView(
          'Connect Linen in your 1:1 chat with Linen, so that the key is never typed where others can read the conversation.',
        );
      await deps.showConnectForm(place, timeZone ?? deps.connect?.defaultTimeZone);
      return null;
    },
  };
}

/** The request for the chat core, without its text; `mentioned`: the people the message @mentions (`admins add`). */
export function teamsRequest(
  place: TeamsPlace,
  deps: TeamsRequestDeps,
  mentioned: readonly TeamsPerson[] = [],
): Omit<CommandRequest, 'text'> {
  return {
    platform: 'teams',
    surface: TEAMS_SURFACE,
    orgId: place.tenantId,
    channelId: place.channelId,
    channelName: place.channelName,
    serviceUrl: place.serviceUrl,
    privateChat: place.type === 'personal',
    userId: place.person.id,
    digestChannels: deps.personalChat
      ? teamsChannelsWithDirect((userId) =>
          place.type === 'personal' && userId === place.person.id
            ? Promise.resolve(place.conversationId)
            : deps.personalChat!(place, userId),
        )
      : teamsDigestChannels,
    connection: deps.connect ? connectionPlatform(place, deps, mentioned) : undefined,
  };
}
