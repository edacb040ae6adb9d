/**
 * Connecting a Linen key, whatever form it came from (Slack's modal, a Teams card): the fields checked, the key
 * checked against the API (its customers, and which scopes work), then saved sealed and bound to its place. A
 * problem is one sentence for the field at fault. The key is never logged or echoed.
 */

import type { ServiceLogger } from '../../base/logging/logger.ts';
import { isValidTimeZone } from '../../shared/dates.ts';
import { AuthenticationError, ConnectionError, LinenError, TimeoutError } from '../../shared/errors.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import { describeError } from '../answers/friendly-errors.ts';
import type { Platform } from '../digests/storage/types.ts';
import { lastFourOf, type Scope } from './connection.ts';
import type { ConnectionStore } from './connection-store.ts';
import { type CheckKeyOptions, checkKey } from './key-check.ts';

export type ConnectField = 'apiKey' | 'baseUrl' | 'timeZone';

export interface ConnectInput {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  timeZone?: string | undefined;
  /** `EVERYWHERE` or the channel the key is for (the platform checked it may be bound there). */
  place: string;
}

export interface ConnectKeyContext {
  platform: Platform;
  orgId: string;
  /** A Slack workspace's Enterprise Grid organization, when it has one. */
  enterpriseId?: string | undefined;
  userId: string;
  userName?: string | null | undefined;
  connections: ConnectionStore;
  allowedBaseUrls: readonly string[];
  isAdmin: () => Promise<boolean>;
  /** The sentence refusing someone who may not connect. */
  adminsOnly: string;
  createClient?: CheckKeyOptions['createClient'];
  /** Called with the key as soon as it is read, so the log scrubber knows it. */
  onSecret?: ((secret: string) => void) | undefined;
  logger?: ServiceLogger | undefined;
  now?: (() => number) | undefined;
}

export type ConnectResult =
  | { ok: true; lastFour: string; place: string; customers: Customer[]; scopes: Scope[] }
  | { ok: false; field: ConnectField; sentence: string };

const problem = (field: ConnectField, sentence: string): ConnectResult => ({ ok: false, field, sentence });

function keyProblem(err: unknown, baseUrl: string): string {
  if (err instanceof AuthenticationError) return 'The Linen API rejected this key; check it and paste it again.';
  if (err instanceof ConnectionError || err instanceof TimeoutError)
    return `The Linen API at ${baseUrl} did not answer in time; try again in a minute.`;
  if (err instanceof LinenError) return err.userMessage;
  return 'The key could not be checked just now; try again in a minute.';
}

export async function connectKey(input: ConnectInput, ctx: ConnectKeyContext): Promise<ConnectResult> {
  const apiKey = input.apiKey?.trim() || undefined;
  if (apiKey) ctx.onSecret?.(apiKey);
  if (!(await ctx.isAdmin())) return problem('apiKey', ctx.adminsOnly);
  if (!apiKey) return problem('apiKey', 'Paste the Linen API key.');
  if (/\s/.test(apiKey)) return problem('apiKey', 'The key contains spaces or line breaks; paste it again.');

  const baseUrl = input.baseUrl?.trim() || ctx.allowedBaseUrls[0]!;
  if (!ctx.allowedBaseUrls.includes(baseUrl)) {
    return problem('baseUrl', `This bot only connects to ${ctx.allowedBaseUrls.join(', ')}.`);
  }
  const timeZone = input.timeZone?.trim();
  if (!timeZone || !isValidTimeZone(timeZone)) {
    return problem('timeZone', 'Give an IANA timezone such as America/Chicago.');
  }

  let report: Awaited<ReturnType<typeof checkKey>>;
  try {
    report = await checkKey({ apiKey, baseUrl, timeZone, createClient: ctx.createClient });
  } catch (err) {
    ctx.logger?.info(`connect for ${ctx.orgId}: the key was refused: ${describeError(err)}`);
    return problem('apiKey', keyProblem(err, baseUrl));
  }
  const now = new Date((ctx.now ?? Date.now)());
  const saved = await ctx.connections.saveKey(
    ctx.orgId,
    {
      place: input.place,
      apiKey,
      baseUrl,
      timeZone,
      scopes: report.scopes,
      connectedBy: ctx.userId,
      connectedByName: ctx.userName ?? null,
    },
    now,
    { enterpriseId: ctx.enterpriseId, platform: ctx.platform },
  );
  ctx.logger?.info(
    `connect for ${ctx.orgId}: key ${saved.keyRef} bound to ${input.place} by ${ctx.userId} (${report.scopes.join(', ') || 'no scope'})`,
  );
  return {
    ok: true,
    lastFour: lastFourOf(apiKey),
    place: input.place,
    customers: report.customers,
    scopes: report.scopes,
  };
}
