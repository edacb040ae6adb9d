/**
 * One API call as an operation: pace, send, map the status to an error, retry what is transient, parse.
 */
import { type LinenError, RateLimitError, ResponseShapeError, TimeoutError } from '../errors.ts';
import {
  type HttpRequest,
  type HttpResponse,
  http,
  now,
  type Operation,
  pace,
  type ResponseType,
  sleep,
} from './effects.ts';
import { errorForResponse, isAbort, transportFailure } from './failures.ts';
import { type RequestObserver, statusLabel } from './observer.ts';
import type { RequestPacer } from './pacing.ts';
import { decideRetry, type RetryPolicy } from './retry.ts';

export interface CoreConfig {
  apiKey: string;
  /** Without a trailing slash, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** `new URL(baseUrl).origin`: the only origin that ever receives the key. */
  origin: string;
  timeZone: string;
  userAgent: string;
  retry: RetryPolicy;
  /** Total time one call may take, retries and waits included. */
  timeBudgetMs: number;
  requestTimeoutMs: number;
  pacer: RequestPacer | null;
  random: () => number;
  /** Node only: answers shared by the process's clients of this key (see `shared/sharing/`). */
  sharing?: AnswerSharing | undefined;
  /** Told of each request, pacing wait and shared answer (the bot counts them for its metrics). */
  observer?: RequestObserver | undefined;
}

/** Answers one JSON request for a caller, possibly with a response fetched once for several callers. */
export interface AnswerSharing {
  answer<T>(cfg: CoreConfig, spec: RequestSpec<T>, budget: Budget): Operation<T>;
}

/** Shared by the requests of one call (e.g. all pages of one walk): the instant the call must end by. */
export interface Budget {
  deadline?: number;
  /** Overrides the client's `timeBudgetMs` for this call. */
  budgetMs?: number | undefined;
}

export interface RequestSpec<T> {
  /** Label for errors, e.g. `GET /invoices`. */
  endpoint: string;
  /** The endpoint with its ids as `{id}` (default `endpoint`): what an observer is told, never an id. */
  template?: string | undefined;
  url: string;
  responseType: ResponseType;
  /** Scope the endpoint needs, to word a 403. */
  scope?: string | undefined;
  parse(res: HttpResponse): T;
}

/**
 * The least time a request is given after its pacing wait: a slot that frees later than this before the deadline
 * is not waited for, so a busy key is answered as busy (a RateLimitError) rather than as a request cut short.
 */
const MIN_REQUEST_MS = 1_000;

/**
 * Wait for a pacing slot; the slot's name, for `settle` once the request is answered (undefined: no pacer). A slot
 * that frees too late for the deadline is a RateLimitError (`client_rate_limited`) with the wait in `retryAfterMs`.
 */
export function* takeSlot(
  cfg: Pick<CoreConfig, 'pacer' | 'requestTimeoutMs' | 'observer'>,
  deadline: number,
): Operation<number | undefined> {
  const pacer = cfg.pacer;
  if (!pacer) return undefined;
  const requestMs = Math.min(cfg.requestTimeoutMs, MIN_REQUEST_MS);
  for (;;) {
    const t = yield* now();
    const { waitMs: wait, slot, used } = yield* pace(() => pacer.acquire(t));
    if (wait <= 0) {
      if (used !== undefined) cfg.observer?.slotTaken?.({ used, limit: pacer.limit });
      return slot;
    }
    if (t + wait + requestMs > deadline) {
      cfg.observer?.pacingRefused?.();
      throw new RateLimitError({
        status: 429,
        code: 'client_rate_limited',
        message: `the client's pacing (${pacer.limit} requests per ${pacer.windowMs} ms) needs a ${wait} ms wait, beyond the time budget`,
        requestId: undefined,
        retryAfterMs: wait,
      });
    }
    cfg.observer?.pacingWait?.({ seconds: wait / 1000 });
    yield* sleep(wait);
  }
}

export function buildRequest(cfg: CoreConfig, url: string, responseType: ResponseType): HttpRequest {
  return {
    method: 'GET',
    url,
    responseType,
    headers: {
      authorization: `Bearer ${cfg.apiKey}`,
      accept: responseType === 'bytes' ? 'application/pdf' : 'application/json',
      'user-agent': cfg.userAgent,
    },
  };
}

/** The answer to one JSON request: shared with the key's other callers when the client shares answers, else sent. */
export function answer<T>(cfg: CoreConfig, spec: RequestSpec<T>, budget: Budget): Operation<T> {
  return cfg.sharing ? cfg.sharing.answer(cfg, spec, budget) : send(cfg, spec, budget);
}

/** Send one request with pacing and retries, within the budget; return the parsed result. */
export function* send<T>(cfg: CoreConfig, spec: RequestSpec<T>, budget: Budget): Operation<T> {
  const secrets = [cfg.apiKey];
  const start = yield* now();
  if (budget.deadline === undefined) budget.deadline = start + (budget.budgetMs ?? cfg.timeBudgetMs);
  const deadline = budget.deadline;
  const req = buildRequest(cfg, spec.url, spec.responseType);
  let lastError: LinenError | undefined;
  for (let attempt = 0; ; attempt++) {
    const slot = yield* takeSlot(cfg, deadline);
    const t = yield* now();
    const timeoutMs = Math.min(cfg.requestTimeoutMs, deadline - t);
    if (timeoutMs <= 0) {
      throw (
        lastError ??
        new TimeoutError({ message: `${spec.endpoint}: the time budget of ${cfg.timeBudgetMs} ms ran out` })
      );
    }
    let err: LinenError | undefined;
    let res: HttpResponse | undefined;
    try {
      res = yield* http(req, timeoutMs);
    } catch (e) {
      if (isAbort(e)) throw e;
      err = transportFailure(e, secrets);
    }
    if (cfg.observer?.request) {
      const status = res ? statusLabel(res.status) : err instanceof TimeoutError ? 'timeout' : 'connection';
      const seconds = ((yield* now()) - t) / 1000;
      cfg.observer.request({ endpoint: spec.template ?? spec.endpoint, status, seconds });
    }
    const pacer = cfg.pacer;
    if (pacer && slot !== undefined) {
      const at = yield* now();
      yield* pace(() => pacer.settle(slot, at));
    }
    if (res) {
      if (res.status >= 200 && res.status < 300) {
        try {
          return spec.parse(res);
        } catch (e) {
          if (!(e instanceof ResponseShapeError)) throw e;
          err = e;
        }
      } else {
        const at = yield* now();
        err = errorForResponse(res, at, { scope: spec.scope, secrets });
        const pacer = cfg.pacer;
        const retryAfterMs = err instanceof RateLimitError ? err.retryAfterMs : undefined;
        if (pacer && retryAfterMs !== undefined) yield* pace(() => pacer.blockFor(at, retryAfterMs));
      }
    }
    if (!err) throw new Error('unreachable: no response and no error');
    lastError = err;
    const t2 = yield* now();
    const decision = decideRetry(err, attempt, cfg.retry, deadline - t2, cfg.random);
    if (!decision.retry) throw err;
    yield* sleep(decision.delayMs);
  }
}
