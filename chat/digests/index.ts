/**
 * The digest worker: each tick materializes, claims and delivers due digests; the next tick is set for the next
 * due time the store knows (so a digest for 07:00 goes out at 07:00, not up to a tick later), and at most
 * `tickMs` away (subscriptions another replica adds are seen within it). Safe to run on several replicas
 * against one PostgreSQL database.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { settlesWithin } from '../../base/settles-within.ts';
import type { LinenClient } from '../../shared/index.ts';
import { type Clock, systemClock, systemTimers, type Timers } from './clock.ts';
import { ChannelPacer } from './delivery/channel-pacer.ts';
import type { DeliveryFor } from './delivery/delivery.ts';
import { consoleLogger, DigestEngine, type EngineOptions, type Logger } from './engine.ts';
import type { DigestKinds } from './kinds/index.ts';
import { type ClaimedTick, claimDigestTick, DEFAULT_CLAIM_LIMIT, type KeySnapshot, type TickResult } from './runner.ts';
import { RunsInFlight } from './runs-in-flight.ts';
import { SharedBuilds } from './shared-builds.ts';
import type { DigestStore } from './storage/types.ts';

export type { Clock, Timers } from './clock.ts';
export { runDigestCommand } from './digest-answers.ts';
export type { DigestStore } from './storage/index.ts';

/** A tick lands this long after a due time (timers may fire a hair early against the wall clock). */
const DUE_MARGIN_MS = 10;
/** The shortest wait, when something is already due that this worker could not claim (another replica holds it). */
const MIN_WAIT_MS = 1000;
/**
 * Claims' worth of runs under way at once: enough for every channel of a large backlog to have its next digest
 * waiting for its pacing slot, while the built messages held in memory stay bounded.
 */
const DEFAULT_RUNS_IN_FLIGHT_PER_CLAIM = 10;

export interface DigestWorkerOptions {
  store: DigestStore;
  /** Each subscription's delivery, by its platform and workspace or tenant. */
  deliveries: DeliveryFor;
  /** The client for a subscription's key reference (see `clientsByKeyRef`). */
  linenClientFor: (keyRef: string) => LinenClient | Promise<LinenClient>;
  clock?: Clock;
  /** Where the waits between ticks come from (default: Node's timers; tests pass a manual clock). */
  timers?: Timers;
  /** The longest wait between two ticks (default 30 s); ticks come sooner when a digest is due sooner. */
  tickMs?: number;
  /** A run missed by less than this is sent late (default 2 h; the bot passes `LINEN_DIGEST_GRACE_MINUTES`). */
  graceMs?: number;
  leaseMs?: number;
  /** Minimum gap between two messages to one channel (default 1000 ms). */
  pacingMs?: number;
  /** The pace of each channel, shared with whatever else posts there (alerts); default: one of `pacingMs`. */
  pacer?: ChannelPacer;
  workerId?: string;
  logger?: Logger;
  claimLimit?: number;
  /** Claimed runs under way at once before the next claim of a backlog waits (default 10 claims' worth). */
  maxRunsInFlight?: number;
  hooks?: EngineOptions['hooks'];
  observer?: EngineOptions['observer'];
  retry?: EngineOptions['retry'];
  onTick?: (r: TickResult) => void;
  /** The digest kinds runs are built by (default: the service's). */
  kinds?: DigestKinds;
}

export interface DigestWorker {
  readonly workerId: string;
  /** Runs one tick now (its claim waits for a running one's) and resolves once its runs are delivered. */
  tick(): Promise<TickResult>;
  /**
   * Stops ticking and waits for the deliveries under way to finish. With `drainMs` (shutdown), runs that have not
   * started posting are given back at once, and after `drainMs` any still waiting is given back too; only posts
   * already sent are waited for, and one still unanswered then keeps its lease (its taker searches the channel).
   */
  stop(options?: { drainMs?: number }): Promise<void>;
}

