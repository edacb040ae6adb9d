/**
 * A command (or a button) answered where it was typed, on any platform, by the commands of that platform: the
 * connection commands (connect, disconnect, status, access, admins) with the organization's connection; the others
 * once the connection is resolved for the channel (an organization that has not connected answers how to connect),
 * with the channel's key. Each command's access class (commands/<name>.ts) is enforced here, in one place: an
 * accounting answer where accounting answers may not appear, or an admins' command by someone who is not one, is
 * refused in one sentence.
 */

import type { ServiceLogger } from '../../base/logging/logger.ts';
import type { AccessClass } from '../access-class.ts';
import { type AnswerContext, answerText } from '../answers/answer.ts';
import type { AnswerOutcome } from '../answers/outcome.ts';
import { accessOf } from '../commands/command.ts';
import { COMMAND_REGISTRY } from '../commands/index.ts';
import { argsOf, type CommandRegistry } from '../commands/registry.ts';
import type { Content } from '../content/document.ts';
import { commandWords, type Rich, r } from '../content/rich.ts';
import type { ChannelKey, DigestChannels } from '../digests/digest-answers.ts';
import type { Platform } from '../digests/storage/types.ts';
import type { Surface } from '../surface.ts';
import { errorView } from '../views/common.ts';
import { helpView } from '../views/help.ts';
import { type AccessCheck, accessRefusal, accountingRefusal, isAccountingDigest } from './access.ts';
import { type ConnectionPlatform, singleKey } from './connection-commands.ts';
import type { ConnectionStore } from './connection-store.ts';
import type { AccountingPolicy, Place, WorkspaceLinen } from './place-linen.ts';

/** What many organizations add: the stored connections and who may change them. */
export interface ConnectDeps {
  connections: ConnectionStore;
  /** `LINEN_ADMIN_USER_IDS` (Slack) or `TEAMS_ADMIN_USER_IDS`: allowed besides the platform's own admins. */
  adminUserIds: readonly string[];
  /** `LINEN_ALLOWED_BASE_URLS` (default: `LINEN_BASE_URL`). */
  allowedBaseUrls: readonly string[];
  /** Offered in the connect form (`LINEN_TIMEZONE`). */
  defaultTimeZone: string | undefined;
}

export interface PlaceDeps extends Omit<AnswerContext, 'linen' | 'caller' | 'surface'> {
  workspaces: WorkspaceLinen;
  /** Present when organizations connect their own keys. */
  connect?: ConnectDeps | undefined;
  logger: ServiceLogger;
}

/** A command as the platform adapter received it, with what the answers need of that platform. */
export interface CommandRequest extends Place {
  text: string;
  userId: string;
  platform: Platform;
  surface: Surface;
  /** The channel's name and the service URL, where the platform gives them (kept with a digest subscription). */
  channelName?: string | null | undefined;
  serviceUrl?: string | null | undefined;
  /** `/linen digest` in this place: finding and checking channels. */
  digestChannels?: DigestChannels | undefined;
  /** The connection commands' admin check and connect form (when organizations connect their own keys). */
  connection?: ConnectionPlatform | undefined;
}

export interface Answered {
  content: Content;
  shareable: boolean;
  command: string;
  outcome: AnswerOutcome;
}

const sentence = (command: string, s: string | Rich, outcome: AnswerOutcome): Answered => ({
  content: errorView(s),
  shareable: false,
  command,
  outcome,
});

/** An organization that has not connected a key yet: how to. */
const notConnected = (surface: Surface): Rich =>
  r`This ${surface.organization} has not connected a Linen key yet: ${surface.anAdmin} can type ${commandWords('connect')} to connect one.`;

/** The commands offered on the request's platform. */
const commandsFor = (deps: PlaceDeps, req: Omit<CommandRequest, 'text'>): CommandRegistry =>
  (deps.commands ?? COMMAND_REGISTRY).forPlatform(req.platform);

/** What deciding an access class needs of the request, with where accounting answers may appear. */
function accessCheck(req: Omit<CommandRequest, 'text'>, accounting: () => Promise<AccountingPolicy>): AccessCheck {
  const connection = req.connection;
  return {
    place: req,
    surface: req.surface,
    accounting,
    // Without connections (one key for all) no one is named an admin: an admins' command is refused.
    isAdmin: connection && (() => connection.isAdmin(req.userId)),
    adminsOnly: connection?.adminsOnly,
  };
}

/**
 * The answer context for a place, for an answer of this access class (an invoice PDF is `accounting`), or the
 * sentence that refuses it.
 */
export async function contextFor(
  deps: PlaceDeps,
  req: Omit<CommandRequest, 'text'>,
  access: AccessClass,
): Promise<{ ctx: AnswerContext; keyRef: string | undefined } | { refusal: Rich }> {
  const r0 = await deps.workspaces.for(req);
  if (r0.kind === 'not-connected') return { refusal: notConnected(req.surface) };
  const refusal = await accessRefusal(
    access,
    accessCheck(req, async () => r0.accounting),
  );
  if (refusal) return { refusal };
  const digests = deps.digests && {
    ...deps.digests,
    platform: req.platform,
    keyRef: r0.keyRef,
    keyRefs: r0.keyRefs,
    ...(req.digestChannels ? { channels: req.digestChannels } : {}),
    // With connected keys a digest reads with the key bound to its own channel (which may not be the one typed in).
    ...(deps.connect ? { keyForChannel: channelKeys(deps.workspaces, req) } : {}),
    refuseKind: digestRefusal(r0.accounting, req),
    refuseAccess: accessRefusalIn(r0.accounting, req),
  };
  return {
    ctx: {
      ...deps,
      commands: commandsFor(deps, req),
      surface: req.surface,
      linen: r0.linen,
      digests,
      caller: {
        userId: req.userId,
        platform: req.platform,
        channelId: req.channelId,
        orgId: req.orgId ?? null,
        channelName: req.channelName ?? null,
        serviceUrl: req.serviceUrl ?? null,
        privateChat: req.privateChat,
      },
    },
    keyRef: r0.keyRef,
  };
}

