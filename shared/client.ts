/**
 * The Linen API client, in two flavours over one core: `createLinenClient` (async, Node) and
 * `createLinenClientSync` (blocking, Apps Script). Both expose the same resources and methods.
 */

import type { CallDef, ListDef } from './core/defs.ts';
import type { AsyncTransport, Operation, SyncTransport } from './core/effects.ts';
import type { RequestObserver } from './core/observer.ts';
import { DEFAULT_PACING, Pacer, type PacingOptions, type RequestPacer } from './core/pacing.ts';
import { DEFAULT_RETRY } from './core/retry.ts';
import { runAsync, runSync } from './core/run.ts';
import type { AnswerSharing } from './core/send.ts';
import { isValidTimeZone } from './dates.ts';
import { ConfigurationError } from './errors.ts';
import { AsyncPaged, SyncPaged } from './paged.ts';
import { defineReports } from './reports/index.ts';
import { filesResource } from './resources/accounting.ts';
import type { ResourceContext } from './resources/define.ts';
import { type Api, defineResources } from './resources/index.ts';
import { type ParsedUrl, parseUrl } from './url.ts';

export interface LinenClientOptions {
  /** The whole key, prefix included. Sent only as `Authorization: Bearer` to the base URL's origin. */
  apiKey: string;
  /** Ends with the version segment, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** The organization's IANA timezone, in which `from`/`to` days are read. */
  timeZone: string;
  /** Retries of 429, 5xx and connection failures (default 3). */
  maxRetries?: number;
  /** Total time of one call (a page, a get, or a whole walk), waits included. Default 25 s sync, 300 s async. */
  timeBudgetMs?: number;
  /** Timeout of a single HTTP request (default 20 s). */
  requestTimeoutMs?: number;
  /**
   * Client-side pacing: options for this client's own pacer (default 120 per 60 s), a pacer shared with other
   * clients of the same key (e.g. one kept in a database for several replicas), or `false` for none.
   */
  pacing?: PacingOptions | RequestPacer | false;
  userAgent?: string;
  /** Backoff before the first retry (default 500 ms), doubling up to `maxRetryDelayMs` (default 8 s). */
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Injectable for tests. */
  random?: () => number;
  now?: () => number;
  /** Told of each request, pacing wait and shared answer, e.g. to count them as metrics. */
  observer?: RequestObserver | undefined;
}

export interface AsyncClientOptions extends LinenClientOptions {
  transport: AsyncTransport;
  /** Answers shared with other clients of the key (Node: `sharedAnswers` in `node.ts`). */
  sharing?: AnswerSharing | undefined;
}

export interface SyncClientOptions extends LinenClientOptions {
  transport: SyncTransport;
  /** Blocking sleep, e.g. `(ms) => Utilities.sleep(ms)`. */
  sleep: (ms: number) => void;
}

function defineAll(ctx: ResourceContext) {
  const api = defineResources(ctx);
  return { ...api, files: filesResource(ctx), reports: defineReports(ctx, api) };
}

type Defs = ReturnType<typeof defineAll>;
type ApiDefs = ReturnType<typeof defineResources>;

type AsyncMethod<F> = F extends (...args: infer A) => ListDef<infer T>
  ? (...args: A) => AsyncPaged<T>
  : F extends (...args: infer A) => CallDef<infer T>
    ? (...args: A) => Promise<T>
    : never;
type SyncMethod<F> = F extends (...args: infer A) => ListDef<infer T>
  ? (...args: A) => SyncPaged<T>
  : F extends (...args: infer A) => CallDef<infer T>
    ? (...args: A) => T
    : never;

export type AsyncResources = { readonly [R in keyof Defs]: { readonly [M in keyof Defs[R]]: AsyncMethod<Defs[R][M]> } };
export type SyncResources = { readonly [R in keyof Defs]: { readonly [M in keyof Defs[R]]: SyncMethod<Defs[R][M]> } };
type SyncApiResources = {
  readonly [R in keyof ApiDefs]: { readonly [M in keyof ApiDefs[R]]: SyncMethod<ApiDefs[R][M]> };
};

export interface ClientInfo {
  readonly baseUrl: string;
  readonly timeZone: string;
}

export type LinenClient = AsyncResources & ClientInfo & { close(): Promise<void> };
export type LinenClientSync = SyncResources & ClientInfo;
/** The blocking client without `reports` and `files`, for bundles that compute their own (see `createLinenApiSync`). */
export type LinenApiSync = SyncApiResources & ClientInfo;

const DEFAULT_UA = 'linen-connect/0.1';