export function startDigestWorker(options: DigestWorkerOptions): DigestWorker {
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const logger = options.logger ?? consoleLogger;
  const engine = new DigestEngine({
    store: options.store,
    clock: options.clock ?? systemClock,
    workerId,
    graceMs: options.graceMs,
    leaseMs: options.leaseMs,
    logger,
    hooks: options.hooks,
    observer: options.observer,
    retry: options.retry,
  });
  const pacer = options.pacer ?? new ChannelPacer(options.pacingMs ?? 1000);
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const claimLimit = options.claimLimit ?? DEFAULT_CLAIM_LIMIT;
  const maxInFlight = options.maxRunsInFlight ?? DEFAULT_RUNS_IN_FLIGHT_PER_CLAIM * claimLimit;
  // Shared by the ticks that work through one backlog (see TickDeps.keySnapshots); renewed once it is done.
  let keySnapshots = new Map<string, KeySnapshot>();
  let builds = new SharedBuilds();
  const inFlight = new RunsInFlight();
  // Deliveries under way; `stop` waits for them all.
  const deliveries = new Set<Promise<TickResult>>();
  let claiming: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let timer: unknown = null;

  /** Claims one batch (claims take turns); its delivery goes on in the background and is reported to `onTick`. */
  const claimTick = (): Promise<ClaimedTick> => {
    const next = claiming
      .catch(() => null)
      .then(() =>
        claimDigestTick({
          engine,
          deliveries: options.deliveries,
          linenClientFor: options.linenClientFor,
          pacer,
          claimLimit,
          keySnapshots,
          builds,
          inFlight,
          kinds: options.kinds,
        }),
      )
      .then((claimed) => {
        const { delivered } = claimed;
        deliveries.add(delivered);
        void delivered
          .then(
            (r) => options.onTick?.(r),
            (e) => logger.warn('digest tick failed', { error: String(e) }),
          )
          .finally(() => deliveries.delete(delivered));
        return claimed;
      });
    claiming = next;
    next.catch((e) => logger.warn('digest tick failed', { error: String(e) }));
    return next;
  };
  const allDelivered = async () => {
    while (deliveries.size) await Promise.allSettled([...deliveries]);
  };
  /** Until the next due time (a few ms after it), at most `tickMs`, at least a second when one is overdue. */
  const nextWait = async (): Promise<number> => {
    const max = options.tickMs ?? 30_000;
    const due = await options.store.nextDueAt().catch(() => null);
    if (!due) return max;
    return Math.min(max, Math.max(MIN_WAIT_MS, due.getTime() - clock.now().getTime() + DUE_MARGIN_MS));
  };
  /**
   * A full batch leaves more due runs behind: the next claim follows at once, on the same key data, while this
   * batch goes out (as long as fewer than `maxRunsInFlight` runs are under way). A short one ends the backlog:
   * its deliveries finish before the next due time is read.
   */
  const afterClaim = async (claimed: ClaimedTick | undefined): Promise<number> => {
    if (claimed && claimed.claimed >= claimLimit) {
      await inFlight.below(maxInFlight);
      return 0;
    }
    await allDelivered();
    keySnapshots = new Map();
    builds = new SharedBuilds();
    return nextWait();
  };
  const loop = () => {
    if (stopped) return;
    claimTick()
      .catch(() => undefined)
      .then(afterClaim)
      .then((ms) => {
        if (!stopped) timer = timers.after(ms, loop);
      });
  };
  timer = timers.after(0, loop);
  return {
    workerId,
    tick: () => claimTick().then((t) => t.delivered),
    async stop(stopOptions = {}) {
      stopped = true;
      if (timer !== null) timers.cancel(timer);
      const { drainMs } = stopOptions;
      if (drainMs === undefined) {
        await claiming.catch(() => {});
        await allDelivered();
        return;
      }
      engine.stopTaking();
      await claiming.catch(() => {});
      if (await settlesWithin(allDelivered(), drainMs)) return;
      // Still building or waiting for a slot: unclaimed now (a later write of theirs no longer owns the run).
      const given = await options.store.giveBackRuns([...inFlight.ids()], workerId, ['claimed']).catch(() => []);
      logger.warn('stopped with digest runs under way', {
        givenBack: given.length,
        stillPosting: inFlight.size - given.length,
      });
    },
  };
}
