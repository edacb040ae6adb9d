/**
 * Sliding-window rate limit per key: at most `limit` accepted requests in any `windowMs`.
 * Requests answered 429 are not counted. Runs on a monotonic clock.
 */
import { performance } from 'node:perf_hooks';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

export type RateLimitResult =
  | { ok: true; headers: Record<string, string> }
  | { ok: false; retryAfter: number; headers: Record<string, string> };

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly clock: () => number;

  constructor(
    private readonly options: RateLimitOptions,
    clock: () => number = () => performance.now(),
  ) {
    this.clock = clock;
  }

  /** Counts one request for `keyId` if a slot is free. */
  take(keyId: string): RateLimitResult {
    const now = this.clock();
    const { limit, windowMs } = this.options;
    let list = this.hits.get(keyId);
    if (!list) {
      list = [];
      this.hits.set(keyId, list);
    }
    const cutoff = now - windowMs;
    let drop = 0;
    while (drop < list.length && list[drop]! <= cutoff) drop++;
    if (drop > 0) list.splice(0, drop);

    const untilOldestLeaves = (): number =>
      list.length === 0 ? 0 : Math.max(0, Math.ceil((list[0]! + windowMs - now) / 1000));

    if (list.length >= limit) {
      const retryAfter = Math.max(1, untilOldestLeaves());
      return {
        ok: false,
        retryAfter,
        headers: {
          'Retry-After': String(retryAfter),
          'X-RateLimit-Limit': String(limit),
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': String(retryAfter),
        },
      };
    }
    list.push(now);
    return {
      ok: true,
      headers: {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': String(Math.max(0, limit - list.length)),
        'X-RateLimit-Reset': String(untilOldestLeaves()),
      },
    };
  }

  reset(): void {
    this.hits.clear();
  }
}
