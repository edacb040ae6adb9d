/**
 * Inbound activities as Teams posts them to a bot's `/api/messages`, with realistic ids: users `29:1...` (with their
 * Entra object id), the bot `28:<client id>`, 1:1 chats `a:1...`, teams and channels `19:...@thread.tacv2`, group
 * chats `19:...@thread.v2`, messages numbered by their millisecond timestamp. A channel message arrives in its
 * thread (`<channel>;messageid=<root>`) with the bot @mentioned (`<at>Linen</at>` and a mention entity) and
 * `channelData` naming the team, the channel and the tenant.
 *
 * Builders:
 * - messages: `personalMessage`, `channelMessage`, `groupChatMessage`;
 * - installation: `installationUpdate` (add/remove), `botAdded` / `botRemoved` (conversationUpdate with the bot in
 *   membersAdded / membersRemoved);
 * - invokes: `messageExtensionQuery` (composeExtension/query, command `linen`, parameter `query`), `cardAction`
 *   (adaptiveCard/action), `fileConsent` (fileConsent/invoke accept/decline), `dialogFetch` / `dialogSubmit`
 *   (task/fetch, task/submit).
 * `postActivity` posts one to a bot with a bearer token and returns the bot's answer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { UploadInfo } from './teams-connector-fake.ts';

/** The bot and where its activities come from. */
export interface TeamsBot {
  /** The client id (`TEAMS_CLIENT_ID`); the bot's account is `28:<appId>`. */
  appId: string;
  /** The name users @mention. */
  name: string;
  /** The organization's tenant (the installing tenant, not necessarily the bot registration's). */
  tenantId: string;
  /** The Bot Connector the activities name (`TeamsConnectorFake.serviceUrl`). */
  serviceUrl: string;
}

export interface TeamsUser {
  id: string;
  aadObjectId: string;
  name: string;
}

export interface TeamsTeam {
  id: string;
  aadGroupId: string;
  name: string;
}

export interface TeamsChannel {
  id: string;
  name: string;
  team: TeamsTeam;
}

/** Where an activity happens. */
export type TeamsPlace =
  | { kind: 'personal'; conversationId: string }
  | { kind: 'channel'; channel: TeamsChannel }
  | { kind: 'groupChat'; chatId: string };

export type Activity = Record<string, any>;

const thread = (suffix: 'tacv2' | 'v2') => `19:${randomBytes(16).toString('hex')}@thread.${suffix}`;

export function teamsUser(name = 'Dana Whitfield'): TeamsUser {
  return { id: `29:1${randomBytes(45).toString('base64url')}`, aadObjectId: randomUUID(), name };
}

export function teamsTeam(name = 'Mercy Linen Operations'): TeamsTeam {
  return { id: thread('tacv2'), aadGroupId: randomUUID(), name };
}

/** A channel of `team`; the General channel has the team's own id, as in Teams. */
export function teamsChannel(team: TeamsTeam, name = 'General'): TeamsChannel {
  return { id: name === 'General' ? team.id : thread('tacv2'), name, team };
}

/** The bot's 1:1 chat with a user (the id Teams gives it). */
export const personalChat = (): Extract<TeamsPlace, { kind: 'personal' }> => ({
  kind: 'personal',
  conversationId: `a:1${randomBytes(48).toString('base64url')}`,
});
export const channelPlace = (channel: TeamsChannel): TeamsPlace => ({ kind: 'channel', channel });
export const groupChat = (): Extract<TeamsPlace, { kind: 'groupChat' }> => ({
  kind: 'groupChat',
  chatId: thread('v2'),
});

let lastMessageId = 0;
/** Teams message ids: millisecond timestamps, unique. */
export function messageId(): string {
  lastMessageId = Math.max(Date.now(), lastMessageId + 1);
  return String(lastMessageId);
}

/** The fields every activity from Teams carries. */
function envelope(bot: TeamsBot, user: TeamsUser, id: string) {
  const now = Date.now();
  return {
    id,
    timestamp: new Date(now).toISOString(),
    // The sender's clock in Chicago (central standard time), as the client reports it.
    localTimestamp: new Date(now - 6 * 3_600_000).toISOString().replace('Z', '-06:00'),
    serviceUrl: bot.serviceUrl,
    channelId: 'msteams',
    from: { id: user.id, name: user.name, aadObjectId: user.aadObjectId },
    recipient: { id: `28:${bot.appId}`, name: bot.name },
    entities: [{ type: 'clientInfo', locale: 'en-US', country: 'US', platform: 'Web', timezone: 'America/Chicago' }],
    locale: 'en-US',
    localTimezone: 'America/Chicago',
  };
}

