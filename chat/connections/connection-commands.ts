/**
 * `connect`, `disconnect [here]`, `status` and `access ...`: the commands that manage an organization's connection,
 * the same on every platform. Connecting, disconnecting and changing access are for the admins the platform names
 * (and the users in LINEN_ADMIN_USER_IDS); `status` and `access` without arguments are for anyone. How a person is
 * known to be an admin, and the connect form, are the platform's.
 */
import { type Content, note, text } from '../content/document.ts';
import { b, channel, code, command, joinRich, line, type Rich, r, user } from '../content/rich.ts';
import type { Platform } from '../digests/storage/types.ts';
import { tokenize } from '../digests/subscribe-args.ts';
import type { Surface } from '../surface.ts';
import { errorView } from '../views/common.ts';
import { type AccountingAccess, type BoundKey, EVERYWHERE, type WorkspaceConnection } from './connection.ts';
import type { ConnectionStore } from './connection-store.ts';
import type { Place } from './place-linen.ts';

export const CONNECTION_WORDS = ['connect', 'disconnect', 'status', 'access'] as const;
type ConnectionWord = (typeof CONNECTION_WORDS)[number];

export function connectionWordOf(text: string): ConnectionWord | undefined {
  const first = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return (CONNECTION_WORDS as readonly string[]).includes(first) ? (first as ConnectionWord) : undefined;
}

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
}

export interface ConnectionCommandContext {
  platformId: Platform;
  place: Place & { teamId: string };
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

/** The answer to a connection command; null when the platform showed its connect form instead. */
export async function runConnectionCommand(input: string, ctx: ConnectionCommandContext): Promise<Content | null> {
  const { surface } = ctx.platform;
  const { teamId } = ctx.place;
  const words = tokenize(input).map((t) => t.text);
  const word = words[0]?.toLowerCase() as ConnectionWord;
  const rest = words.slice(1);
  const connection = await ctx.connections.get(teamId);
  if (word === 'status') return statusView(connection, surface);
  if (word === 'access' && rest.length === 0) {
    return info(
      accountingLine(connection?.accounting ?? { channels: [], directMessages: false }),
      accessUsage(surface),
    );
  }
  if (!(await ctx.platform.isAdmin(ctx.userId))) return errorView(ctx.platform.adminsOnly);
  const now = new Date((ctx.now ?? Date.now)());

  if (word === 'connect') {
    return ctx.platform.openConnectForm(connection?.keys.find((k) => k.place === EVERYWHERE)?.timeZone);
  }

  if (word === 'disconnect') {
    const here = rest[0]?.toLowerCase() === 'here';
    const removed = await ctx.connections.removeKeys(teamId, here ? ctx.place.channelId : undefined);
    if (!removed) {
      return info([
        here
          ? 'This channel has no key of its own to disconnect.'
          : 'No Linen key is connected; nothing to disconnect.',
      ]);
    }
    return info([
      here
        ? `Disconnected this channel's key: the channel now uses the ${surface.organization} default key, if there is one.`
        : `Disconnected every Linen key of this ${surface.organization}: commands answer how to connect until an admin connects a key again.`,
    ]);
  }

  // access accounting allow|deny [#channel] · access accounting dms on|off
  const [what, verb, target] = rest.map((w) => w.toLowerCase());
  if (what !== 'accounting' || !verb) return info(["I don't know that access setting."], accessUsage(surface));
  const current = connection?.accounting ?? { channels: [], directMessages: false };
  if (verb === 'dms') {
    if (target !== 'on' && target !== 'off') return info(r`Say ${code('on')} or ${code('off')}.`, accessUsage(surface));
    const next = { ...current, directMessages: target === 'on' };
    await ctx.connections.setAccounting(teamId, next, now, ctx.platformId);
    return info(accountingLine(next));
  }
  if (verb !== 'allow' && verb !== 'deny') return info([`I don't know "${line(verb)}".`], accessUsage(surface));
  let channelId = ctx.place.channelId;
  if (rest[2] !== undefined) {
    const named = ctx.platform.channelArgument?.(rest[2]) ?? null;
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
  await ctx.connections.setAccounting(teamId, next, now, ctx.platformId);
  return info(accountingLine(next));
}
