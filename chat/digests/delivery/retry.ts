/** A delivery call retried as its failure says: backoff for transient ones, the wait of a rate limit. */
import { DeliveryError, type FailureReader } from './delivery.ts';

export interface RetryOptions {
  /** Attempts after the first for transient errors (default 3). */
  retries?: number;
  /** First backoff (default 500 ms), doubling. */
  baseDelayMs?: number;
  /** Longest Retry-After honoured inside one attempt (default 60 s); longer waits give the run back. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Calls `fn`, retrying transient errors with backoff and rate limits after their Retry-After. */
export async function withRetry<T>(fn: () => Promise<T>, reader: FailureReader, opts: RetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? 3;
  const wait = opts.sleep ?? sleep;
  let delay = opts.baseDelayMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const f = err instanceof DeliveryError ? err.failure : reader.classify(err);
      const failed = () => (err instanceof DeliveryError ? err : new DeliveryError(f, err, reader.platform));
      if (f.kind === 'permanent' || attempt >= retries) throw failed();
      if (f.kind === 'ratelimited') {
        if (f.retryAfterMs > (opts.maxRetryAfterMs ?? 60_000)) throw failed();
        await wait(f.retryAfterMs);
      } else {
        await wait(delay);
        delay *= 2;
      }
    }
  }
}
