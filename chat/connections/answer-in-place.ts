/**
 * A command (or a button) answered in its workspace: the workspace commands (connect, disconnect, status,
 * access) first; then the connection is resolved for the channel (a workspace that has not connected answers
 * how to connect); accounting answers are refused where they may not appear; then the usual answer, with the
 * channel's key.
 */

import type { Message } from '../../slack-bot/blocks/kit.ts';
import type { SlackClient } from '../../slack-bot/digests/slack.ts';
import type { UsersInfo } from '../../slack-bot/workspaces/admins.ts';
import { type AnswerContext, answerText } from '../answers/answer.ts';
import { parseCommand } from '../answers/grammar.ts';
import type { AnswerOutcome } from '../answers/outcome.ts';
import type { ChannelKey } from '../digests/digest-answers.ts';
import type { BotLogger } from '../logging/logger.ts';
import { errorMessage } from '../views/common.ts';
import { helpMessage } from '../views/help.ts';
import { accountingRefusal, isAccountingDigest, showsAccounting } from './access.ts';
import { runWorkspaceCommand, type ViewsOpen, workspaceWordOf } from './connection-commands.ts';
import type { ConnectionStore } from './connection-store.ts';
import { type AccountingPolicy, NOT_CONNECTED, type Place, type WorkspaceLinen } from './place-linen.ts';

/** What multi-workspace mode adds: the stored connections and who may change them. */
export interface ConnectDeps {
  connections: ConnectionStore;
  /** `LINEN_ADMIN_USER_IDS`: allowed besides the workspace's admins and owners. */
  adminUserIds: readonly string[];
  /** `LINEN_ALLOWED_BASE_URLS` (default: `LINEN_BASE_URL`). */
  allowedBaseUrls: readonly string[];
  /** Offered in the modal (`LINEN_TIMEZONE`); else the admin's own Slack timezone is. */
  defaultTimeZone: string | undefined;
}

export interface WorkspaceDeps extends Omit<AnswerContext, 'linen' | 'caller'> {
  workspaces: WorkspaceLinen;
  /** Present in multi-workspace mode only. */
  connect?: ConnectDeps | undefined;
  logger: BotLogger;
}

export interface CommandRequest extends Place {
  text: string;
  userId: string;
  triggerId?: string | undefined;
  /** The Web API client authorized for the request's workspace. */
  slack: UsersInfo & ViewsOpen & SlackClient;
}

export type Answered = Message & { shareable: boolean; command: string; outcome: AnswerOutcome };

const sentence = (command: string, s: string, outcome: AnswerOutcome): Answered => ({
  ...errorMessage(s),
  shareable: false,
  command,
  outcome,
});

const SINGLE_KEY =
  'This bot answers with the one Linen key it was started with (LINEN_API_KEY); keys are connected from Slack only when the app is installed with Add to Slack.';

/** The answer context for a place, or the sentence that refuses it. */
export async function contextFor(
  deps: WorkspaceDeps,
  req: Place & { userId: string; slack: SlackClient },
  cmd: ReturnType<typeof parseCommand>,
): Promise<{ ctx: AnswerContext; keyRef: string | undefined } | { refusal: string }> {
  const r = await deps.workspaces.for(req);
  if (r.kind === 'not-connected') return { refusal: r.sentence };
  if (showsAccounting(cmd)) {
    const refusal = accountingRefusal(r.accounting, req.channelId);
    if (refusal) return { refusal };
  }
  const digests = deps.digests && {
    ...deps.digests,
    keyRef: r.keyRef,
    keyRefs: r.keyRefs,
    // In multi-workspace mode the digest commands check channels with the workspace's own token, and a digest
    // reads with the key bound to its own channel (which may not be the one the command was typed in).
    ...(deps.connect ? { slack: req.slack, keyForChannel: channelKeys(deps.workspaces, req.teamId) } : {}),
    refuseKind: digestRefusal(r.accounting),
  };
  return {
    ctx: {
      ...deps,
      linen: r.linen,
      digests,
      caller: { userId: req.userId, channelId: req.channelId, teamId: req.teamId ?? null },
    },
    keyRef: r.keyRef,
  };
}

