/**
 * The digest worker: each tick materializes, claims and delivers due digests; the next tick is set for the next
 * due time the store knows (so a digest for 07:00 goes out at 07:00, not up to a tick later), and at most
 * `tickMs` away (subscriptions another replica adds are seen within it). Safe to run on several replicas
 * against one PostgreSQL database.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LinenClient } from '../../shared/index.ts';
import { type Clock, systemClock, systemTimers, type Timers } from './clock.ts';
import { consoleLogger, DigestEngine, type EngineOptions, type Logger } from './engine.ts';
import { runDigestTick, type TickResult } from './runner.ts';
import { ChannelPacer, type SlackClient } from './slack.ts';
import type { DigestStore } from './storage/types.ts';

export type { Clock, Timers } from './clock.ts';
export { runDigestCommand } from './digest-answers.ts';
export { clientsByKeyRef, keyRefOf } from './key-ref.ts';
export { type DigestStore, openDigestStore } from './storage/index.ts';

/** A tick lands this long after a due time (timers may fire a hair early against the wall clock). */
const DUE_MARGIN_MS = 10;
/** The shortest wait, when something is already due (another replica holds it, or the claim limit was hit). */
const MIN_WAIT_MS = 1000;

export interface DigestWorkerOptions {
  store: DigestStore;
  slack: SlackClient;
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
  workerId?: string;
  logger?: Logger;
  claimLimit?: number;
  hooks?: EngineOptions['hooks'];
  retry?: EngineOptions['retry'];
  onTick?: (r: TickResult) => void;
}

export interface DigestWorker {
  readonly workerId: string;
  /** Runs one tick now (waits for a running one first). */
  tick(): Promise<TickResult>;
  /** Stops ticking and waits for the current tick to finish. */
  stop(): Promise<void>;
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
    retry: options.retry,
  });
  const pacer = new ChannelPacer(options.pacingMs ?? 1000);
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  let running: Promise<TickResult> | null = null;
  let stopped = false;
  let timer: unknown = null;

  const tick = (): Promise<TickResult> => {
    const prev = running ?? Promise.resolve(null);
    const next = prev
      .catch(() => null)
      .then(() =>
        runDigestTick({
          engine,
          slack: options.slack,
          linenClientFor: options.linenClientFor,
          pacer,
          claimLimit: options.claimLimit,
        }),
      );
    running = next;
    void next.then(
      (r) => options.onTick?.(r),
      (e) => logger.warn('digest tick failed', { error: String(e) }),
    );
    void next
      .finally(() => {
        if (running === next) running = null;
      })
      .catch(() => {});
    return next;
  };
  /** Until the next due time (a few ms after it), at most `tickMs`, at least a second when one is overdue. */
  const nextWait = async (): Promise<number> => {
    const max = options.tickMs ?? 30_000;
    const due = await options.store.nextDueAt().catch(() => null);
    if (!due) return max;
    return Math.min(max, Math.max(MIN_WAIT_MS, due.getTime() - clock.now().getTime() + DUE_MARGIN_MS));
  };
  const loop = () => {
    if (stopped) return;
    tick()
      .catch(() => {})
      .then(nextWait)
      .then((ms) => {
        if (!stopped) timer = timers.after(ms, loop);
      });
  };
  timer = timers.after(0, loop);
  return {
    workerId,
    tick,
    async stop() {
      stopped = true;
      if (timer !== null) timers.cancel(timer);
      await (running ?? Promise.resolve()).catch(() => {});
    },
  };
}
