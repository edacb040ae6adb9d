/**
 * A digest worker on the env's manual clock: its waits are the clock's timers, each one recorded (`waits`, in ms)
 * and, like each tick, announced to `waitFor`, so a test can move the clock and wait for the worker to keep up.
 */
import type { Timers } from '../../chat/digests/clock.ts';
import type { DigestWorkerOptions } from '../../chat/digests/index.ts';
import { type DigestEnv, startEnvWorker } from './digest-env.ts';
import { createWaiters } from './waiters.ts';

export function startManualClockWorker(
  env: DigestEnv,
  options: Pick<DigestWorkerOptions, 'tickMs' | 'claimLimit' | 'onTick'>,
) {
  const { notify, waitFor } = createWaiters();
  const waits: number[] = [];
  const timers: Timers = {
    after: (ms, fn) => {
      waits.push(ms);
      const handle = env.clock.after(ms, fn);
      notify();
      return handle;
    },
    cancel: (handle) => env.clock.cancel(handle),
  };
  const worker = startEnvWorker(env, {
    timers,
    ...options,
    onTick: (r) => {
      options.onTick?.(r);
      notify();
    },
  });
  return { worker, waits, waitFor };
}
