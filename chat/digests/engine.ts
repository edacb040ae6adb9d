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
import { DeliveryError, type DigestDelivery } from './delivery/delivery.ts';
import { type RetryOptions, sleep, withRetry } from './delivery/retry.ts';
import type { Digest } from './digest.ts';
import { RunFailures } from './run-failures.ts';
import { runsBetween } from './schedule.ts';
import type { DigestRun, DigestStore, MaterializePlan, Platform, Subscription } from './storage/types.ts';

export const DEFAULT_GRACE_MS = 2 * 60 * 60 * 1000;

/** The code of a post that may have gone out where the channel cannot be searched for it. */
const UNSURE = 'unsure';

export interface Logger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
}
export const consoleLogger: Logger = {
  info: (m, d) => console.log(`[digests] ${m}`, d ?? ''),
  warn: (m, d) => console.warn(`[digests] ${m}`, d ?? ''),
};
export const silentLogger: Logger = { info: () => {}, warn: () => {} };

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

/** `released`: given back unclaimed at shutdown, for another replica (or the next start) to take. */
export type RunOutcome = 'posted' | 'recovered' | 'quiet' | 'skipped' | 'failed' | 'retry' | 'lost' | 'released';

export interface DigestObserver {
  /** A run's attempt ended; `lateMs` (after its scheduled instant) when this attempt posted it. */
  runEnded?(event: {
    kind: string;
    outcome: RunOutcome;
    lateMs?: number | undefined;
    platform?: Platform | undefined;
  }): void;
  /** A subscription stopped: `code` is the platform's error code, `linen_auth`, `linen_key_missing` or `uninstalled`. */
  subscriptionStopped?(code: string, platform?: Platform): void;
}

/** A wait cut short because the worker is stopping. */
class StopRequested extends Error {
  override name = 'StopRequested';
}

