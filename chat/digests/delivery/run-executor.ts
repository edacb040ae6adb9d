/**
 * Carrying one claimed run to its end exactly once across replicas sharing one database, whatever posts it (a
 * digest's scheduled run, an alert's post): `posting` (lease renewed) just before the platform's post, then `posted`
 * with the message's id, every update conditional on still owning the claim. A run taken over while `posting` may
 * already be in its channel: where the platform can tell (Slack's history, searched for the run id carried in the
 * message's metadata) it is looked for before anything is posted; where it cannot (Teams), it is not posted again
 * (at most once). Failures end as `run-failures.ts` says.
 */
import type { Content } from '../../content/document.ts';
import type { Clock } from '../clock.ts';
import { RunFailures } from '../run-failures.ts';
import type { Platform, ShownRecord, SubscriptionStatus } from '../storage/types.ts';
import type { ChannelPacer } from './channel-pacer.ts';
import { DeliveryError, type DigestDelivery } from './delivery.ts';
import { type RetryOptions, sleep, withRetry } from './retry.ts';

/** The code of a post that may have gone out where the channel cannot be searched for it. */
const UNSURE = 'unsure';

export interface Logger {
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
}
export const silentLogger: Logger = { info: () => {}, warn: () => {} };

/** `released`: given back unclaimed at shutdown, for another replica (or the next start) to take. */
export type RunOutcome = 'posted' | 'recovered' | 'quiet' | 'skipped' | 'failed' | 'retry' | 'lost' | 'released';

/** What a run executor reports (the service's metrics). */
export interface RunObserver {
  /** A run's attempt ended; `lateMs` (after its due instant) when this attempt posted it. */
  runEnded?(event: {
    kind: string;
    outcome: RunOutcome;
    lateMs?: number | undefined;
    platform?: Platform | undefined;
  }): void;
  /** Its owner stopped: `code` is the platform's error code, `linen_auth`, `linen_key_missing` or `uninstalled`. */
  subscriptionStopped?(code: string, platform?: Platform): void;
}

/** A run claimed from its store: a digest's scheduled run, or an alert's post. */
export interface ExecutableRun {
  id: string;
  status: string;
  /** When it was due (a digest's scheduled instant, the check that found an alert's news). */
  scheduledFor: Date;
  attempts: number;
  channelId: string | null;
  error: string | null;
}

/** What owns a run: a digest subscription, or an alert. */
export interface RunOwner {
  id: string;
  status: SubscriptionStatus;
  kind: string;
  platform: Platform;
  /** The Slack workspace or the Microsoft 365 tenant. */
  orgId: string | null;
  channelId: string;
  serviceUrl: string | null;
  createdBy: string;
  /** `alert` for an alert (its creator is told of an alert, and how to resume it); default `digest`. */
  noun?: 'digest' | 'alert' | undefined;
  /**
   * Others of the same creator that stopped at the same time for the same reason (the alerts of a revoked key):
   * told in the same sentence, so that a creator gets one message, not one per alert.
   */
  together?: readonly Pick<RunOwner, 'id' | 'channelId'>[] | undefined;
}

/** What a run posts: the content, whether there is nothing to post, and what it showed (digests compare with it). */
export interface RunPost extends Content {
  quiet: boolean;
  shown: ShownRecord[];
}

/** The writes of a run's delivery, each conditional on the claim (a digest store, an alert store). */
export interface RunStore {
  beginPosting(runId: string, workerId: string, now: Date, leaseMs: number, channelId: string): Promise<boolean>;
  completeRun(
    runId: string,
    workerId: string,
    now: Date,
    outcome: { status: 'posted' | 'quiet'; messageTs: string | null; shown: readonly ShownRecord[] },
  ): Promise<boolean>;
  endRun(runId: string, workerId: string, now: Date, status: 'skipped' | 'failed', error: string): Promise<boolean>;
  releaseRun(runId: string, workerId: string, retryAt: Date, error: string): Promise<void>;
  giveBackRuns(
    runIds: readonly string[],
    workerId: string,
    statuses: readonly ('claimed' | 'posting')[],
  ): Promise<string[]>;
  /** Marks the owner failing; true only for the call that moved it there (its creator is told once). */
  markFailing(ownerId: string, reason: string, now: Date): Promise<boolean>;
}

