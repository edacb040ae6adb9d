/**
 * The alert worker's clock in a service under test (`StartOptions.alerts.clock`): a ManualClock whose timers are the
 * worker's own. The worker arms its next wait only once a tick has ended (its checks recorded, its posts delivered),
 * so moving the clock and waiting for the next wait to be armed is waiting for that tick: no sleep, no polling.
 */
import { type Clock, ManualClock, type Timers } from '../../chat/digests/clock.ts';
import { createWaiters } from './waiters.ts';

export interface AlertClock {
  /** What the service takes as the alert worker's clock and timers. */
  readonly clock: Clock & Timers;
  now(): Date;
  /** The waits the worker armed so far, in ms. */
  readonly waits: readonly number[];
  /** Moves the clock by `ms`; resolves once the tick it started (if it started one) has ended. */
  advance(ms: number): Promise<void>;
  /** One check: the clock moved by the poll interval, and the worker's tick ended. */
  check(): Promise<void>;
  /** The clock moved by the poll interval, the tick it started left running (a test stops the worker in it). */
  startCheck(): void;
  /** Moves the clock to `at` (never back); resolves once the tick it started (if any) has ended. */
  set(at: Date | number | string): Promise<void>;
}

export function alertClock(start: Date | number | string, pollMs: number): AlertClock {
  const manual = new ManualClock(start);
  const waiters = createWaiters();
  const waits: number[] = [];
  const clock: Clock & Timers = {
    now: () => manual.now(),
    after(ms, fn) {
      waits.push(ms);
      const handle = manual.after(ms, fn);
      waiters.notify();
      return handle;
    },
    cancel: (handle) => manual.cancel(handle),
  };
  const moved = async (move: () => number) => {
    const armed = waits.length;
    // The worker's loop is its only timer: it fires at most once per move, and arms the next wait when its tick ends.
    if (move() === 0) return;
    await waiters.waitFor(() => (waits.length > armed ? true : undefined), 60_000, "the alert worker's tick");
  };
  return {
    clock,
    now: () => manual.now(),
    waits,
    advance: (ms) => moved(() => manual.advance(ms)),
    check: () => moved(() => manual.advance(pollMs)),
    startCheck: () => void manual.advance(pollMs),
    set: (at) => moved(() => manual.set(Math.max(manual.now().getTime(), new Date(at).getTime()))),
  };
}
