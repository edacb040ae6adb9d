/**
 * Answers shared by every client of one API key in the process (Node only): identical requests in flight are
 * sent once (`flights.ts`) and their answers reused while fresh (`freshness.ts`, `answer-cache.ts`). A client
 * takes part with `createLinenClient({ ..., sharedAnswers: processAnswers })`; the bot's clients all do, so a
 * burst of the same command, a button and a digest asking what another just asked cost one request of the
 * key's budget. Everything is named by a fingerprint of the key, never by the key.
 */
import { createHash } from 'node:crypto';
import { type HttpResponse, now, type Operation } from '../core/effects.ts';
import { type AnswerSharing, type Budget, type CoreConfig, type RequestSpec, send } from '../core/send.ts';
import { AnswerCache, type CacheLimits } from './answer-cache.ts';
import { Flights } from './flights.ts';
import { freshnessMs } from './freshness.ts';

/** Runs an operation with the requesting client's transport and clock. */
export type FlightRunner = (op: Operation<HttpResponse>, signal: AbortSignal) => Promise<HttpResponse>;

/** A stable name for a key that reveals nothing of it. */
export function keyFingerprint(apiKey: string): string {
  // String(): a missing key is the client's ConfigurationError to report, not a hashing failure.
  return createHash('sha256').update(String(apiKey)).digest('hex').slice(0, 32);
}

export class SharedAnswers {
  readonly cache: AnswerCache;
  readonly flights = new Flights();
  /** The value the flight's own parse produced, taken by the first caller: the others parse the body again. */
  readonly #parsed = new WeakMap<HttpResponse, unknown>();

  constructor(limits: Partial<CacheLimits> = {}) {
    this.cache = new AnswerCache(limits);
  }

  /**
   * Forgets the answers kept for `apiKey`: the data behind it changed (the console changes its own sandbox's), so
   * what was kept is no longer what the API answers. Requests in flight are left to end.
   */
  forgetKey(apiKey: string): void {
    this.cache.deleteStartingWith(`${keyFingerprint(apiKey)} `);
  }

  /** What a client of `apiKey` answers its JSON requests with; `run` sends the flights it starts. */
  forKey(apiKey: string, run: FlightRunner): AnswerSharing {
    const fingerprint = keyFingerprint(apiKey);
    const shared = this;
    return {
      *answer<T>(cfg: CoreConfig, spec: RequestSpec<T>, budget: Budget): Operation<T> {
        const start = yield* now();
        if (budget.deadline === undefined) budget.deadline = start + (budget.budgetMs ?? cfg.timeBudgetMs);
        const deadline = budget.deadline;
        const id = `${fingerprint} ${spec.url}`;
        const endpoint = spec.template ?? spec.endpoint;
        const kept = shared.cache.get(id, start);
        if (kept) {
          cfg.observer?.shared?.({ endpoint, how: 'cached' });
          return spec.parse(kept);
        }
        const keepFor = freshnessMs(pathOf(cfg.baseUrl, spec.url));
        const response = (yield {
          t: 'wait',
          until: (signal) =>
            shared.flights.wait(
              id,
              {
                deadline,
                remainingMs: deadline - start,
                endpoint: spec.endpoint,
                signal,
                onJoin: () => cfg.observer?.shared?.({ endpoint, how: 'coalesced' }),
              },
              (flightDeadline, flightSignal) =>
                run(shared.#fetch(cfg, spec, id, keepFor, { deadline: flightDeadline }), flightSignal),
            ),
        }) as HttpResponse;
        if (shared.#parsed.has(response)) {
          const value = shared.#parsed.get(response) as T;
          shared.#parsed.delete(response);
          return value;
        }
        return spec.parse(response);
      },
    };
  }

  /** The flight: one request (paced, retried, parsed to check it), kept while fresh. */
  *#fetch<T>(cfg: CoreConfig, spec: RequestSpec<T>, id: string, keepFor: number, budget: Budget) {
    const response = yield* send(
      cfg,
      {
        ...spec,
        parse: (res) => {
          this.#parsed.set(res, spec.parse(res));
          return res;
        },
      },
      budget,
    );
    if (keepFor > 0) this.cache.set(id, response, (yield* now()) + keepFor);
    return response;
  }
}

/** The URL's path below the base URL, without its query: what the freshness rules are written for. */
function pathOf(baseUrl: string, url: string): string {
  const below = url.startsWith(baseUrl) ? url.slice(baseUrl.length) : url;
  const q = below.indexOf('?');
  return q < 0 ? below : below.slice(0, q);
}

/** The process's shared answers: every client given it shares coalescing and kept answers per key. */
export const processAnswers = new SharedAnswers();
