/**
 * One key's pacing kept in a PostgreSQL row (`linen_pacing`, keyed by the key's fingerprint), so every replica
 * that uses the key draws from one budget. Each step locks the row, applies the same pure sliding-window step
 * as the in-process pacer (`shared/core/pacing.ts`) on the database server's clock, and writes it back, all in
 * one transaction: replicas whose clocks differ still agree on when a slot frees.
 *
 * Callers of one process take turns (a local queue) and a wait the database has announced is answered locally
 * until it ends, so a burst of waiting commands does not turn into a burst of transactions on the row.
 */
import {
  type AcquireOptions,
  limitLeaving,
  type PaceAnswer,
  type PacingState,
  pacingStep,
  type RequestPacer,
  settleStep,
} from '../../shared/core/pacing.ts';
import type { SqlExecutor } from '../store/sql.ts';

export interface SqlPacerOptions {
  db: SqlExecutor;
  /** A stable, non-secret name of the key (`keyRefOf`); the key itself is never stored. */
  fingerprint: string;
  limit: number;
  windowMs: number;
  /** Extra wait after a slot frees (default 5 ms); slots are dated by the answer, as in the in-process pacer. */
  marginMs?: number;
}

interface Row {
  sent: number[] | null;
  blocked_until: number;
  now: number;
}

export class SqlPacer implements RequestPacer {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  readonly #db: SqlExecutor;
  readonly #fingerprint: string;
  /**
   * Local `Date.now()` before which the database said the key is full, by the limit asked up to (background work
   * stops short of the limit): callers of that limit wait without asking it.
   */
  readonly #fullUntil = new Map<number, number>();
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: SqlPacerOptions) {
    if (!(options.limit >= 1) || !(options.windowMs > 0))
      throw new RangeError('pacing needs limit >= 1 and windowMs > 0');
    this.limit = Math.floor(options.limit);
    this.windowMs = options.windowMs;
    this.marginMs = options.marginMs ?? 5;
    this.#db = options.db;
    this.#fingerprint = options.fingerprint;
  }

  acquire(_nowMs?: number, options?: AcquireOptions): Promise<PaceAnswer> {
    const limit = limitLeaving(this.limit, options);
    return this.#inTurn(async () => {
      const waitLocally = (this.#fullUntil.get(limit) ?? 0) - Date.now();
      if (waitLocally > 0) return { waitMs: waitLocally, slot: 0 };
      const answer = await this.#update((state, now) => {
        const step = pacingStep(state, now, { limit, windowMs: this.windowMs, marginMs: this.marginMs });
        return { state: step.state, out: { waitMs: step.waitMs, slot: now, used: step.state.sent.length } };
      });
      this.#fullUntil.set(limit, answer.waitMs > 0 ? Date.now() + answer.waitMs : 0);
      return answer;
    });
  }

  // A failed settle or block leaves the row as it was (the slot dated by its send, or no hold-off): the answer
  // already in hand is worth more than that precision, so the request does not fail for it.
  settle(slot: number): Promise<void> {
    return this.#update((state, now) => ({ state: settleStep(state, slot, now, this.windowMs), out: undefined })).catch(
      () => {},
    );
  }

  blockFor(_nowMs: number, forMs: number): Promise<void> {
    return this.#update((state, now) => ({
      state: { ...state, blockedUntil: Math.max(state.blockedUntil, now + forMs) },
      out: undefined,
    })).catch(() => {});
  }

  /** Runs `fn` after the previous acquire of this process has its answer. */
  #inTurn<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(fn, fn);
    this.#turn = run.catch(() => {});
    return run;
  }

  /** Lock the key's row (creating it on first use), step its state on the server's clock, write it back. */
  #update<T>(step: (state: PacingState, nowMs: number) => { state: PacingState; out: T }): Promise<T> {
    return this.#db.transaction(async (tx) => {
      const [row] = await tx.query<Row>(
        `INSERT INTO linen_pacing (key_fingerprint) VALUES ($1)
         ON CONFLICT (key_fingerprint) DO UPDATE SET key_fingerprint = EXCLUDED.key_fingerprint
         RETURNING sent, blocked_until, (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now`,
        [this.#fingerprint],
      );
      const { state, out } = step(
        { sent: (row!.sent ?? []).map(Number), blockedUntil: Number(row!.blocked_until) },
        Number(row!.now),
      );
      await tx.query('UPDATE linen_pacing SET sent = $2, blocked_until = $3 WHERE key_fingerprint = $1', [
        this.#fingerprint,
        state.sent,
        state.blockedUntil,
      ]);
      return out;
    });
  }
}