export interface ExecutorOptions {
  store: RunStore;
  clock: Clock;
  workerId: string;
  /** A run due longer ago than this is skipped. */
  graceMs: number;
  /** How long a claim is held before another replica may take the run over (default 120 s). */
  leaseMs?: number | undefined;
  /** Attempts before a run is given up as failed (default 5). */
  maxAttempts?: number | undefined;
  /** Delay before a run whose attempt failed transiently is tried again (default 60 s). */
  retryDelayMs?: number | undefined;
  logger?: Logger | undefined;
  retry?: RetryOptions | undefined;
  observer?: RunObserver | undefined;
  /** `a digest`, `an alert`: how log lines name what is posted. */
  noun?: string | undefined;
  /** Test seams around the post: called after the platform answered the post, before it is recorded. */
  hooks?:
    | {
        afterPost?(run: ExecutableRun, ts: string): Promise<void> | void;
        beforePost?(run: ExecutableRun): Promise<void> | void;
      }
    | undefined;
}

/** A run that can never be built by this service (a kind it does not know): it ends failed, its owner untouched. */
export class UnbuildableRunError extends Error {
  override name = 'UnbuildableRunError';
}

/** A wait cut short because the worker is stopping. */
class StopRequested extends Error {
  override name = 'StopRequested';
}

/** Where a run's message can be in its channel's history: from a minute before it was due. */
const historyFrom = (run: ExecutableRun) => new Date(run.scheduledFor.getTime() - 60_000);

export class RunExecutor<
  R extends ExecutableRun = ExecutableRun,
  O extends RunOwner = RunOwner,
  Post extends RunPost = RunPost,
> {
  readonly store: RunStore;
  readonly clock: Clock;
  readonly workerId: string;
  readonly graceMs: number;
  readonly leaseMs: number;
  readonly logger: Logger;
  /** `a digest`, `an alert`; and what owns a run, in log lines. */
  readonly noun: string;
  readonly owner: string;
  readonly #stopping = new AbortController();
  /** The retry settings of a run's platform calls, with waits that end when the worker stops. */
  readonly #retry: RetryOptions;
  readonly #failures: RunFailures;

  constructor(private readonly opts: ExecutorOptions) {
    this.store = opts.store;
    this.clock = opts.clock;
    this.workerId = opts.workerId;
    this.graceMs = opts.graceMs;
    this.leaseMs = opts.leaseMs ?? 120_000;
    this.logger = opts.logger ?? silentLogger;
    this.noun = opts.noun ?? 'a digest';
    this.owner = this.noun === 'an alert' ? 'alert' : 'subscription';
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
  async #giveBack(run: R): Promise<RunOutcome> {
    await this.store.giveBackRuns([run.id], this.workerId, ['claimed', 'posting']);
    this.logger.info(`gave ${this.noun} run back at shutdown`, { run: run.id });
    return 'released';
  }

  /**
   * Carries one claimed run to its end (or back to the queue). `digest` builds the message; it is called only
   * when the run is still to be sent.
   */
  async execute(
    run: R,
    sub: O | null,
    digest: () => Promise<Post>,
    deliveryOf: () => Promise<DigestDelivery | null>,
    pacer: ChannelPacer,
  ): Promise<RunOutcome> {
    const outcome = await this.#execute(run, sub, digest, deliveryOf, pacer).catch((err: unknown) => {
      // The store could not record the outcome (a database restart): the run keeps its lease and is taken again
      // when it ends; a `posting` run then looks for its message in the channel before posting.
      this.logger.warn(`could not record ${this.noun} run; it is taken again when its lease ends`, {
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
    run: R,
    sub: O | null,
    digest: () => Promise<Post>,
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
        sub ? `${this.owner} ${sub.status}` : `${this.owner} deleted`,
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
      let built: Post | null = null;
      const getDigest = async () => (built ??= await digest());
      if (run.status === 'posting') {
        // A previous attempt may have reached the channel before its replica died: look for the run id first, where
        // the platform can tell; where it cannot, it is not posted again.
        if (!delivery.findsPosted) return this.#failures.unsure(run, sub);
        const ts = await retried(() => delivery.findPosted(channel, run.id, historyFrom(run)));
        if (ts) {
          const d = await getDigest().catch(() => null);
          await store.completeRun(run.id, workerId, now(), { status: 'posted', messageTs: ts, shown: d?.shown ?? [] });
          this.logger.info(`found ${this.noun} already posted by a previous attempt`, { run: run.id, ts });
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
        this.logger.warn(`skipped ${this.noun} not sent within the grace period`, {
          run: run.id,
          [this.owner]: sub.id,
        });
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
        | { quiet: Post['shown'] }
        | { lost: true }
        | { released: true }
        | { posted: string; shown: Post['shown'] };
      const stopping = () => this.#stopping.signal.aborted;
      const turn = await pacer.runPrepared<Post, Turn>(
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

  #failed(run: R, sub: O, err: unknown, delivery: DigestDelivery | null): Promise<RunOutcome> {
    // A retry wait cut short at shutdown: the last attempt failed, so no post of it is under way.
    if (err instanceof StopRequested) return this.#giveBack(run);
    return this.#failures.failed(run, sub, err, delivery);
  }
}
