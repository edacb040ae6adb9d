/**
 * What `connect`, `disconnect [here]`, `status`, `access ...` and `admins` (commands/*.ts) do: manage an
 * organization's connection, the same on every platform. Who may (the admins the platform names, and the users in
 * LINEN_ADMIN_USER_IDS, for the commands whose access class is `admins`) is checked before these run
 * (answer-in-place.ts); how a person is known to be an admin, and the connect form, are the platform's.
 */
import { type Content, note, text } from '../content/document.ts';
import { b, channel, code, command, joinRich, line, type Rich, r, user } from '../content/rich.ts';
import type { Platform } from '../digests/storage/types.ts';
import type { Surface } from '../surface.ts';
import { errorView } from '../views/common.ts';
import { type AccountingAccess, type BoundKey, EVERYWHERE, type WorkspaceConnection } from './connection.ts';
import type { ConnectionStore } from './connection-store.ts';
import type { Place } from './place-linen.ts';

/** What the connection commands need of the platform they are typed on. */
export interface ConnectionPlatform {
  surface: Surface;
  /** Whether the person may connect, disconnect and change access. */
  isAdmin(userId: string): Promise<boolean>;
  /** The sentence refusing someone who is not. */
  adminsOnly: string;
  /**
   * Shows the platform's connect form (a Slack modal, a Teams card); null once shown, else the sentence saying why
   * it could not be. `timeZone`: the one the form suggests (the default key's, when there is one).
   */
  openConnectForm(timeZone: string | undefined): Promise<Content | null>;
  /** The channel a typed argument names (`<#C123|finance>`), or null when it names none the platform knows. */
  channelArgument?(token: string): string | null;
  /** The platform's own list of Linen admins, where it keeps one (Teams: `admins add @person`). */
  namedAdmins?: NamedAdmins | undefined;
}

/** A person as a platform names them in a message. */
export interface NamedPerson {
  id: string;
  name?: string | undefined;
}

/** The organization's Linen admins as the platform keeps them, and the people the message names. */
export interface NamedAdmins {
  list(): Promise<{ id: string; name: string | null }[]>;
  add(person: NamedPerson, now: Date): Promise<void>;
  remove(person: NamedPerson): Promise<void>;
  /** The people the message @mentions, besides the bot. */
  mentioned: readonly NamedPerson[];
  /** The operator's setting that names admins in every organization (`TEAMS_ADMIN_USER_IDS`). */
  operatorSetting: string;
}

export interface ConnectionCommandContext {
  platformId: Platform;
  place: Place & { orgId: string };
  userId: string;
  connections: ConnectionStore;
  platform: ConnectionPlatform;
  now?: (() => number) | undefined;
}

const accessUsage = (surface: Surface): Rich => {
  const where = surface.channelArgument ? ` [${surface.channelArgument}]` : '';
  return joinRich(
    [
      command(`access accounting allow${where}`),
      command(`access accounting deny${where}`),
      command('access accounting dms on|off'),
    ].map((c) => [c]),
    ' · ',
  );
};

/** Lines, one paragraph each. */
const info = (...paragraphs: Rich[]): Content => ({
  summary: joinRich(paragraphs, ' '),
  parts: paragraphs.map((p) => text(p)),
});

const placeName = (place: string): Rich => (place === EVERYWHERE ? ['Every channel (default)'] : [channel(place)]);

function keyLine(k: BoundKey): Rich {
  const scopes = k.scopes.length ? k.scopes.join(', ').replace('direct_sales', 'direct sales') : 'no scope';
  return r`${placeName(k.place)}: the key ending in ${code(line(k.lastFour))} (${scopes}) at ${line(k.baseUrl)}, ${line(k.timeZone)}, connected by ${user(k.connectedBy, k.connectedByName)}`;
}

function accountingLine(a: AccountingAccess): Rich {
  const where = a.channels.length
    ? joinRich(
        a.channels.map((c) => [channel(c)]),
        ', ',
      )
    : ['no channel yet'];
  return r`Accounting answers appear in: ${where}; ${a.directMessages ? 'and in direct messages' : 'not in direct messages'}.`;
}

function statusView(connection: WorkspaceConnection | null, surface: Surface): Content {
  if (!connection?.keys.length) {
    return info(
      r`This ${surface.organization} has not connected a Linen key yet: ${surface.anAdmin} can type ${command('connect')}.`,
    );
  }
  return {
    summary: [`Linen keys: ${connection.keys.map((k) => `…${line(k.lastFour)}`).join(', ')}`],
    parts: [
      text(
        r`${b(`Linen keys of this ${surface.organization}`)}\n${joinRich(
          connection.keys.map((k) => keyLine(k)),
          '\n',
        )}`,
      ),
      text(accountingLine(connection.accounting)),
      note(
        surface.connectIn === 'channel'
          ? r`Admins: ${command('connect')} (in a channel, for that channel only or for every channel), ${command('disconnect [here]')}, ${command('access')}.`
          : r`Admins: ${command('connect')} (in the 1:1 chat with Linen), ${command('disconnect')}, ${command('access')}.`,
      ),
    ],
  };
}

