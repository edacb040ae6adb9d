/**
 * Client-side pacing: a sliding-window limiter so one key never sends more than `limit` requests in any
 * `windowMs`. The state (the instants the requests count from) sits behind `PacingStore`, so Apps Script can keep
 * it in CacheService and share it between executions; by default it lives in memory, shared by all operations of
 * one client. A pacer shared by several processes (a database row) implements `RequestPacer` and may answer
 * with promises; the async runner waits for them.
 *
 * A request counts from its answer by default: the server counted it somewhere between our send and its answer,
 * so dating the slot by the answer is the earliest instant that is never too early, whatever the round trip.
 * Dating it by the send (plus `marginMs`) saves a second store write per request, which suits Apps Script.
 */

/** What `acquire` answers: `waitMs` 0 means the slot is taken and `slot` names it for `settle`. */
export interface PaceAnswer {
  waitMs: number;
  slot: number;
  /** With a slot taken: the requests counted in the key's window then, this one included (for observers). */
  used?: number | undefined;
}

/** How much of the window a request may use. */
export interface AcquireOptions {
  /**
   * Slots of every window this request leaves free for others (background work leaves some to the requests of a
   * person waiting): it takes a slot only while fewer than `limit - reserve` are used. Default 0.
   */
  reserve?: number | undefined;
}

/** What the core asks of a pacer, through the `pace` effect (see `effects.ts`). */
export interface RequestPacer {
  readonly limit: number;
  readonly windowMs: number;
  /** Take a slot at `nowMs`, or say how long to wait before asking again. */
  acquire(nowMs: number, options?: AcquireOptions): PaceAnswer | Promise<PaceAnswer>;
  /** The request on `slot` was answered (or failed) at `nowMs`: the server has counted it by then. */
  settle(slot: number, nowMs: number): void | Promise<void>;
  /** After a 429 at `nowMs`: send nothing for `forMs`. */
  blockFor(nowMs: number, forMs: number): void | Promise<void>;
}

export interface PacingOptions {
  /** Requests allowed per window (the API allows 120 per minute per key). */
  limit: number;
  windowMs: number;
  /**
   * `answer` (default): a slot is dated by the request's answer. `send`: by its send, plus `marginMs` for the
   * delay between our send and the server's count; no second store write per request.
   */
  countFrom?: 'answer' | 'send';
  /** Extra wait after a slot frees (default 250 ms counting from the send, 5 ms from the answer: clock rounding). */
  marginMs?: number;
  store?: PacingStore;
}

export interface PacingState {
  /** Epoch ms each request inside the current window counts from, oldest first. */
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

export const DEFAULT_PACING = { limit: 120, windowMs: 60_000 } as const;

/** The limit a request may fill up to: the window's limit less what it leaves to others (at least one slot). */
export function limitLeaving(limit: number, options: AcquireOptions | undefined): number {
  return Math.max(1, limit - Math.max(0, Math.floor(options?.reserve ?? 0)));
}

/** A quarter of every window is left to interactive requests by background work of the same key. */
export const BACKGROUND_RESERVE_SHARE = 0.25;

/**
 * The same pacer, seen by background work (digests, alert checks): it leaves a quarter of every window (30 of the
 * API's 120 a minute) to the requests of people waiting on the same key, so a command is not queued behind a check.
 */
export function backgroundPacer(
  pacer: RequestPacer,
  reserve = Math.ceil(pacer.limit * BACKGROUND_RESERVE_SHARE),
): RequestPacer {
  return {
    limit: pacer.limit,
    windowMs: pacer.windowMs,
    acquire: (nowMs, options) => pacer.acquire(nowMs, { reserve: Math.max(reserve, options?.reserve ?? 0) }),
    settle: (slot, nowMs) => pacer.settle(slot, nowMs),
    blockFor: (nowMs, forMs) => pacer.blockFor(nowMs, forMs),
  };
}
const SEND_MARGIN_MS = 250;
const ANSWER_MARGIN_MS = 5;

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

/**
 * Pure step: the request that took its slot at `slot` was answered at `nowMs`; it now counts from `nowMs`.
 * Should its slot have left the window already (a round trip longer than the window), the answer still counts.
 */
export function settleStep(state: PacingState, slot: number, nowMs: number, windowMs: number): PacingState {
  const sent = state.sent.filter((t) => t > nowMs - windowMs);
  const at = sent.indexOf(slot);
  if (at >= 0) sent.splice(at, 1);
  let i = sent.length;
  while (i > 0 && (sent[i - 1] as number) > nowMs) i--;
  sent.splice(i, 0, nowMs);
  return { sent, blockedUntil: state.blockedUntil };
}

/** The in-process pacer: a sliding window over a synchronous store (memory, or Apps Script's cache). */
export class Pacer implements RequestPacer {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  readonly countFrom: 'answer' | 'send';
  private readonly store: PacingStore;

  constructor(opts: PacingOptions) {
    if (!(opts.limit >= 1) || !(opts.windowMs > 0)) throw new RangeError('pacing needs limit >= 1 and windowMs > 0');
    this.limit = Math.floor(opts.limit);
    this.windowMs = opts.windowMs;
    this.countFrom = opts.countFrom ?? 'answer';
    this.marginMs = opts.marginMs ?? (this.countFrom === 'send' ? SEND_MARGIN_MS : ANSWER_MARGIN_MS);
    this.store = opts.store ?? memoryPacingStore();
  }

  /** Take a slot now (returns 0) or return the wait before trying again. */
  tryAcquire(nowMs: number): number {
    return this.acquire(nowMs).waitMs;
  }

  acquire(nowMs: number, options?: AcquireOptions): PaceAnswer {
    const limits = { limit: limitLeaving(this.limit, options), windowMs: this.windowMs, marginMs: this.marginMs };
    const { waitMs, state } = pacingStep(this.store.load(), nowMs, limits);
    this.store.save(state);
    return { waitMs, slot: nowMs, used: state.sent.length };
  }

  settle(slot: number, nowMs: number): void {
    if (this.countFrom === 'send') return;
    this.store.save(settleStep(this.store.load(), slot, nowMs, this.windowMs));
  }

  /** After a 429: send nothing before `untilMs`. */
  blockUntil(untilMs: number): void {
    const s = this.store.load();
    if (untilMs > s.blockedUntil) this.store.save({ ...s, blockedUntil: untilMs });
  }

  blockFor(nowMs: number, forMs: number): void {
    this.blockUntil(nowMs + forMs);
  }
}