/** A data answer is one the API gave: the key's "last answered" moves (the store throttles the write). */
function noteAnswered(deps: WorkspaceDeps, teamId: string | null | undefined, keyRef: string | undefined): void {
  if (!deps.connect || !teamId || !keyRef) return;
  deps.connect.connections
    .noteAnswered(teamId, keyRef, new Date((deps.now ?? Date.now)()))
    .catch((err: Error) => deps.logger.warn(`could not record when ${teamId}'s key last answered: ${err.message}`));
}

function channelKeys(workspaces: WorkspaceLinen, teamId: string | null | undefined) {
  return async (channelId: string): Promise<ChannelKey | string> => {
    const r = await workspaces.for({ teamId, channelId });
    if (r.kind === 'not-connected' || !r.keyRef) return r.kind === 'not-connected' ? r.sentence : NOT_CONNECTED;
    return { linen: r.linen.client, keyRef: r.keyRef, timeZone: r.linen.timeZone };
  };
}

function digestRefusal(policy: AccountingPolicy) {
  return (kind: Parameters<typeof isAccountingDigest>[0], channelId: string): string | null =>
    isAccountingDigest(kind) ? accountingRefusal(policy, channelId) : null;
}

/** `/linen <text>`; null when a modal was opened and there is nothing to say. Never throws. */
export async function answerCommand(req: CommandRequest, deps: WorkspaceDeps): Promise<Answered | null> {
  try {
    return await answerIn(req, deps);
  } catch (err) {
    deps.logger.error(
      `/linen in ${req.teamId ?? 'the workspace'} failed: ${(err as Error).name}: ${(err as Error).message}`,
    );
    return sentence('unknown', 'Something went wrong while answering; try again in a moment.', 'error');
  }
}

/** A button's command replayed (Share in channel, a customer choice) in its workspace and channel. */
export async function answerButton(
  text: string,
  req: Place & { userId: string; slack: SlackClient },
  deps: WorkspaceDeps,
  opts: { share?: boolean } = {},
): Promise<Answered> {
  try {
    const cmd = parseCommand(text);
    const resolved = await contextFor(deps, req, cmd);
    if ('refusal' in resolved) return sentence(cmd.kind, resolved.refusal, 'refused');
    const answered = await answerText(text, resolved.ctx, opts);
    if (answered.shareable) noteAnswered(deps, req.teamId, resolved.keyRef);
    return answered;
  } catch (err) {
    deps.logger.error(
      `a button in ${req.teamId ?? 'the workspace'} failed: ${(err as Error).name}: ${(err as Error).message}`,
    );
    return sentence('unknown', 'Something went wrong while answering; try again in a moment.', 'error');
  }
}

async function answerIn(req: CommandRequest, deps: WorkspaceDeps): Promise<Answered | null> {
  const word = workspaceWordOf(req.text);
  if (word) {
    if (!deps.connect || !req.teamId) return sentence(word, SINGLE_KEY, 'answered');
    const m = await runWorkspaceCommand(req.text, {
      teamId: req.teamId,
      userId: req.userId,
      channelId: req.channelId,
      triggerId: req.triggerId,
      slack: req.slack,
      connections: deps.connect.connections,
      adminUserIds: deps.connect.adminUserIds,
      allowedBaseUrls: deps.connect.allowedBaseUrls,
      defaultTimeZone: deps.connect.defaultTimeZone,
      now: deps.now,
    });
    return m && { ...m, shareable: false, command: word, outcome: 'answered' };
  }
  const cmd = parseCommand(req.text);
  const resolved = await contextFor(deps, req, cmd);
  if ('refusal' in resolved) {
    // Help stays available before connecting: it says how to connect.
    if (cmd.kind === 'help')
      return { ...helpMessage(resolved.refusal), shareable: false, command: 'help', outcome: 'answered' };
    return sentence(cmd.kind, resolved.refusal, 'refused');
  }
  const answered = await answerText(req.text, resolved.ctx);
  if (answered.shareable) noteAnswered(deps, req.teamId, resolved.keyRef);
  return answered;
}