/** Where the bot answers with the one key it was started with, connections are not managed from the chat. */
export const singleKey = (surface: Surface): string =>
  `This bot answers with the one Linen key it was started with (LINEN_API_KEY); keys are connected from ${surface.name} only when the app is installed for many organizations.`;

const nowOf = (ctx: ConnectionCommandContext) => new Date((ctx.now ?? Date.now)());

/** `status`: the keys connected (their last four characters) and where accounting answers appear. */
export async function showStatus(ctx: ConnectionCommandContext): Promise<Content> {
  return statusView(await ctx.connections.get(ctx.place.orgId), ctx.platform.surface);
}

/** `connect`: the platform's connect form; null once shown, else the sentence saying why it could not be. */
export async function openConnect(ctx: ConnectionCommandContext): Promise<Content | null> {
  const connection = await ctx.connections.get(ctx.place.orgId);
  return ctx.platform.openConnectForm(connection?.keys.find((k) => k.place === EVERYWHERE)?.timeZone);
}

/** `disconnect [here]`: every key of the organization, or the channel's own. */
export async function disconnect(here: boolean, ctx: ConnectionCommandContext): Promise<Content> {
  const { surface } = ctx.platform;
  const removed = await ctx.connections.removeKeys(ctx.place.orgId, here ? ctx.place.channelId : undefined);
  if (!removed) {
    return info([
      here ? 'This channel has no key of its own to disconnect.' : 'No Linen key is connected; nothing to disconnect.',
    ]);
  }
  return info([
    here
      ? `Disconnected this channel's key: the channel now uses the ${surface.organization} default key, if there is one.`
      : `Disconnected every Linen key of this ${surface.organization}: commands answer how to connect until an admin connects a key again.`,
  ]);
}

/**
 * `access`: where accounting answers appear. With no words it only shows it; `access accounting allow|deny
 * [#channel]` and `access accounting dms on|off` change it.
 */
export async function changeAccess(words: readonly string[], ctx: ConnectionCommandContext): Promise<Content> {
  const { surface } = ctx.platform;
  const { orgId } = ctx.place;
  const connection = await ctx.connections.get(orgId);
  const current = connection?.accounting ?? { channels: [], directMessages: false };
  if (words.length === 0) return info(accountingLine(current), accessUsage(surface));
  const [what, verb, target] = words.map((w) => w.toLowerCase());
  if (what !== 'accounting' || !verb) return info(["I don't know that access setting."], accessUsage(surface));
  if (verb === 'dms') {
    if (target !== 'on' && target !== 'off') return info(r`Say ${code('on')} or ${code('off')}.`, accessUsage(surface));
    const next = { ...current, directMessages: target === 'on' };
    await ctx.connections.setAccounting(orgId, next, nowOf(ctx), ctx.platformId);
    return info(accountingLine(next));
  }
  if (verb !== 'allow' && verb !== 'deny') return info([`I don't know "${line(verb)}".`], accessUsage(surface));
  let channelId = ctx.place.channelId;
  if (words[2] !== undefined) {
    const named = ctx.platform.channelArgument?.(words[2]) ?? null;
    if (!named) {
      return info([
        ctx.platform.channelArgument
          ? `Pick the channel from ${surface.name}'s autocomplete (${surface.channelArgument ?? '#channel'}), or type the command in it.`
          : 'Type the command in the channel itself.',
      ]);
    }
    channelId = named;
  } else if (ctx.place.privateChat) {
    return info(r`For direct messages, use ${command('access accounting dms on|off')}.`);
  }
  const channels = current.channels.filter((c) => c !== channelId);
  if (verb === 'allow') channels.push(channelId);
  const next = { ...current, channels };
  await ctx.connections.setAccounting(orgId, next, nowOf(ctx), ctx.platformId);
  return info(accountingLine(next));
}

/** `admins` · `admins add @person` · `admins remove @person`: the admins the platform keeps a list of. */
export async function manageAdmins(verb: string | undefined, ctx: ConnectionCommandContext): Promise<Content> {
  const admins = ctx.platform.namedAdmins;
  const { surface } = ctx.platform;
  if (!admins) return errorView(`${surface.name} names its own admins: ${surface.admins}.`);
  const list = async () => {
    const named = await admins.list();
    return named.length
      ? r`${b(`Linen admins of your ${surface.organization}`)}: ${named.map((a) => a.name ?? a.id).join(', ')}.`
      : r`Your ${surface.organization} has no Linen admin yet: whoever connects its key first becomes one.`;
  };
  if (!verb) return info(await list());
  if ((verb !== 'add' && verb !== 'remove') || admins.mentioned.length === 0)
    return info(['Say “admins add @person” or “admins remove @person”, mentioning them.']);
  for (const person of admins.mentioned) {
    if (verb === 'add') await admins.add(person, nowOf(ctx));
    else await admins.remove(person);
  }
  const listed = await list();
  return {
    summary: listed,
    parts: [
      text(listed),
      note([`Operators name admins of every ${surface.organization} with ${admins.operatorSetting}.`]),
    ],
  };
}
