/**
 * A parsed command answered through its module (commands/<name>.ts): the module fetches the report through the
 * shared client and builds the answer's content with a pure view function (each platform renders it). `answer()`
 * never throws: a failure becomes its one-sentence answer.
 */

import { failureFields } from '../../base/logging/log-fields.ts';
import type { ServiceLogger } from '../../base/logging/logger.ts';
import type { AccessClass } from '../access-class.ts';
import type { AlertStore } from '../alerts/storage/store.ts';
import { type CommandContext, info } from '../commands/command.ts';
import { COMMAND_REGISTRY } from '../commands/index.ts';
import { argsOf, type CommandRegistry, isUnknown, isUsage } from '../commands/registry.ts';
import { singleKey } from '../connections/connection-commands.ts';
import type { Content } from '../content/document.ts';
import type { Rich } from '../content/rich.ts';
import type { DigestChannels, DigestCommandContext } from '../digests/digest-answers.ts';
import type { DigestStore } from '../digests/index.ts';
import type { DigestKind, Platform } from '../digests/storage/types.ts';
import type { FollowStore } from '../home/follows.ts';
import type { LinenService } from '../linen.ts';
import type { Surface } from '../surface.ts';
import { PLAIN_SURFACE } from '../surface.ts';
import { errorView, shareFooter } from '../views/common.ts';
import { helpView, unknownView, usageView } from '../views/help.ts';
import { describeError, friendlyError, isExpected } from './friendly-errors.ts';
import { type AnswerOutcome, outcomeOfError } from './outcome.ts';

export interface AnswerContext {
  linen: LinenService;
  logger?: ServiceLogger | undefined;
  now?: (() => number) | undefined;
  /** The platform the answer is shown on (its name and words; default plain words). */
  surface?: Surface | undefined;
  /** What `/linen digest ...` needs; absent: digests are not available. */
  digests?: DigestDeps | undefined;
  /** What `/linen alert ...` needs besides what digests need; absent: alerts are not available. */
  alerts?: AlertDeps | undefined;
  /** Where `home` keeps what each person follows; absent: the home shows every customer and offers no choice. */
  home?: HomeDeps | undefined;
  /** Who typed the command, and where (digest management needs both). */
  caller?: Caller | undefined;
  /** The commands answered (default every command: `COMMAND_REGISTRY`). */
  commands?: CommandRegistry | undefined;
}

export interface Caller {
  userId: string;
  /** The platform the person typed on (what they follow on their home is kept per platform). */
  platform?: Platform | undefined;
  channelId: string;
  orgId?: string | null | undefined;
  channelName?: string | null | undefined;
  serviceUrl?: string | null | undefined;
  /** Typed in a direct conversation with the bot. */
  privateChat?: boolean | undefined;
}

export interface DigestDeps {
  /** The platform new subscriptions are posted on. */
  platform: Platform;
  /** The digest store (opened on first use in console mode). */
  store: () => Promise<DigestStore>;
  /** Checks the bot can post in a channel and resolves `#name`. */
  channels: DigestChannels;
  /** `keyRefOf(LINEN_API_KEY)`: what new subscriptions store; undefined without a key. */
  keyRef: string | undefined;
  /** Key references the worker can read with (default: `[keyRef]`). */
  keyRefs?: readonly string[] | undefined;
  /** The platform's users who alone may manage digests (Slack's LINEN_ADMIN_USER_IDS); none: anyone may. */
  adminUserIds?: readonly string[] | undefined;
  /** Null when an answer of the access class may be posted in the conversation; otherwise the sentence refusing it. */
  refuseAccess?: ((access: AccessClass, channelId: string, privateChat: boolean) => Rich | null) | undefined;
  /** Null when a digest of this kind may be posted in the channel; otherwise the sentence that refuses it. */
  refuseKind?: ((kind: DigestKind, channelId: string) => Rich | null) | undefined;
  /** The key bound to a digest's channel (installed workspaces bind keys per channel). */
  keyForChannel?: DigestCommandContext['keyForChannel'] | undefined;
}

/** Alerts: their store, how often keys are checked, and a way to have the worker deliver at once (a test post). */
export interface AlertDeps {
  store: () => Promise<AlertStore>;
  /** ALERTS_POLL_SECONDS, in ms. */
  pollMs: number;
  wake?: (() => void) | undefined;
}

/** What each person follows on their home, in the service's database. */
export interface HomeDeps {
  follows: () => Promise<FollowStore>;
}

/** What every platform's `digest` commands share; each adapter adds its platform, its channels and its admins. */
export type SharedDigestDeps = Omit<DigestDeps, 'platform' | 'channels' | 'adminUserIds'>;

export interface Answer {
  content: Content;
  /** Whether the answer may be posted for everyone (data answers; not errors, help or choices). */
  shareable: boolean;
  /** What became of the command, for the metrics (see `outcome.ts`). */
  outcome: AnswerOutcome;
}

/** Any command a registry parsed. */
type ParsedText = ReturnType<CommandRegistry['parse']>;

async function run(cmd: ParsedText, ctx: AnswerContext, commands: CommandRegistry): Promise<Answer> {
  const surface = ctx.surface ?? PLAIN_SURFACE;
  if (isUnknown(cmd)) return info(unknownView(surface, commands, cmd.typed));
  if (isUsage(cmd)) {
    const module = commands.find(cmd.subcommand);
    return info(module ? usageView(surface, module, cmd.problem) : helpView(surface, commands));
  }
  const module = commands.find(cmd.kind);
  if (!module) return info(unknownView(surface, commands, cmd.kind));
  // A connection command is answered where the organization is known (connections/answer-in-place.ts).
  if (module.connection) return info(errorView(singleKey(surface)));
  const context: CommandContext = {
    ...ctx,
    surface,
    commands,
    commandFor: (customerId) => commands.format(commands.withCustomer(cmd, customerId)),
    usage: (problem) => usageView(surface, module, problem),
  };
  return module.answer(argsOf(cmd), context);
}

/** The answer to a parsed command; failures become one friendly sentence (and one log line). */
async function answer(cmd: ParsedText, ctx: AnswerContext, commands: CommandRegistry): Promise<Answer> {
  try {
    return await run(cmd, ctx, commands);
  } catch (err) {
    const sentence = friendlyError(err);
    const line = `/linen ${commands.format(cmd)} failed: ${describeError(err)}`;
    if (isExpected(err)) ctx.logger?.info(line, failureFields(err));
    else ctx.logger?.error(line, failureFields(err));
    return { content: errorView(sentence), shareable: false, outcome: outcomeOfError(err) };
  }
}

export interface AnswerTextOptions {
  /** Add the "Share in channel" button to shareable answers (default true). */
  share?: boolean | undefined;
}

/** Parse, answer, and add the share action to an answer that may be shared. */
export async function answerText(
  text: string,
  ctx: AnswerContext,
  opts: AnswerTextOptions = {},
): Promise<{ content: Content; shareable: boolean; command: string; outcome: AnswerOutcome }> {
  const commands = ctx.commands ?? COMMAND_REGISTRY;
  const cmd = commands.parse(text);
  const a = await answer(cmd, ctx, commands);
  const command = commands.format(cmd);
  const parts = a.shareable && opts.share !== false ? [...a.content.parts, shareFooter(command)] : a.content.parts;
  return { content: { ...a.content, parts }, shareable: a.shareable, command, outcome: a.outcome };
}