/** Where a run's message can be in its channel's history: from a minute before its scheduled instant. */
const historyFrom = (run: DigestRun) => new Date(run.scheduledFor.getTime() - 60_000);

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
  readonly #stopping = new AbortController();
  /** The retry settings of a run's platform calls, with waits that end when the worker stops. */
  readonly #retry: RetryOptions;
  readonly #failures: RunFailures;
  constructor(private readonly opts: EngineOptions) {
    this.store = opts.store;
    this.clock = opts.clock;
    this.workerId = opts.workerId;
    this.graceMs = opts.graceMs ?? DEFAULT_GRACE_MS;
    this.leaseMs = opts.leaseMs ?? 120_000;
    this.logger = opts.logger ?? silentLogger;
    this.#retry = { ...opts.retry, sleep: this.#interruptible(opts.retry?.sleep ?? sleep) };
    this.#failures = new RunFailures({ ...opts, logger: this.logger });
  }

  /**
   * Shutdown: from now on a run not yet posting is given back instead of built and posted, and a run waiting to
   * retry (a 5xx, a rate limit) stops waiting and is given back; a post already sent is let finish.
   */
  stopTaking(): void {
    this.#stopping.abort();
  }

  #interruptible(wait: (ms: number) => Promise<void>): (ms: number) => Promise<void> {
    const signal = this.#stopping.signal;
    return (ms) =>
      new Promise<void>((resolve, reject) => {
        if (signal.aborted) return reject(new StopRequested());
        const stop = () => reject(new StopRequested());
        signal.addEventListener('abort', stop, { once: true });
        wait(ms).then(
          () => {
            signal.removeEventListener('abort', stop);
            resolve();
          },
          (err: unknown) => {
            signal.removeEventListener('abort', stop);
            reject(err);
          },
        );
      });
  }

  /** Back to the queue, unclaimed, for another replica: nothing of it is in the platform's hands. */
  async #giveBack(run: DigestRun): Promise<RunOutcome> {
    await this.store.giveBackRuns([run.id], this.workerId, ['claimed', 'posting']);
    this.logger.info('gave a digest run back at shutdown', { run: run.id });
    return 'released';
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
  async execute(
    run: DigestRun,
    sub: Subscription | null,
    digest: () => Promise<Digest>,
    deliveryOf: () => Promise<DigestDelivery | null>,
    pacer: ChannelPacer,
  ): Promise<RunOutcome> {
    const outcome = await this.#execute(run, sub, digest, deliveryOf, pacer).catch((err: unknown) => {
      // The store could not record the outcome (a database restart): the run keeps its lease and is taken again
      // when it ends; a `posting` run then looks for its message in the channel before posting.
      this.logger.warn('could not record a digest run; it is taken again when its lease ends', {
        run: run.id,
        error: err instanceof Error ? err.message : String(err),
      });
      return 'lost' as const;
    });
    const lateMs = outcome === 'posted' ? this.clock.now().getTime() - run.scheduledFor.getTime() : undefined;
    this.opts.observer?.runEnded?.({ kind: sub?.kind ?? 'deleted', outcome, lateMs, platform: sub?.platform });
    return outcome;
  }

  async #execute(
    run: DigestRun,
    sub: Subscription | null,
    digest: () => Promise<Digest>,
    deliveryOf: () => Promise<DigestDelivery | null>,
    pacer: ChannelPacer,
  ): Promise<RunOutcome> {
    const { store, workerId } = this;
    const now = () => this.clock.now();
    if (this.#stopping.signal.aborted) return this.#giveBack(run);
    if (sub?.status !== 'active') {
      await store.endRun(
        run.id,
        workerId,
        now(),
        'skipped',
        sub ? `subscription ${sub.status}` : 'subscription deleted',
      );
      return 'skipped';
    }
    // The subscription's workspace's delivery (a rotating token is refreshed first); none: the app is uninstalled.
    const resolved = await deliveryOf().then(
      (delivery) => ({ delivery }),
      (error: unknown) => ({ error }),
    );
    if ('error' in resolved) return this.#failed(run, sub, resolved.error, null);
    const delivery = resolved.delivery;
    if (!delivery) return this.#failures.uninstalled(run, sub);
    const channel = run.channelId ?? sub.channelId;
    const retried = <T>(fn: () => Promise<T>) => withRetry(fn, delivery, this.#retry);
    try {
      let built: Digest | null = null;
      const getDigest = async () => (built ??= await digest());
      if (run.status === 'posting') {
        // A previous attempt may have reached the channel before its replica died: look for the run id first, where
        // the platform can tell; where it cannot, it is not posted again.
        if (!delivery.findsPosted) return this.#failures.unsure(run, sub);
        const ts = await retried(() => delivery.findPosted(channel, run.id, historyFrom(run)));
        if (ts) {
          const d = await getDigest().catch(() => null);
          await store.completeRun(run.id, workerId, now(), { status: 'posted', messageTs: ts, shown: d?.shown ?? [] });
          this.logger.info('found a digest already posted by a previous attempt', { run: run.id, ts });
          return 'recovered';
        }
      }
      const late = now().getTime() - run.scheduledFor.getTime();
      if (late > this.graceMs) {
        await store.endRun(
          run.id,
          workerId,
          now(),
          'skipped',
          `not sent within the grace period (late by ${Math.round(late / 60000)} min)`,
        );
        this.logger.warn('skipped a digest not sent within the grace period', { run: run.id, subscription: sub.id });
        return 'skipped';
      }
      if (run.attempts > (this.opts.maxAttempts ?? 5)) {
        await store.endRun(
          run.id,
          workerId,
          now(),
          'failed',
          `gave up after ${run.attempts - 1} attempts: ${run.error ?? ''}`,
        );
        return 'failed';
      }
      // The digest is built in its turn in the channel's queue, while the slot's spacing wait runs: a batch's later
      // turns do not hold up its first ones, and the messages waiting for their slot are not all held at once. A
      // quiet digest is recorded without taking a slot. Otherwise the run is marked `posting` during the wait (a
      // crash before the post leaves a `posting` run, which a takeover checks the channel history for); the slot
      // covers the post only, so the next message to the channel waits for pacing, not for our bookkeeping.
      type Turn =
        | { quiet: Digest['shown'] }
        | { lost: true }
        | { released: true }
        | { posted: string; shown: Digest['shown'] };
      const stopping = () => this.#stopping.signal.aborted;
      const turn = await pacer.runPrepared<Digest, Turn>(
        channel,
        async () => {
          // At shutdown a run that has not started posting goes back to the queue (checked again once built).
          if (stopping()) return { skip: { released: true } };
          const d = await getDigest();
          if (d.quiet) return { skip: { quiet: d.shown } };
          if (stopping()) return { skip: { released: true } };
          if (!delivery.findsPosted) return { send: d };
          const marked = await store.beginPosting(run.id, workerId, now(), this.leaseMs, channel);
          return marked ? { send: d } : { skip: { lost: true } };
        },
        async (d): Promise<Turn> => {
          if (!delivery.findsPosted) {
            // Where a post cannot be looked for afterwards, `posting` is marked as late as it can be: in the slot,
            // just before the post, so that a worker stopped in between loses as little as possible.
            if (stopping()) return { released: true };
            if (!(await store.beginPosting(run.id, workerId, now(), this.leaseMs, channel))) return { lost: true };
          }
          await this.opts.hooks?.beforePost?.(run);
          // After an answer that may hide a message that went out (a 5xx, a dropped connection), the next
          // attempt first looks for it in the channel: a retry never posts the digest twice.
          let uncertain = false;
          const ts = await retried(async () => {
            if (uncertain) {
              const found = await delivery.findPosted(channel, run.id, historyFrom(run));
              if (found) return found;
            }
            try {
              return await delivery.post(channel, d, { runId: run.id, subscriptionId: sub.id });
            } catch (err) {
              const failure = delivery.classify(err);
              if (failure.kind === 'transient' && failure.unsure) {
                // Where the channel cannot be searched, a post that may have gone out is not sent again.
                if (!delivery.findsPosted)
                  throw new DeliveryError({ kind: 'permanent', code: UNSURE }, err, delivery.platform);
                uncertain = true;
              }
              throw err;
            }
          });
          return { posted: ts, shown: d.shown };
        },
      );
      if ('quiet' in turn) {
        await store.completeRun(run.id, workerId, now(), { status: 'quiet', messageTs: null, shown: turn.quiet });
        return 'quiet';
      }
      if ('lost' in turn) return 'lost';
      if ('released' in turn) return this.#giveBack(run);
      const sent = turn.posted;
      await this.opts.hooks?.afterPost?.(run, sent);
      const ok = await store.completeRun(run.id, workerId, now(), {
        status: 'posted',
        messageTs: sent,
        shown: turn.shown,
      });
      if (!ok)
        this.logger.warn('posted, but the claim had been taken over; the new owner will find the message', {
          run: run.id,
        });
      return ok ? 'posted' : 'lost';
    } catch (err) {
      if (err instanceof DeliveryError && err.failure.code === UNSURE) return this.#failures.unsure(run, sub);
      return this.#failed(run, sub, err, delivery);
    }
  }

  #failed(run: DigestRun, sub: Subscription, err: unknown, delivery: DigestDelivery | null): Promise<RunOutcome> {
    // A retry wait cut short at shutdown: the last attempt failed, so no post of it is under way.
    if (err instanceof StopRequested) return this.#giveBack(run);
    return this.#failures.failed(run, sub, err, delivery);
  }
}