/** A data answer is one the API gave: the key's "last answered" moves (the store throttles the write). */
function noteAnswered(deps: PlaceDeps, orgId: string | null | undefined, keyRef: string | undefined): void {
  if (!deps.connect || !orgId || !keyRef) return;
  deps.connect.connections
    .noteAnswered(orgId, keyRef, new Date((deps.now ?? Date.now)()))
    .catch((err: Error) => deps.logger.warn(`could not record when ${orgId}'s key last answered: ${err.message}`));
}

function channelKeys(workspaces: WorkspaceLinen, req: Omit<CommandRequest, 'text'>) {
  return async (channelId: string): Promise<ChannelKey | Rich> => {
    const r0 = await workspaces.for({ orgId: req.orgId, channelId });
    if (r0.kind === 'not-connected' || !r0.keyRef) return notConnected(req.surface);
    return { linen: r0.linen.client, keyRef: r0.keyRef, timeZone: r0.linen.timeZone };
  };
}

function digestRefusal(policy: AccountingPolicy, req: Omit<CommandRequest, 'text'>) {
  return (kind: Parameters<typeof isAccountingDigest>[0], channelId: string): Rich | null =>
    isAccountingDigest(kind)
      ? accountingRefusal(
          policy,
          { ...req, channelId, privateChat: channelId === req.channelId && req.privateChat },
          req.surface,
        )
      : null;
}

/** Whether an alert (or another post) of an access class may go to a conversation of the organization. */
function accessRefusalIn(policy: AccountingPolicy, req: Omit<CommandRequest, 'text'>) {
  return (access: AccessClass, channelId: string, privateChat: boolean): Rich | null =>
    access === 'accounting'
      ? accountingRefusal(policy, { ...req, channelId, privateChat }, req.surface, req.channelId)
      : null;
}

/** Accounting answers nowhere: an organization that has not said where. */
const NOWHERE = { channels: [], directMessages: false };

const failed = (what: string, req: Place, err: unknown) =>
  `${what} in ${req.orgId ?? 'the workspace'} failed: ${(err as Error).name}: ${(err as Error).message}`;

/** A command's answer; null when the platform showed a form and there is nothing to say. Never throws. */
export async function answerCommand(req: CommandRequest, deps: PlaceDeps): Promise<Answered | null> {
  try {
    return await answerIn(req, deps);
  } catch (err) {
    deps.logger.error(failed('/linen', req, err));
    return sentence('unknown', 'Something went wrong while answering; try again in a moment.', 'error');
  }
}

/** A button's command replayed (Share in channel, a customer choice), or a search's text, in its place. */
export async function answerButton(
  text: string,
  req: Omit<CommandRequest, 'text'>,
  deps: PlaceDeps,
  opts: { share?: boolean } = {},
): Promise<Answered> {
  try {
    return (
      (await answerIn({ ...req, text }, deps, opts)) ?? sentence('connect', 'The connect form is shown.', 'answered')
    );
  } catch (err) {
    deps.logger.error(failed('a button', req, err));
    return sentence('unknown', 'Something went wrong while answering; try again in a moment.', 'error');
  }
}

async function answerIn(
  req: CommandRequest,
  deps: PlaceDeps,
  opts: { share?: boolean } = {},
): Promise<Answered | null> {
  const commands = commandsFor(deps, req);
  const cmd = commands.parse(req.text);
  const module = commands.find(cmd.kind);
  if (module?.connection) {
    const args = argsOf(cmd);
    const command = module.name;
    if (!deps.connect || !req.orgId || !req.connection) return sentence(command, singleKey(req.surface), 'answered');
    const { connections } = deps.connect;
    const orgId = req.orgId;
    const refusal = await accessRefusal(
      accessOf(module, args),
      accessCheck(req, async () => (await connections.get(orgId))?.accounting ?? NOWHERE),
    );
    if (refusal) return sentence(command, refusal, 'refused');
    const content = await module.answer(args, {
      platformId: req.platform,
      place: { ...req, orgId },
      userId: req.userId,
      connections,
      platform: req.connection,
      now: deps.now,
    });
    return content && { content, shareable: false, command, outcome: 'answered' };
  }
  const access = module ? accessOf(module, argsOf(cmd)) : 'everyone';
  const resolved = await contextFor(deps, req, access);
  if ('refusal' in resolved) {
    // Help stays available before connecting: it says how to connect.
    if (cmd.kind === 'help')
      return {
        content: helpView(req.surface, commands, resolved.refusal),
        shareable: false,
        command: 'help',
        outcome: 'answered',
      };
    return sentence(cmd.kind, resolved.refusal, 'refused');
  }
  const answered = await answerText(req.text, resolved.ctx, opts);
  if (answered.shareable) noteAnswered(deps, req.orgId, resolved.keyRef);
  return answered;
}
