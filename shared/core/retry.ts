/**
 * Pure retry policy: which failures are worth another attempt and how long to wait before it.
 */
import {
  ConnectionError,
  InternalServerError,
  LinenError,
  RateLimitError,
  ResponseShapeError,
  TimeoutError,
} from '../errors.ts';

export interface RetryPolicy {
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, initialDelayMs: 500, maxDelayMs: 8_000 };

/** 429, 5xx, connection failures, timeouts and unreadable bodies are transient; every other 4xx is not. */
export function isRetryable(err: unknown): boolean {
  if (err instanceof RateLimitError) return err.status === 429;
  if (err instanceof InternalServerError) return true;
  if (err instanceof ConnectionError || err instanceof TimeoutError) return true;
  // A 200 whose body is not JSON at all is a damaged transfer, worth one more try; a JSON body of the wrong
  // shape is not (it would come back the same).
  if (err instanceof ResponseShapeError) return err.field === '(body)';
  return false;
}

/** Parse `Retry-After`: delta seconds (what the Linen API sends) or an HTTP date. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Capped exponential backoff with jitter: the attempt'th retry (0-based) waits
 * min(max, initial * 2^attempt) scaled by a factor in (0.75, 1].
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** attempt);
  return Math.round(base * (1 - random() * 0.25));
}

export type RetryDecision = { retry: true; delayMs: number } | { retry: false };

/**
 * Decide after a failed attempt. `attempt` is the number of retries already made; `remainingMs` what is
 * left of the call's time budget. A server-given Retry-After wins over the computed backoff; when the wait
 * would not fit in the budget, give up now with the last error rather than fail later.
 */
export function decideRetry(
  err: unknown,
  attempt: number,
  policy: RetryPolicy,
  remainingMs: number,
  random: () => number,
): RetryDecision {
  if (!(err instanceof LinenError) || !isRetryable(err)) return { retry: false };
  if (attempt >= policy.maxRetries) return { retry: false };
  const hinted = err instanceof RateLimitError ? err.retryAfterMs : undefined;
  const delayMs = hinted !== undefined ? hinted + Math.round(random() * 100) : backoffDelay(attempt, policy, random);
  if (delayMs >= remainingMs) return { retry: false };
  return { retry: true, delayMs };
}