/** `conversation` and `channelData` for a place; a channel message's conversation is its thread. */
function placeFields(bot: TeamsBot, place: TeamsPlace, threadRoot?: string) {
  const tenant = { id: bot.tenantId };
  switch (place.kind) {
    case 'personal':
      return {
        conversation: { conversationType: 'personal', tenantId: bot.tenantId, id: place.conversationId },
        channelData: { tenant },
      };
    case 'groupChat':
      return {
        conversation: { isGroup: true, conversationType: 'groupChat', tenantId: bot.tenantId, id: place.chatId },
        channelData: { tenant },
      };
    case 'channel': {
      const { channel } = place;
      return {
        conversation: {
          isGroup: true,
          conversationType: 'channel',
          tenantId: bot.tenantId,
          id: threadRoot ? `${channel.id};messageid=${threadRoot}` : channel.id,
          name: channel.name,
        },
        channelData: {
          teamsChannelId: channel.id,
          teamsTeamId: channel.team.id,
          channel: { id: channel.id, name: channel.name },
          team: { id: channel.team.id, name: channel.team.name, aadGroupId: channel.team.aadGroupId },
          tenant,
        },
      };
    }
  }
}

/** A message in the bot's 1:1 chat: no mention needed. */
export function personalMessage(bot: TeamsBot, o: { user: TeamsUser; text: string; chat?: TeamsPlace }): Activity {
  const place = o.chat ?? personalChat();
  const id = messageId();
  return {
    type: 'message',
    ...envelope(bot, o.user, id),
    ...placeFields(bot, place),
    textFormat: 'plain',
    text: o.text,
    attachments: [{ contentType: 'text/html', content: `<p>${o.text}</p>` }],
  };
}

/** The `<at>` mention of the bot, as Teams puts it in `text` and in `entities`. */
function mentionOf(bot: TeamsBot) {
  return {
    text: `<at>${bot.name}</at>`,
    entity: { type: 'mention', text: `<at>${bot.name}</at>`, mentioned: { id: `28:${bot.appId}`, name: bot.name } },
    html: `<span itemscope="" itemtype="http://schema.skype.com/Mention" itemid="0">${bot.name}</span>`,
  };
}

/**
 * A channel post that @mentions the bot: a new thread (its own id is the thread root) or, with `threadRoot`, a reply
 * in that thread. `mention: false` is what Teams never sends a bot without resource-specific consent; it is there to
 * test that the bot ignores it.
 */
export function channelMessage(
  bot: TeamsBot,
  o: { user: TeamsUser; channel: TeamsChannel; text: string; threadRoot?: string; mention?: boolean },
): Activity {
  const id = messageId();
  const mention = mentionOf(bot);
  const withMention = o.mention ?? true;
  const base = envelope(bot, o.user, id);
  return {
    type: 'message',
    ...base,
    ...placeFields(bot, channelPlace(o.channel), o.threadRoot ?? id),
    ...(o.threadRoot ? { replyToId: o.threadRoot } : {}),
    textFormat: 'plain',
    text: withMention ? `${mention.text} ${o.text}` : o.text,
    attachments: [
      { contentType: 'text/html', content: `<div><div>${withMention ? `${mention.html} ` : ''}${o.text}</div></div>` },
    ],
    entities: [...(withMention ? [mention.entity] : []), ...base.entities],
  };
}

/** A message in a group chat that @mentions the bot. */
export function groupChatMessage(bot: TeamsBot, o: { user: TeamsUser; chat: TeamsPlace; text: string }): Activity {
  const id = messageId();
  const mention = mentionOf(bot);
  const base = envelope(bot, o.user, id);
  return {
    type: 'message',
    ...base,
    ...placeFields(bot, o.chat),
    textFormat: 'plain',
    text: `${mention.text} ${o.text}`,
    attachments: [{ contentType: 'text/html', content: `<p>${mention.html} ${o.text}</p>` }],
    entities: [mention.entity, ...base.entities],
  };
}

/** The app installed (`add`) or uninstalled (`remove`) in a personal scope, a team (its channel) or a group chat. */
export function installationUpdate(
  bot: TeamsBot,
  o: { user: TeamsUser; place: TeamsPlace; action: 'add' | 'remove' | 'add-upgrade' | 'remove-upgrade' },
): Activity {
  const fields = placeFields(bot, o.place);
  const channelData =
    o.place.kind === 'channel'
      ? {
          ...fields.channelData,
          settings: { selectedChannel: { id: o.place.channel.id } },
          source: { name: 'message' },
        }
      : fields.channelData;
  return {
    type: 'installationUpdate',
    ...envelope(bot, o.user, `f:${randomUUID()}`),
    conversation: fields.conversation,
    channelData,
    action: o.action,
  };
}

/** conversationUpdate with the bot among membersAdded: the bot was added to a team, a group chat or a 1:1 chat. */
export function botAdded(bot: TeamsBot, o: { user: TeamsUser; place: TeamsPlace }): Activity {
  return conversationUpdate(bot, o, 'membersAdded');
}

