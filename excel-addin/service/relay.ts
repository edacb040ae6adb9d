/**
 * The read-only relay the Excel functions call at `/excel/api/v1/<path>`: browsers enforce CORS and the Linen API
 * names no CORS headers, so the add-in never calls the API's origin; the service forwards for it.
 *
 * - GET only, to `LINEN_BASE_URL` (the one configured origin, below its `/v1`); no redirect is followed.
 * - The caller's own bearer key, or 401 without calling the API: never the service's own key. A query parameter
 *   that carries a credential gets 400.
 * - Keeps nothing. Identical requests in flight for one key are sent once (`Flights`: one pacing slot, one answer
 *   for every caller), and each request takes a slot of the key's pacing, shared with the service's commands and
 *   digests (in PostgreSQL across replicas): ten analysts on one key stay under its limit together. A slot that
 *   frees too late is answered 429 with its Retry-After, which the add-in's client waits for.
 * - Logs no key and no query: a refusal or a failure is one line with the method and the path's template.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type AsyncTransport,
  type HttpRequest,
  type HttpResponse,
  http,
  now,
  type Operation,
  pace,
} from '../../shared/core/effects.ts';
import { type RequestObserver, statusLabel } from '../../shared/core/observer.ts';
import type { RequestPacer } from '../../shared/core/pacing.ts';
import { parseRetryAfter } from '../../shared/core/retry.ts';
import { runAsync } from '../../shared/core/run.ts';
import { takeSlot } from '../../shared/core/send.ts';
import { ConnectionError, RateLimitError, TimeoutError } from '../../shared/errors.ts';
import { Flights } from '../../shared/sharing/flights.ts';
import { keyFingerprint } from '../../shared/sharing/shared-answers.ts';
import { UndiciTransport } from '../../shared/transport/undici.ts';
import { RELAY_ERROR_HEADER } from '../src/transport.ts';
import { bearerKey, credentialInQuery, isApiPath } from './request-checks.ts';

export const RELAY_PREFIX = '/excel/api/v1';

/** The API's response headers the add-in may read; the rest stay behind. */
const PASSED_HEADERS = [
  'content-type',
  'retry-after',
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export interface RelayLog {
  info(line: string): void;
  warn(line: string): void;
}

export interface RelayOptions {
  /** `LINEN_BASE_URL`: the API's address, ending in `/v1`; the only place the relay forwards to. */
  baseUrl: string;
  /** The pacer every client of this key shares (the service's `keyPacers`). */
  pacerFor(apiKey: string): RequestPacer;
  log: RelayLog;
  /** Told of each request, pacing wait and coalesced request (the service's metrics). */
  observer?: RequestObserver | undefined;
  /** Default: undici, which follows no redirect. */
  transport?: AsyncTransport | undefined;
  /** The longest a request waits for a slot of its key's pacing (default 15 s). */
  pacingWaitMs?: number | undefined;
  /** The API's time to answer (default 20 s). */
  requestTimeoutMs?: number | undefined;
}

export interface Relay {
  /** Answer a request whose path starts with `RELAY_PREFIX`. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

/** `/customers/c8x…/departments` -> `/customers/{id}/departments`: what logs and metrics name, never an id. */
export function pathTemplate(path: string): string {
  return path.replace(/[^/]+/g, (s) => (/[\d_]/.test(s) || s.length >= 16 ? '{id}' : s));
}

const relayRequestId = () => `relay_${randomBytes(6).toString('hex')}`;

function answer(res: ServerResponse, status: number, body: Uint8Array | string, headers: Record<string, string>): void {
  res.writeHead(status, {
    ...headers,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength),
  });
  res.end(body);
}

/** An answer of the relay's own, in the API's error envelope (so the add-in's client reads it as the API's). */
function refuse(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ error: { code, message }, request_id: relayRequestId() });
  answer(res, status, body, { 'content-type': 'application/json; charset=utf-8', ...headers });
}

