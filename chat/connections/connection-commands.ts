/**
 * `/linen connect`, `disconnect [here]`, `status` and `access ...`: the commands that manage a workspace's
 * connection. Connecting, disconnecting and changing access are for workspace admins and owners (and the users
 * in LINEN_ADMIN_USER_IDS); `status` and `access` without arguments are for anyone.
 */
import { context, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { code, escLine } from '../../slack-bot/blocks/mrkdwn.ts';
import { ADMINS_ONLY, isWorkspaceAdmin, slackTimeZoneOf, type UsersInfo } from '../../slack-bot/workspaces/admins.ts';
import { connectModal } from '../../slack-bot/workspaces/connect-modal.ts';
import { channelOf, tokenize } from '../digests/subscribe-args.ts';
import { errorMessage } from '../views/common.ts';
import {
  type AccountingAccess,
  type BoundKey,
  EVERYWHERE,
  isDirectMessage,
  type WorkspaceConnection,
} from './connection.ts';
import type { ConnectionStore } from './connection-store.ts';

export const WORKSPACE_WORDS = ['connect', 'disconnect', 'status', 'access'] as const;
type WorkspaceWord = (typeof WORKSPACE_WORDS)[number];

export function workspaceWordOf(text: string): WorkspaceWord | undefined {
  const first = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return (WORKSPACE_WORDS as readonly string[]).includes(first) ? (first as WorkspaceWord) : undefined;
}

export interface ViewsOpen {
  views: { open(args: { trigger_id: string; view: ReturnType<typeof connectModal> }): Promise<unknown> };
}

export interface WorkspaceCommandContext {
  teamId: string;
  userId: string;
  channelId: string;
  triggerId: string | undefined;
  slack: UsersInfo & ViewsOpen;
  connections: ConnectionStore;
  adminUserIds: readonly string[];
  allowedBaseUrls: readonly string[];
  defaultTimeZone: string | undefined;
  now?: (() => number) | undefined;
}

const ACCESS_USAGE =
  '`/linen access accounting allow [#channel]` · `/linen access accounting deny [#channel]` · `/linen access accounting dms on|off`';

/** Lines of mrkdwn, already escaped where they hold typed or stored text. */
const info = (...lines: string[]): Message => ({
  text: lines.join(' '),
  blocks: lines.map((l) => section(l)),
});

const placeName = (place: string) => (place === EVERYWHERE ? 'Every channel (default)' : `<#${place}>`);

function keyLine(k: BoundKey): string {
  const scopes = k.scopes.length ? k.scopes.join(', ').replace('direct_sales', 'direct sales') : 'no scope';
  return `${placeName(k.place)}: the key ending in ${code(escLine(k.lastFour))} (${scopes}) at ${escLine(k.baseUrl)}, ${escLine(k.timeZone)}, connected by <@${k.connectedBy}>`;
}

function accountingLine(a: AccountingAccess): string {
  const where = a.channels.length ? a.channels.map((c) => `<#${c}>`).join(', ') : 'no channel yet';
  return `Accounting answers appear in: ${where}; ${a.directMessages ? 'and in direct messages' : 'not in direct messages'}.`;
}

function statusMessage(connection: WorkspaceConnection | null): Message {
  if (!connection?.keys.length) {
    return info('This workspace has not connected a Linen key yet: a workspace admin can type `/linen connect`.');
  }
  return {
    text: escLine(`Linen keys: ${connection.keys.map((k) => `…${k.lastFour}`).join(', ')}`),
    blocks: [
      section(`*Linen keys of this workspace*\n${connection.keys.map(keyLine).join('\n')}`),
      section(accountingLine(connection.accounting)),
      context(
        'Admins: `/linen connect` (in a channel, for that channel only or for every channel), `/linen disconnect [here]`, `/linen access`.',
      ),
    ],
  };
}

/** The answer to a workspace command; null when a modal was opened instead. */
export async function runWorkspaceCommand(text: string, ctx: WorkspaceCommandContext): Promise<Message | null> {
  const words = tokenize(text).map((t) => t.text);
  const word = words[0]?.toLowerCase() as WorkspaceWord;
  const rest = words.slice(1);
  const connection = await ctx.connections.get(ctx.teamId);
  if (word === 'status') return statusMessage(connection);
  if (word === 'access' && rest.length === 0) {
    return info(accountingLine(connection?.accounting ?? { channels: [], directMessages: false }), ACCESS_USAGE);
  }
  if (!(await isWorkspaceAdmin(ctx.slack, ctx.userId, ctx.adminUserIds))) return errorMessage(ADMINS_ONLY);
  const now = new Date((ctx.now ?? Date.now)());

  if (word === 'connect') {
    if (!ctx.triggerId)
      return errorMessage('Slack sent no trigger to open the connect form; type /linen connect again.');
    try {
      await ctx.slack.views.open({
        trigger_id: ctx.triggerId,
        view: connectModal({
          channelId: ctx.channelId,
          allowedBaseUrls: ctx.allowedBaseUrls,
          defaultTimeZone:
            connection?.keys.find((k) => k.place === EVERYWHERE)?.timeZone ??
            ctx.defaultTimeZone ??
            (await slackTimeZoneOf(ctx.slack, ctx.userId)),
        }),
      });
      return null;
    } catch {
      return errorMessage(
        'Slack did not open the connect form (it expires after 3 seconds); type /linen connect again.',
      );
    }
  }

  if (word === 'disconnect') {
    const here = rest[0]?.toLowerCase() === 'here';
    const removed = await ctx.connections.removeKeys(ctx.teamId, here ? ctx.channelId : undefined);
    if (!removed) {
      return info(
        here
          ? 'This channel has no key of its own to disconnect.'
          : 'No Linen key is connected; nothing to disconnect.',
      );
    }
    return info(
      here
        ? "Disconnected this channel's key: the channel now uses the workspace default key, if there is one."
        : 'Disconnected every Linen key of this workspace: commands answer how to connect until an admin connects a key again.',
    );
  }

  // access accounting allow|deny [#channel] · access accounting dms on|off
  const [what, verb, target] = rest.map((w) => w.toLowerCase());
  if (what !== 'accounting' || !verb) return info(`I don't know that access setting.`, ACCESS_USAGE);
  const current = connection?.accounting ?? { channels: [], directMessages: false };
  if (verb === 'dms') {
    if (target !== 'on' && target !== 'off') return info('Say `on` or `off`.', ACCESS_USAGE);
    const next = { ...current, directMessages: target === 'on' };
    await ctx.connections.setAccounting(ctx.teamId, next, now);
    return info(accountingLine(next));
  }
  if (verb !== 'allow' && verb !== 'deny') return info(`I don't know "${escLine(verb)}".`, ACCESS_USAGE);
  let channelId = ctx.channelId;
  if (rest[2] !== undefined) {
    let arg: ReturnType<typeof channelOf> = null;
    try {
      arg = channelOf(rest[2]);
    } catch {
      arg = null;
    }
    if (!arg || !('id' in arg))
      return info("Pick the channel from Slack's autocomplete (#channel), or type the command in it.");
    channelId = arg.id;
  }
  if (isDirectMessage(channelId)) return info('For direct messages, use `/linen access accounting dms on|off`.');
  const channels = current.channels.filter((c) => c !== channelId);
  if (verb === 'allow') channels.push(channelId);
  const next = { ...current, channels };
  await ctx.connections.setAccounting(ctx.teamId, next, now);
  return info(accountingLine(next));
}