/** conversationUpdate with the bot among membersRemoved: the bot was removed (the app uninstalled there). */
export function botRemoved(bot: TeamsBot, o: { user: TeamsUser; place: TeamsPlace }): Activity {
  return conversationUpdate(bot, o, 'membersRemoved');
}

function conversationUpdate(
  bot: TeamsBot,
  o: { user: TeamsUser; place: TeamsPlace },
  field: 'membersAdded' | 'membersRemoved',
): Activity {
  const fields = placeFields(bot, o.place);
  const botMember = { id: `28:${bot.appId}` };
  const members =
    o.place.kind === 'personal' ? [botMember, { id: o.user.id, aadObjectId: o.user.aadObjectId }] : [botMember];
  const eventType = field === 'membersAdded' ? 'teamMemberAdded' : 'teamMemberRemoved';
  const channelData =
    o.place.kind === 'channel'
      ? { ...fields.channelData, settings: { selectedChannel: { id: o.place.channel.id } }, eventType }
      : fields.channelData;
  return {
    type: 'conversationUpdate',
    [field]: members,
    ...envelope(bot, o.user, `f:${randomUUID()}`),
    conversation: fields.conversation,
    channelData,
  };
}

/** An invoke: answered in the HTTP response, not through the Bot Connector. */
function invoke(
  bot: TeamsBot,
  o: { user: TeamsUser; place: TeamsPlace; replyToId?: string },
  name: string,
  value: unknown,
): Activity {
  return {
    type: 'invoke',
    name,
    value,
    ...envelope(bot, o.user, `f:${randomUUID()}`),
    ...placeFields(bot, o.place),
    ...(o.replyToId ? { replyToId: o.replyToId } : {}),
  };
}

/** What a person typed in the `linen` search command of the message extension, from the compose box of a place. */
export function messageExtensionQuery(
  bot: TeamsBot,
  o: { user: TeamsUser; place: TeamsPlace; query: string; skip?: number; count?: number },
): Activity {
  return invoke(bot, o, 'composeExtension/query', {
    commandId: 'linen',
    parameters: [{ name: 'query', value: o.query }],
    queryOptions: { skip: o.skip ?? 0, count: o.count ?? 25 },
  });
}

/**
 * An `Action.Execute` pressed on a card the bot posted (`replyToId`: that message), or run by Teams itself when the
 * card is viewed (`trigger: 'automatic'`: its `refresh`).
 */
export function cardAction(
  bot: TeamsBot,
  o: {
    user: TeamsUser;
    place: TeamsPlace;
    replyToId: string;
    verb: string;
    data?: Record<string, unknown>;
    trigger?: 'manual' | 'automatic';
  },
): Activity {
  return invoke(bot, o, 'adaptiveCard/action', {
    action: { type: 'Action.Execute', id: randomUUID(), verb: o.verb, data: o.data ?? {} },
    trigger: o.trigger ?? 'manual',
  });
}

/**
 * The user's answer to a FileConsentCard the bot sent in the 1:1 chat (`replyToId`: that message). On accept Teams
 * names a OneDrive upload slot (`TeamsConnectorFake.fileUpload`) the bot PUTs the bytes to.
 */
export function fileConsent(
  bot: TeamsBot,
  o: { user: TeamsUser; chat: TeamsPlace; replyToId: string; context?: Record<string, unknown> } & (
    | { action: 'accept'; uploadInfo: UploadInfo }
    | { action: 'decline' }
  ),
): Activity {
  return invoke(bot, { user: o.user, place: o.chat, replyToId: o.replyToId }, 'fileConsent/invoke', {
    type: 'fileUpload',
    action: o.action,
    context: o.context ?? {},
    ...(o.action === 'accept' ? { uploadInfo: o.uploadInfo } : {}),
  });
}

/** A dialog opened from a card button (`task/fetch`), with the button's data. */
export function dialogFetch(
  bot: TeamsBot,
  o: { user: TeamsUser; place: TeamsPlace; data: Record<string, unknown> },
): Activity {
  return invoke(bot, o, 'task/fetch', { data: o.data, context: { theme: 'default' } });
}

/** A dialog's card submitted (`task/submit`), with its inputs in `data`. */
export function dialogSubmit(
  bot: TeamsBot,
  o: { user: TeamsUser; place: TeamsPlace; data: Record<string, unknown> },
): Activity {
  return invoke(bot, o, 'task/submit', { data: o.data, context: { theme: 'default' } });
}

/** Posts an activity to a bot's messaging endpoint as the Bot Connector does; the answer's status and body. */
export async function postActivity(
  url: string,
  activity: Activity,
  token: string | undefined,
): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(activity),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text itself
  }
  return { status: res.status, body };
}
