/**
 * The listings the cells of one Excel runtime read, kept in memory and shared in flight. Excel runs every
 * `LINEN.` formula of the workbook in this one runtime, concurrently: the first cell that needs a listing (every
 * page of one customer's deliveries for October) fetches it, the others wait for that walk, and all read its
 * rows for the next hour (Sheets keeps its listings as long). The API's failure (no access, an unknown customer, the
 * API down after its retries) is kept for a minute, as in Sheets, so a hundred failing cells cost one request.
 *
 * A cell Excel cancels stops waiting at once; the walk goes on while another cell waits for it, and is aborted
 * (its request cancelled) when none does. Refresh drops everything kept.
 */
import { ERROR_TTL_MS, LISTING_TTL_MS } from '../../shared/cells/freshness.ts';
import { worthCaching } from '../../shared/cells/messages.ts';
import { abortError } from '../../shared/core/run.ts';

type Rows = Record<string, unknown>[];

interface Flight {
  rows: Promise<Rows>;
  cancel: AbortController;
  waiting: number;
}

type Entry = { rows: Rows; until: number } | { error: unknown; until: number } | { flight: Flight };

/** The most listings kept at once; the least recently read go first. */
const MAX_ENTRIES = 500;

export class Listings {
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  /** The rows of `request` when they are at hand (kept and fresh), else null. */
  peek(request: string): Rows | null {
    const entry = this.#fresh(request);
    return entry && 'rows' in entry ? entry.rows : null;
  }

  /**
   * The rows of `request`: kept, from a walk in flight, or from the walk `start` begins (given a signal that aborts
   * when no cell waits for it any more). `signal` is the asking cell's: it stops this cell's wait only.
   */
  wait(request: string, start: (signal: AbortSignal) => Promise<Rows>, signal?: AbortSignal): Promise<Rows> {
    const entry = this.#fresh(request);
    if (entry && 'rows' in entry) return Promise.resolve(entry.rows);
    if (entry && 'error' in entry) return Promise.reject(entry.error);
    const flight = entry && 'flight' in entry ? entry.flight : this.#start(request, start);
    return this.#join(request, flight, signal);
  }

  /** Forget everything kept; walks in flight still answer the cells waiting for them, and are not kept. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }

  #fresh(request: string): Entry | undefined {
    const entry = this.#entries.get(request);
    if (!entry) return undefined;
    if (!('flight' in entry) && entry.until <= Date.now()) {
      this.#entries.delete(request);
      return undefined;
    }
    // Read again: the most recently read last, so the first entry is the one to drop.
    this.#entries.delete(request);
    this.#entries.set(request, entry);
    return entry;
  }

  #keep(request: string, entry: Entry): void {
    this.#entries.delete(request);
    this.#entries.set(request, entry);
    for (const [oldest, e] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES) break;
      if (!('flight' in e)) this.#entries.delete(oldest);
    }
  }

  #start(request: string, start: (signal: AbortSignal) => Promise<Rows>): Flight {
    const cancel = new AbortController();
    const flight: Flight = { rows: start(cancel.signal), cancel, waiting: 0 };
    const generation = this.#generation;
    const ours = () =>
      generation === this.#generation && (this.#entries.get(request) as { flight?: Flight })?.flight === flight;
    this.#keep(request, { flight });
    flight.rows.then(
      (rows) => {
        if (ours()) this.#keep(request, { rows, until: Date.now() + LISTING_TTL_MS });
      },
      (error: unknown) => {
        if (!ours()) return;
        if (!cancel.signal.aborted && worthCaching(error))
          this.#keep(request, { error, until: Date.now() + ERROR_TTL_MS });
        else this.#entries.delete(request);
      },
    );
    return flight;
  }

  #join(request: string, flight: Flight, signal: AbortSignal | undefined): Promise<Rows> {
    if (signal?.aborted) return Promise.reject(abortError(signal));
    flight.waiting++;
    return new Promise<Rows>((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        flight.waiting--;
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const onAbort = () =>
        finish(() => {
          // Nobody waits for this walk any more: cancel its request, and let the next cell start afresh.
          if (flight.waiting === 0) {
            if ((this.#entries.get(request) as { flight?: Flight } | undefined)?.flight === flight)
              this.#entries.delete(request);
            flight.cancel.abort();
          }
          reject(abortError(signal!));
        });
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.rows.then(
        (rows) => finish(() => resolve(rows)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }
}
