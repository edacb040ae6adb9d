/**
 * Exactly-once execution of scheduled digests across replicas sharing one database.
 *
 * 1. Materialize: active subscriptions whose `next_run_at` has passed (locked with SKIP LOCKED) get one run row
 *    per scheduled instant, unique on (subscription, instant); instants older than the grace period are
 *    inserted as `skipped` and logged.
 * 2. Claim: runs due and unleased (or whose lease expired: a dead replica) are claimed with SKIP LOCKED and a
 *    lease. A run claimed while in `posting` may already be in its channel: where the platform can tell (Slack's
 *    history, searched for the run id carried in message metadata) it is looked for before anything is posted;
 *    where it cannot (Teams), it is not posted again (at most once).
 * 3. Post and record: `posting` (lease renewed), the platform's post, then `posted` with the message id.
 *    Every update is conditional on still owning the claim.
 */

import type { Clock } from './clock.ts';
import type { ChannelPacer } from './delivery/channel-pacer.ts';
import type { DigestDelivery } from './delivery/delivery.ts';
import type { RetryOptions } from './delivery/retry.ts';
import { type Logger, RunExecutor, type RunObserver, type RunOutcome, silentLogger } from './delivery/run-executor.ts';
import type { Digest } from './digest.ts';
import { runsBetween } from './schedule.ts';
import type { DigestRun, DigestStore, MaterializePlan, Subscription } from './storage/types.ts';

export type { Logger, RunOutcome } from './delivery/run-executor.ts';
export { silentLogger } from './delivery/run-executor.ts';

export const DEFAULT_GRACE_MS = 2 * 60 * 60 * 1000;

export const consoleLogger: Logger = {
  info: (m, d) => console.log(`[digests] ${m}`, d ?? ''),
  warn: (m, d) => console.warn(`[digests] ${m}`, d ?? ''),
};

export interface EngineOptions {
  store: DigestStore;
  clock: Clock;
  workerId: string;
  /** A run missed by less than this is sent late; older ones are skipped (default 2 h). */
  graceMs?: number;
  /** How long a claim is held before another replica may take the run over (default 120 s). */
  leaseMs?: number;
  /** Attempts before a run is given up as failed (default 5). */
  maxAttempts?: number;
  /** Delay before a run whose attempt failed transiently is tried again (default 60 s). */
  retryDelayMs?: number;
  logger?: Logger;
  retry?: RetryOptions;
  /** Told how each run ended and when a subscription stops (the bot's metrics). */
  observer?: DigestObserver | undefined;
  /** Test seams around the post: called after the platform answered the post, before it is recorded. */
  hooks?: {
    afterPost?(run: DigestRun, ts: string): Promise<void> | void;
    beforePost?(run: DigestRun): Promise<void> | void;
  };
}

/** What the digest worker reports (the service's metrics). */
export type DigestObserver = RunObserver;

/** What to insert for a due subscription: every instant since its `next_run_at`, old ones skipped. */
export function planRuns(
  sub: Subscription,
  now: Date,
  graceMs: number,
  logger: Logger = silentLogger,
): MaterializePlan {
  const start = sub.nextRunAt ?? now;
  const instants = [start, ...runsBetween(sub, start, now, 10_000)].filter((d) => d.getTime() <= now.getTime());
  const runs = instants.map((at) => {
    const late = now.getTime() - at.getTime();
    if (late <= graceMs) return { scheduledFor: at, status: 'pending' as const };
    logger.warn('skipping a digest missed beyond the grace period', {
      subscription: sub.id,
      scheduledFor: at.toISOString(),
      lateMs: late,
    });
    return {
      scheduledFor: at,
      status: 'skipped' as const,
      error: `missed by ${Math.round(late / 60000)} min (grace ${Math.round(graceMs / 60000)} min)`,
    };
  });
  return { runs, nextRunAt: runsBetween(sub, now, new Date(now.getTime() + 400 * 86_400_000), 1)[0] ?? null };
}

export class DigestEngine {
  readonly store: DigestStore;
  readonly clock: Clock;
  readonly workerId: string;
  readonly graceMs: number;
  readonly leaseMs: number;
  readonly logger: Logger;
  readonly #executor: RunExecutor<DigestRun, Subscription, Digest>;

  constructor(opts: EngineOptions) {
    this.store = opts.store;
    this.clock = opts.clock;
    this.workerId = opts.workerId;
    this.graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.logger = opts.logger ?? silentLogger;
    this.#executor = new RunExecutor({ ...opts, graceMs: this.graceMs, logger: this.logger, noun: 'a digest' });
    this.leaseMs = this.#executor.leaseMs;
  }

  /**
   * Shutdown: from now on a run not yet posting is given back instead of built and posted, and a run waiting to
   * retry (a 5xx, a rate limit) stops waiting and is given back; a post already sent is let finish.
   */
  stopTaking(): void {
    this.#executor.stopTaking();
  }

  async materialize(limit = 1000): Promise<{ created: number; skipped: number }> {
    const now = this.clock.now();
    return this.store.materializeDue(now, limit, (s) => planRuns(s, now, this.graceMs, this.logger));
  }

  /**
   * `pacingMs`: the gap between two messages to one channel; a channel's runs are claimed only as far as half
   * the lease covers at that pace, so a claimed run goes out before its lease ends.
   */
  claim(limit = 500, pacingMs = 0): Promise<DigestRun[]> {
    const turnsPerChannel = pacingMs > 0 ? Math.max(1, Math.floor(this.leaseMs / 2 / pacingMs)) : null;
    return this.store.claimRuns(this.workerId, this.clock.now(), this.leaseMs, limit, { turnsPerChannel });
  }

  /**
   * Carries one claimed run to its end (or back to the queue). `digest` builds the message; it is called only
   * when the run is still to be sent.
   */
  execute(
    run: DigestRun,
    sub: Subscription | null,
    digest: () => Promise<Digest>,
    deliveryOf: () => Promise<DigestDelivery | null>,
    pacer: ChannelPacer,
  ): Promise<RunOutcome> {
    return this.#executor.execute(run, sub, digest, deliveryOf, pacer);
  }
}