export function createRelay(o: RelayOptions): Relay {
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  const transport = o.transport ?? new UndiciTransport();
  const flights = new Flights();
  const pacingWaitMs = o.pacingWaitMs ?? 15_000;
  const requestTimeoutMs = o.requestTimeoutMs ?? 20_000;

  /** One request to the API: a slot of the key's pacing, the request, the slot settled; a 429 blocks the key. */
  function* forward(req: HttpRequest, pacer: RequestPacer, endpoint: string): Operation<HttpResponse> {
    const cfg = { pacer, requestTimeoutMs, observer: o.observer };
    // A slot that frees later than the pacing wait is refused here (RateLimitError) rather than waited for.
    const slot = yield* takeSlot(cfg, (yield* now()) + pacingWaitMs + Math.min(requestTimeoutMs, 1_000));
    const sent = yield* now();
    let res: HttpResponse | undefined;
    try {
      res = yield* http(req, requestTimeoutMs);
    } finally {
      const at = yield* now();
      if (slot !== undefined) yield* pace(() => pacer.settle(slot, at));
      const status = res ? statusLabel(res.status) : 'connection';
      o.observer?.request?.({ endpoint, status, seconds: (at - sent) / 1000 });
    }
    const retryAfterMs = res.status === 429 ? parseRetryAfter(res.headers['retry-after'], yield* now()) : undefined;
    if (retryAfterMs !== undefined) {
      const at = yield* now();
      yield* pace(() => pacer.blockFor(at, retryAfterMs));
    }
    return res;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = (q < 0 ? raw : raw.slice(0, q)).slice(RELAY_PREFIX.length);
    const rawQuery = q < 0 ? '' : raw.slice(q + 1);
    const where = `${req.method} ${RELAY_PREFIX}${isApiPath(path) ? pathTemplate(path) : '/(refused path)'}`;
    const refused = (status: number, code: string, message: string, why: string, headers?: Record<string, string>) => {
      o.log.info(`excel relay: refused ${where}: ${why}`);
      refuse(res, status, code, message, headers);
    };

    if (req.method !== 'GET')
      return refused(405, 'method_not_allowed', 'The relay forwards GET requests only.', 'not a GET', { allow: 'GET' });
    if (!isApiPath(path))
      return refused(404, 'not_found', 'There is no such path below /excel/api/v1.', 'not an API path');
    const apiKey = bearerKey(req.headers.authorization);
    if (credentialInQuery(new URLSearchParams(rawQuery), apiKey) !== undefined)
      return refused(
        400,
        'credential_in_query',
        'A key never goes in a URL: send it in the Authorization header (Bearer) only.',
        'a credential in the query',
      );
    if (apiKey === undefined)
      return refused(
        401,
        'unauthorized',
        'Send your own Linen API key in the Authorization header (Bearer).',
        'no key in an Authorization header',
      );

    const endpoint = `GET ${pathTemplate(path)}`;
    const upstream: HttpRequest = {
      method: 'GET',
      url: `${baseUrl}${path}${rawQuery ? `?${rawQuery}` : ''}`,
      headers: {
        authorization: `Bearer ${apiKey}`,
        accept: 'application/json',
        'user-agent': 'linen-connect-excel-relay/0.1',
      },
      responseType: 'bytes',
    };
    // The caller hangs up: it stops waiting (and a request nobody waits for is cancelled).
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const deadline = Date.now() + pacingWaitMs + requestTimeoutMs + 1_000;
    let got: HttpResponse;
    try {
      got = await flights.wait(
        `${keyFingerprint(apiKey)} ${upstream.url}`,
        {
          deadline,
          remainingMs: deadline - Date.now(),
          endpoint,
          signal: gone.signal,
          onJoin: () => o.observer?.shared?.({ endpoint, how: 'coalesced' }),
        },
        (_flightDeadline, signal) => runAsync(forward(upstream, o.pacerFor(apiKey), endpoint), transport, { signal }),
      );
    } catch (e) {
      if (gone.signal.aborted) return;
      if (e instanceof RateLimitError && e.code === 'client_rate_limited') {
        const seconds = Math.max(1, Math.ceil((e.retryAfterMs ?? 1_000) / 1000));
        o.log.info(
          `excel relay: ${where}: the key's pacing has no slot within ${pacingWaitMs / 1000} s (retry in ${seconds} s)`,
        );
        return refuse(
          res,
          429,
          'rate_limited',
          `This key's requests are at the API's limit; try again in ${seconds} seconds.`,
          {
            'retry-after': String(seconds),
          },
        );
      }
      const timeout = e instanceof TimeoutError;
      o.log.warn(
        `excel relay: ${where}: ${timeout ? 'the Linen API did not answer in time' : e instanceof ConnectionError ? 'the Linen API could not be reached' : `failed (${e instanceof Error ? e.name : 'error'})`}`,
      );
      return refuse(
        res,
        timeout ? 504 : 502,
        timeout ? 'upstream_timeout' : 'upstream_unreachable',
        timeout ? 'The Linen API did not answer in time.' : 'The Linen API could not be reached.',
        { [RELAY_ERROR_HEADER]: timeout ? 'upstream_timeout' : 'upstream_unreachable' },
      );
    }
    if (got.status >= 300 && got.status < 400) {
      o.log.warn(`excel relay: ${where}: the Linen API answered ${got.status} (a redirect); not followed`);
      return refuse(
        res,
        502,
        'redirect_refused',
        'The Linen API answered with a redirect, which the relay does not follow.',
        {
          [RELAY_ERROR_HEADER]: 'redirect_refused',
        },
      );
    }
    const headers: Record<string, string> = {};
    for (const name of PASSED_HEADERS) if (got.headers[name] !== undefined) headers[name] = got.headers[name]!;
    answer(res, got.status, got.body, headers);
  }

  return { handle, close: async () => transport.close?.() };
}
