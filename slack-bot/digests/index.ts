/**
 * The digest worker: ticks every `tickMs`, each tick materializing, claiming and delivering due digests.
 * Safe to run on several replicas against one PostgreSQL database.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { LinenClient } from '../../shared/index.ts';
import { type Clock, systemClock } from './clock.ts';
import { consoleLogger, DigestEngine, type EngineOptions, type Logger } from './engine.ts';
import { runDigestTick, type TickResult } from './runner.ts';
import { ChannelPacer, type SlackClient } from './slack.ts';
import type { DigestStore } from './storage/types.ts';

export type { Clock } from './clock.ts';
export { runDigestCommand } from './digest-answers.ts';
export { clientsByKeyRef, keyRefOf } from './key-ref.ts';
export { type DigestStore, openDigestStore } from './storage/index.ts';

export interface DigestWorkerOptions {
  store: DigestStore;
  slack: SlackClient;
  /** The client for a subscription's key reference (see `clientsByKeyRef`). */
  linenClientFor: (keyRef: string) => LinenClient;
  clock?: Clock;
  /** Default 30 s. */
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
  let running: Promise<TickResult> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

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
  const loop = () => {
    if (stopped) return;
    tick()
      .catch(() => {})
      .finally(() => {
        if (!stopped) timer = setTimeout(loop, options.tickMs ?? 30_000);
      });
  };
  timer = setTimeout(loop, 0);
  return {
    workerId,
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await (running ?? Promise.resolve()).catch(() => {});
    },
  };
}
