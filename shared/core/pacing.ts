/**
 * Client-side pacing: a sliding-window limiter so one client never sends more than `limit` requests in any
 * `windowMs`. The state (send times) sits behind `PacingStore`, so Apps Script can keep it in CacheService
 * and share it between executions; by default it lives in memory, shared by all operations of one client.
 */

export interface PacingOptions {
  /** Requests allowed per window (the API allows 120 per minute per key). */
  limit: number;
  windowMs: number;
  /** Extra wait after a slot frees, absorbing the delay between our send and the server's count. */
  marginMs?: number;
  store?: PacingStore;
}

export interface PacingState {
  /** Epoch ms of the requests sent inside the current window, oldest first. */
  sent: number[];
  /** Nothing may be sent before this instant (set from a 429's Retry-After). */
  blockedUntil: number;
}

export interface PacingStore {
  load(): PacingState;
  save(state: PacingState): void;
}

export function memoryPacingStore(): PacingStore {
  let state: PacingState = { sent: [], blockedUntil: 0 };
  return {
    load: () => state,
    save: (s) => {
      state = s;
    },
  };
}

export const DEFAULT_PACING = { limit: 120, windowMs: 60_000, marginMs: 250 } as const;

/**
 * Pure step: given the state and the time, either take a slot (wait 0, new state records `now`) or say how
 * long to wait until one frees.
 */
export function pacingStep(
  state: PacingState,
  nowMs: number,
  opts: { limit: number; windowMs: number; marginMs: number },
): { waitMs: number; state: PacingState } {
  const sent = state.sent.filter((t) => t > nowMs - opts.windowMs);
  if (state.blockedUntil > nowMs) return { waitMs: state.blockedUntil - nowMs, state: { ...state, sent } };
  if (sent.length < opts.limit) {
    sent.push(nowMs);
    return { waitMs: 0, state: { sent, blockedUntil: state.blockedUntil } };
  }
  // The window is full: the slot of the (length - limit + 1)-th oldest request frees first.
  const oldest = sent[sent.length - opts.limit] as number;
  return { waitMs: oldest + opts.windowMs - nowMs + opts.marginMs, state: { ...state, sent } };
}

export class Pacer {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  private readonly store: PacingStore;

  constructor(opts: PacingOptions) {
    if (!(opts.limit >= 1) || !(opts.windowMs > 0)) throw new RangeError('pacing needs limit >= 1 and windowMs > 0');
    this.limit = Math.floor(opts.limit);
    this.windowMs = opts.windowMs;
    this.marginMs = opts.marginMs ?? DEFAULT_PACING.marginMs;
    this.store = opts.store ?? memoryPacingStore();
  }

  /** Take a slot now (returns 0) or return the wait before trying again. */
  tryAcquire(nowMs: number): number {
    const { waitMs, state } = pacingStep(this.store.load(), nowMs, this);
    this.store.save(state);
    return waitMs;
  }

  /** After a 429: send nothing before `untilMs`. */
  blockUntil(untilMs: number): void {
    const s = this.store.load();
    if (untilMs > s.blockedUntil) this.store.save({ ...s, blockedUntil: untilMs });
  }
}
