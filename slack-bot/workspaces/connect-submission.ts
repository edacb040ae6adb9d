/**
 * The `linen_connect` modal's submission: check the fields, check the key against the API, save it sealed and
 * answer with what it can see (`response_action: update`), or put one sentence on the field at fault
 * (`response_action: errors`). The key is never logged or echoed.
 */

import { describeError } from '../../chat/answers/friendly-errors.ts';
import { EVERYWHERE, isDirectMessage, lastFourOf } from '../../chat/connections/connection.ts';
import type { ConnectionStore } from '../../chat/connections/connection-store.ts';
import { type CheckKeyOptions, checkKey } from '../../chat/connections/key-check.ts';
import type { BotLogger } from '../../chat/logging/logger.ts';
import { isValidTimeZone } from '../../shared/dates.ts';
import { AuthenticationError, ConnectionError, LinenError, TimeoutError } from '../../shared/errors.ts';
import { ADMINS_ONLY } from './admins.ts';
import { type ConnectMetadata, connectedView, FIELD } from './connect-modal.ts';

type StateValue = { value?: string | null; selected_option?: { value?: string } | null };

export interface SubmittedView {
  private_metadata?: string;
  state: { values: Record<string, Record<string, StateValue>> };
}

export interface ConnectSubmissionContext {
  teamId: string;
  /** The workspace's Enterprise Grid organization, when it has one. */
  enterpriseId?: string | undefined;
  userId: string;
  connections: ConnectionStore;
  allowedBaseUrls: readonly string[];
  isAdmin: () => Promise<boolean>;
  createClient?: CheckKeyOptions['createClient'];
  /** Called with the key as soon as it is read, so the log scrubber knows it. */
  onSecret?: ((secret: string) => void) | undefined;
  logger?: BotLogger | undefined;
  now?: (() => number) | undefined;
}

export type SubmissionAnswer =
  | { response_action: 'errors'; errors: Record<string, string> }
  | { response_action: 'update'; view: ReturnType<typeof connectedView> };

const fieldError = (field: string, sentence: string): SubmissionAnswer => ({
  response_action: 'errors',
  errors: { [field]: sentence },
});

function fieldValue(view: SubmittedView, field: string): string | undefined {
  const v = view.state.values[field]?.[field];
  const raw = v?.selected_option?.value ?? v?.value ?? undefined;
  const t = raw?.trim();
  return t ? t : undefined;
}

function keyProblem(err: unknown, baseUrl: string): string {
  if (err instanceof AuthenticationError) return 'The Linen API rejected this key; check it and paste it again.';
  if (err instanceof ConnectionError || err instanceof TimeoutError)
    return `The Linen API at ${baseUrl} did not answer in time; try again in a minute.`;
  if (err instanceof LinenError) return err.userMessage;
  return 'The key could not be checked just now; try again in a minute.';
}

export async function submitConnect(view: SubmittedView, ctx: ConnectSubmissionContext): Promise<SubmissionAnswer> {
  const apiKey = fieldValue(view, FIELD.apiKey);
  if (apiKey) ctx.onSecret?.(apiKey);
  if (!(await ctx.isAdmin())) return fieldError(FIELD.apiKey, ADMINS_ONLY);
  if (!apiKey) return fieldError(FIELD.apiKey, 'Paste the Linen API key.');
  if (/\s/.test(apiKey)) return fieldError(FIELD.apiKey, 'The key contains spaces or line breaks; paste it again.');

  const baseUrl = fieldValue(view, FIELD.baseUrl) ?? ctx.allowedBaseUrls[0]!;
  if (!ctx.allowedBaseUrls.includes(baseUrl)) {
    return fieldError(FIELD.baseUrl, `This bot only connects to ${ctx.allowedBaseUrls.join(', ')}.`);
  }
  const timeZone = fieldValue(view, FIELD.timeZone);
  if (!timeZone || !isValidTimeZone(timeZone)) {
    return fieldError(FIELD.timeZone, 'Give an IANA timezone such as America/Chicago.');
  }
  let metadata: Partial<ConnectMetadata> = {};
  try {
    metadata = JSON.parse(view.private_metadata || '{}') as ConnectMetadata;
  } catch {
    // A modal without its metadata binds the workspace default.
  }
  const chosen = fieldValue(view, FIELD.place) ?? EVERYWHERE;
  // Only the default or the channel the modal was opened in: a forged place binds the default.
  const place =
    chosen !== EVERYWHERE && chosen === metadata.channelId && !isDirectMessage(chosen) ? chosen : EVERYWHERE;

  let report: Awaited<ReturnType<typeof checkKey>>;
  try {
    report = await checkKey({ apiKey, baseUrl, timeZone, createClient: ctx.createClient });
  } catch (err) {
    ctx.logger?.info(`connect for ${ctx.teamId}: the key was refused: ${describeError(err)}`);
    return fieldError(FIELD.apiKey, keyProblem(err, baseUrl));
  }
  const now = new Date((ctx.now ?? Date.now)());
  const saved = await ctx.connections.saveKey(
    ctx.teamId,
    { place, apiKey, baseUrl, timeZone, scopes: report.scopes, connectedBy: ctx.userId },
    now,
    ctx.enterpriseId,
  );
  ctx.logger?.info(
    `connect for ${ctx.teamId}: key ${saved.keyRef} bound to ${place} by ${ctx.userId} (${report.scopes.join(', ') || 'no scope'})`,
  );
  return {
    response_action: 'update',
    view: connectedView({ lastFour: lastFourOf(apiKey), place, customers: report.customers, scopes: report.scopes }),
  };
}