export function resolveContext(opts: LinenClientOptions, defaultBudgetMs: number): ResourceContext {
  if (typeof opts.apiKey !== 'string' || opts.apiKey.trim() === '') {
    throw new ConfigurationError('apiKey is missing', 'No Linen API key is set; add one in the settings.');
  }
  if (/\s/.test(opts.apiKey)) {
    throw new ConfigurationError(
      'apiKey contains whitespace',
      'The Linen API key contains spaces or line breaks; paste it again.',
    );
  }
  let base: ParsedUrl;
  try {
    base = parseUrl(opts.baseUrl);
  } catch {
    throw new ConfigurationError(`baseUrl is not a URL: ${String(opts.baseUrl)}`);
  }
  if (base.protocol !== 'https:' && base.protocol !== 'http:')
    throw new ConfigurationError(`baseUrl must be http(s): ${base.href}`);
  if (base.search || base.hash || base.username || base.password) {
    throw new ConfigurationError('baseUrl must not carry a query, fragment or credentials');
  }
  if (typeof opts.timeZone !== 'string' || !isValidTimeZone(opts.timeZone)) {
    throw new ConfigurationError(`timeZone is not an IANA timezone: ${String(opts.timeZone)}`);
  }
  const nowFn = opts.now ?? Date.now;
  return {
    apiKey: opts.apiKey,
    baseUrl: base.href.replace(/\/+$/, ''),
    origin: base.origin,
    timeZone: opts.timeZone,
    userAgent: opts.userAgent ?? DEFAULT_UA,
    retry: {
      maxRetries: opts.maxRetries ?? DEFAULT_RETRY.maxRetries,
      initialDelayMs: opts.initialRetryDelayMs ?? DEFAULT_RETRY.initialDelayMs,
      maxDelayMs: opts.maxRetryDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    },
    timeBudgetMs: opts.timeBudgetMs ?? defaultBudgetMs,
    requestTimeoutMs: opts.requestTimeoutMs ?? 20_000,
    pacer: pacerOf(opts.pacing),
    random: opts.random ?? Math.random,
    clock: () => new Date(nowFn()),
    observer: opts.observer,
  };
}

function pacerOf(pacing: LinenClientOptions['pacing']): RequestPacer | null {
  if (pacing === false) return null;
  if (pacing && 'acquire' in pacing) return pacing;
  return new Pacer(pacing ?? { ...DEFAULT_PACING });
}

function bind<Out>(defs: Defs | ApiDefs, wrap: (d: CallDef<unknown> | ListDef<unknown>) => unknown): Out {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, methods] of Object.entries(defs)) {
    const bound: Record<string, unknown> = {};
    for (const [m, fn] of Object.entries(
      methods as Record<string, (...a: unknown[]) => CallDef<unknown> | ListDef<unknown>>,
    )) {
      bound[m] = (...args: unknown[]) => wrap(fn(...args));
    }
    out[name] = Object.freeze(bound);
  }
  return out as Out;
}

/** The async client (Node). See `node.ts` for the variant with the undici transport built in. */
export function createLinenClient(options: AsyncClientOptions): LinenClient {
  const ctx: ResourceContext = { ...resolveContext(options, 300_000), sharing: options.sharing };
  const transport = options.transport;
  const runOpts = options.now ? { now: options.now } : {};
  const exec = <R>(op: Operation<R>, signal?: AbortSignal) => runAsync(op, transport, { ...runOpts, signal });
  const resources = bind<AsyncResources>(defineAll(ctx), (d) =>
    d.kind === 'list' ? new AsyncPaged(d, exec) : exec(d.op({})),
  );
  return Object.freeze({
    ...resources,
    baseUrl: ctx.baseUrl,
    timeZone: ctx.timeZone,
    close: async () => {
      await transport.close?.();
    },
  });
}

/** The blocking client (Apps Script: `UrlFetchApp` transport and `Utilities.sleep`). */
export function createLinenClientSync(options: SyncClientOptions): LinenClientSync {
  return createSync<LinenClientSync>(options, defineAll);
}

/**
 * The blocking client without the report helpers and the invoice PDF download: the Sheets add-on computes its
 * cells from cached listings with the pure `compute*` functions and never fetches a PDF, and leaving both out
 * keeps them out of its bundle (every custom-function execution loads all of it).
 */
export function createLinenApiSync(options: SyncClientOptions): LinenApiSync {
  return createSync<LinenApiSync>(options, defineResources);
}

/**
 * The API's operations, not yet run: each list or call yields the core's effects, for a caller that drives them
 * itself (a spreadsheet's cells with `runSync` or `runAsync`, several walks at once with `runSyncBatch`).
 */
export function createLinenApi(options: LinenClientOptions): Api {
  return defineResources(resolveContext(options, 25_000));
}

function createSync<C>(options: SyncClientOptions, define: (ctx: ResourceContext) => Defs | ApiDefs): C {
  const ctx = resolveContext(options, 25_000);
  const { transport, sleep } = options;
  const runOpts = options.now ? { sleep, now: options.now } : { sleep };
  const exec = <R>(op: Operation<R>) => runSync(op, transport, runOpts);
  const resources = bind<Record<string, unknown>>(define(ctx), (d) =>
    d.kind === 'list' ? new SyncPaged(d, exec) : exec(d.op({})),
  );
  return Object.freeze({ ...resources, baseUrl: ctx.baseUrl, timeZone: ctx.timeZone }) as C;
}
