/**
 * The sans-IO vocabulary of the client.
 *
 * An operation is a generator that yields effects and returns a value. It never touches the network,
 * timers or the clock itself: a runner (`run.ts`) performs each effect and sends the result back in.
 * The same operation therefore runs synchronously (Apps Script) and asynchronously (Node).
 */

import type { PaceAnswer } from './pacing.ts';

export type ResponseType = 'text' | 'bytes';

export interface HttpRequest {
  method: 'GET';
  /** Absolute URL. Never carries the key. */
  url: string;
  /** Header names lowercased. `authorization` holds the bearer key: never log or expose this object. */
  headers: Record<string, string>;
  /** What the caller wants back: `text` (JSON) lets a transport return a string, `bytes` (PDF) a Uint8Array. */
  responseType: ResponseType;
}

export interface HttpResponse {
  status: number;
  /** Header names lowercased. */
  headers: Record<string, string>;
  body: Uint8Array | string;
}

export interface HttpEffect {
  t: 'http';
  req: HttpRequest;
  /** Per-request timeout the transport should apply (already clipped to the remaining budget). */
  timeoutMs: number;
}
export interface SleepEffect {
  t: 'sleep';
  ms: number;
}
export interface NowEffect {
  t: 'now';
}
/**
 * Ask the client's pacer (take a slot, settle one, block after a 429). An in-process pacer answers at once; a
 * pacer shared through a database answers with a promise, which only the async runner can wait for.
 */
export interface PaceEffect {
  t: 'pace';
  ask: () => unknown;
}
/**
 * Wait for what another operation is fetching: a response (the Node client's answers shared by the clients of one
 * key) or a whole listing (the cells of one Excel runtime). `until` is given the caller's abort signal, so a caller
 * that gives up stops waiting without stopping the others. Only the async runner performs it: the blocking
 * clients share nothing in flight.
 */
export interface WaitEffect {
  t: 'wait';
  until: (signal: AbortSignal | undefined) => Promise<unknown>;
}
export type Effect = HttpEffect | SleepEffect | NowEffect | PaceEffect | WaitEffect;

/**
 * What the runner sends back into the generator: the response for `http` and `wait`, epoch milliseconds for
 * `now`, the pacer's answer for `pace`, nothing for `sleep`. A transport failure is thrown into the generator instead.
 */
export type EffectResult = HttpResponse | number | PaceAnswer | undefined;

export type Operation<T> = Generator<Effect, T, EffectResult>;

/** Perform an HTTP request. Transport failures arrive as exceptions thrown at the `yield`. */
export function* http(req: HttpRequest, timeoutMs: number): Operation<HttpResponse> {
  return (yield { t: 'http', req, timeoutMs }) as HttpResponse;
}

/** Wait for `until` to settle (see `WaitEffect`); its rejection is thrown at the `yield`. */
export function* waitFor<T>(until: (signal: AbortSignal | undefined) => Promise<T>): Operation<T> {
  return (yield { t: 'wait', until }) as unknown as T;
}

export function* sleep(ms: number): Operation<void> {
  if (ms > 0) yield { t: 'sleep', ms };
}

export function* now(): Operation<number> {
  return (yield { t: 'now' }) as number;
}

export function pace(ask: () => PaceAnswer | Promise<PaceAnswer>): Operation<PaceAnswer>;
export function pace(ask: () => void | Promise<void>): Operation<void>;
export function* pace(ask: () => unknown): Operation<unknown> {
  return yield { t: 'pace', ask };
}

/** The answer of a pacer asked on a blocking runtime, where a promise cannot be waited for. */
export function syncPaceAnswer(eff: PaceEffect): EffectResult {
  const answer = eff.ask();
  if (answer instanceof Promise) throw new TypeError('a blocking client needs a pacer that answers synchronously');
  return answer as EffectResult;
}

/** What a blocking runner does with a `wait` effect, which only clients sharing answers (Node) yield. */
export function cannotWait(): never {
  throw new TypeError('a blocking client cannot wait for a shared answer');
}

/** A transport that blocks, such as Apps Script's `UrlFetchApp` (`muteHttpExceptions: true`). */
export interface SyncTransport {
  request(req: HttpRequest, options: { timeoutMs: number }): HttpResponse;
}

/** A transport that returns a promise, such as the undici one in `transport/undici.ts`. */
export interface AsyncTransport {
  request(req: HttpRequest, options: { signal?: AbortSignal; timeoutMs: number }): Promise<HttpResponse>;
  close?(): Promise<void>;
}
