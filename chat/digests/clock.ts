/**
 * The only source of "now" and of waits for the digest engine. Production uses the system clock and timers;
 * tests drive a manual clock, whose timers fire when it is moved past them.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Waits the worker schedules (its next tick). */
export interface Timers {
  after(ms: number, fn: () => void): unknown;
  cancel(handle: unknown): void;
}

export const systemTimers: Timers = {
  after: (ms, fn) => setTimeout(fn, ms),
  cancel: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A clock that only moves when told to; timers set on it fire, in time order, as it moves past them. */
export class ManualClock implements Clock, Timers {
  #ms: number;
  #timers: { at: number; fn: () => void; id: number }[] = [];
  #next = 1;
  constructor(start: Date | number | string) {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  /** Moves to `to`; returns how many timers fired. */
  set(to: Date | number | string): number {
    this.#ms = new Date(to).getTime();
    return this.#fire();
  }
  advance(ms: number): number {
    return this.set(this.#ms + ms);
  }
  after(ms: number, fn: () => void): unknown {
    const id = this.#next++;
    this.#timers.push({ at: this.#ms + Math.max(0, ms), fn, id });
    return id;
  }
  cancel(handle: unknown): void {
    this.#timers = this.#timers.filter((t) => t.id !== handle);
  }
  /** Timers not fired yet. */
  get pending(): number {
    return this.#timers.length;
  }
  #fire(): number {
    let fired = 0;
    for (;;) {
      const due = this.#timers.filter((t) => t.at <= this.#ms).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) return fired;
      this.#timers = this.#timers.filter((t) => t !== due);
      due.fn();
      fired++;
    }
  }
}
