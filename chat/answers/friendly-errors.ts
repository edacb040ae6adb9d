/**
 * Every failure as one sentence a person in Slack or Teams can act on. Never a stack trace, never the key: the texts come
 * from the shared client's `userMessage` (already scrubbed of the key) or are written here.
 */

import { DataFolderInUseError, StoreUnavailableError } from '../../base/store/errors.ts';
import {
  AuthenticationError,
  ConnectionError,
  InternalServerError,
  InvalidParamsError,
  LinenError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  SCOPE_LABELS,
  TimeoutError,
} from '../../shared/errors.ts';
import { NoKeyError } from '../linen.ts';

export interface ErrorContext {
  /** What was being looked up, for a not-found answer ("ticket TKT-26-00417"). */
  subject?: string | undefined;
}

export function friendlyError(err: unknown, ctx: ErrorContext = {}): string {
  if (err instanceof NoKeyError) return err.userMessage;
  if (err instanceof AuthenticationError) {
    return "This workspace's Linen API key was rejected (revoked or mistyped); ask whoever runs the bot to replace LINEN_API_KEY.";
  }
  if (err instanceof PermissionDeniedError) {
    if (err.scope) return `This workspace's key has no ${SCOPE_LABELS[err.scope] ?? err.scope} access.`;
    return err.userMessage;
  }
  if (err instanceof NotFoundError) {
    if (ctx.subject) return `No ${ctx.subject} is visible to this workspace's Linen key.`;
    return err.userMessage;
  }
  if (err instanceof InvalidParamsError && err.status === undefined) {
    // Refused before any request (a kind, a department, a number): its message is already the sentence.
    const t = err.message.trim();
    return /[.!?]$/.test(t) ? t : `${t}.`;
  }
  if (err instanceof RateLimitError) return err.userMessage;
  if (err instanceof InternalServerError) {
    return err.requestId
      ? `The Linen API is having trouble right now; try again later, and quote request ${err.requestId} to support if it persists.`
      : 'The Linen API is having trouble right now; try again later.';
  }
  if (err instanceof TimeoutError) return notAnswering(err.requestId);
  if (err instanceof ConnectionError) {
    return 'The Linen API could not be reached just now; try again in a minute.';
  }
  if (err instanceof LinenError) return err.userMessage;
  // `/linen digest ...` with the digest database down, or its folder held by another bot process.
  if (err instanceof StoreUnavailableError || err instanceof DataFolderInUseError) return err.userMessage;
  return 'Something went wrong while answering; try again in a moment.';
}

/** Whether an error is an expected answer (logged at info) rather than a fault of the bot (logged as error). */
export function isExpected(err: unknown): boolean {
  return err instanceof LinenError;
}

/** One log line about an error: its class, code and request id, never a stack or a header. */
export function describeError(err: unknown): string {
  if (err instanceof LinenError) {
    return `${err.name} code=${err.code}${err.status ? ` status=${err.status}` : ''}${err.requestId ? ` request_id=${err.requestId}` : ''}: ${err.message}`;
  }
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/** What a person sees when the Linen API does not answer in time (a hung request, or the command's deadline). */
export function notAnswering(requestId?: string | undefined): string {
  return requestId
    ? `The Linen API is not answering right now (request ${requestId}); try again in a few minutes.`
    : 'The Linen API is not answering right now; try again in a few minutes.';
}
