/**
 * Requests in flight, named by key fingerprint and URL, that later callers wait on instead of sending their own:
 * one request (one pacing slot, its retries) answers every caller, and its error reaches every caller.
 *
 * A flight runs within the budget of the caller that started it. A caller joins only a flight that ends by
 * about its own deadline, and stops waiting at its own deadline or when its signal aborts; the flight goes on
 * for the others, and is cancelled once nobody waits for it. When a flight fails for want of time or pacing
 * (a transient failure) and a caller has clearly longer to go, that caller tries again on its own budget.
 */
import type { HttpResponse } from '../core/effects.ts';
import { isRetryable } from '../core/retry.ts';
import { abortError } from '../core/run.ts';
import { TimeoutError } from '../errors.ts';

/**
 * How far the deadlines of one flight's callers may differ: a burst of commands within it shares one request, a
 * caller with a longer budget (a digest beside a command) does not inherit the shorter one's failure.
 */
export const JOIN_WINDOW_MS = 2_000;

interface Flight {
  deadline: number;
  response: Promise<HttpResponse>;
  waiting: number;
  settled: boolean;
  cancel: AbortController;
}

export interface Caller {
  /** The caller's deadline, on the clock of the client that asks. */
  deadline: number;
  /** What is left of the caller's budget now. */
  remainingMs: number;
  /** For the error when the caller's time runs out first, e.g. `GET /balance`. */
  endpoint: string;
  signal: AbortSignal | undefined;
  /** Told when the caller joins a flight another caller started (its request is not sent again). */
  onJoin?: (() => void) | undefined;
}

/** Starts the request of a new flight within `deadline`; `signal` aborts when nobody waits for it any more. */
export type StartFlight = (deadline: number, signal: AbortSignal) => Promise<HttpResponse>;

export class Flights {
  readonly #flights = new Map<string, Flight[]>();

  /** The response for `id`: from a flight this caller may join, else from one it starts. */
  async wait(id: string, caller: Caller, start: StartFlight): Promise<HttpResponse> {
    const started = Date.now();
    for (;;) {
      const joined = this.#joinable(id, caller.deadline);
      if (joined) caller.onJoin?.();
      const flight = joined ?? this.#start(id, caller.deadline, start);
      const elapsed = Date.now() - started;
      try {
        return await this.#await(id, flight, caller, caller.remainingMs - elapsed);
      } catch (err) {
        const longer = caller.deadline - flight.deadline > JOIN_WINDOW_MS;
        if (!(flight.settled && longer && isRetryable(err))) throw err;
      }
    }
  }

  #joinable(id: string, deadline: number): Flight | undefined {
    return this.#flights.get(id)?.find((f) => !f.settled && f.deadline <= deadline + JOIN_WINDOW_MS);
  }

  #start(id: string, deadline: number, start: StartFlight): Flight {
    const cancel = new AbortController();
    const flight: Flight = { deadline, response: start(deadline, cancel.signal), waiting: 0, settled: false, cancel };
    const list = this.#flights.get(id);
    if (list) list.push(flight);
    else this.#flights.set(id, [flight]);
    const land = () => {
      flight.settled = true;
      this.#remove(id, flight);
    };
    flight.response.then(land, land);
    return flight;
  }

  #remove(id: string, flight: Flight): void {
    const list = this.#flights.get(id)?.filter((f) => f !== flight) ?? [];
    if (list.length) this.#flights.set(id, list);
    else this.#flights.delete(id);
  }

  #await(id: string, flight: Flight, caller: Caller, remainingMs: number): Promise<HttpResponse> {
    const { signal } = caller;
    if (signal?.aborted) return Promise.reject(abortError(signal));
    flight.waiting++;
    return new Promise<HttpResponse>((resolve, reject) => {
      let done = false;
      const finish = (settle: () => void) => {
        if (done) return;
        done = true;
        flight.waiting--;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      /** This caller stops waiting; a flight nobody waits for any more is cancelled. */
      const leave = (err: Error) =>
        finish(() => {
          if (flight.waiting === 0 && !flight.settled) {
            this.#remove(id, flight);
            flight.cancel.abort();
          }
          reject(err);
        });
      const onAbort = () => leave(abortError(signal!));
      const timer = setTimeout(
        () =>
          leave(new TimeoutError({ message: `${caller.endpoint}: the time budget ran out waiting for the answer` })),
        Math.max(0, remainingMs),
      );
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      flight.response.then(
        (res) => finish(() => resolve(res)),
        (err: unknown) => finish(() => reject(err)),
      );
    });
  }
}
