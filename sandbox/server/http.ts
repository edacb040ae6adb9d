/**
 * The node:http server. Checks run in the order of sandbox/README.md, first failure answers:
 * method (405) → bearer key (401) → rate limit (429) → route (404) → scope (403) → query (422) → scoping (404).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { SandboxChanges } from '../changes/index.ts';
import type { DataStore } from '../changes/store.ts';
import { handleAdmin } from './admin.ts';
import { alterBody } from './altered-body.ts';
import { authenticate, requireScope } from './auth.ts';
import type { CursorCodec, CursorState } from './cursor.ts';
import { ApiError, notFound } from './errors.ts';
import type { FaultController } from './faults.ts';
import type { LinkSigner } from './links.ts';
import { paginate } from './paginate.ts';
import { parseQuery } from './params.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { RequestLog } from './request-log.ts';
import { JSON_TYPE, newRequestId, sendError, sendJson } from './respond.ts';
import type { RouteContext, Router } from './router.ts';
import { checkCustomerFilter, scopeOf } from './scope.ts';

export interface ServerDeps {
  /** The data served: the seeded version until a change makes a new one. */
  store: DataStore;
  changes: SandboxChanges;
  router: Router;
  limiter: RateLimiter;
  faults: FaultController;
  requests: RequestLog;
  cursors: CursorCodec;
  links: LinkSigner;
  /** Org-local "today" for default windows and aging. */
  today: () => string;
  /** Wall clock, epoch ms. */
  now: () => number;
  /** `http://host:port` used when a request has no Host header. */
  fallbackOrigin: () => string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createSandboxServer(deps: ServerDeps): Server {
  const server = createServer((req, res) => {
    const requestId = newRequestId();
    const headers: Record<string, string> = { 'X-Request-Id': requestId };
    handle(deps, req, res, requestId, headers).catch((err: unknown) => {
      const apiErr =
        err instanceof ApiError
          ? err
          : new ApiError(500, 'internal_error', `Unexpected failure; quote ${requestId} to support.`);
      if (!(err instanceof ApiError)) console.error(`[sandbox] ${requestId} ${req.method} ${req.url}:`, err);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      sendError(res, apiErr, requestId, headers);
    });
  });
  return server;
}

async function handle(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  headers: Record<string, string>,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  if (url.pathname === '/__sandbox' || url.pathname.startsWith('/__sandbox/')) {
    await handleAdmin(deps, req, res, url.pathname, requestId, headers);
    return;
  }
  // One version of the data for the whole request, even if a change lands while it is served.
  const data = deps.store.current;

  // 1. method
  if (req.method !== 'GET') {
    throw new ApiError(
      405,
      'method_not_allowed',
      `Method ${req.method ?? ''} is not allowed; this API is read-only (GET only).`,
      {
        Allow: 'GET',
      },
    );
  }
  // 2. bearer key
  const key = authenticate(req, data);

  // Injected faults (authenticated requests only; they do not consume the rate limit).
  const fault = deps.faults.next();
  deps.requests.record({ path: url.pathname, fault: fault.action });
  if (fault.delayMs > 0) await sleep(fault.delayMs);
  switch (fault.action) {
    case 'drop':
      req.socket.destroy();
      return;
    case 'hang':
      // Never answers: holds the request until the client gives up (or the sandbox closes).
      await new Promise<void>((resolve) => res.once('close', resolve));
      return;
    case '500':
      throw new ApiError(500, 'internal_error', `Injected failure; quote ${requestId} to support.`);
    case '429':
      throw new ApiError(429, 'rate_limited', 'Rate limit exceeded; retry after the Retry-After delay.', {
        'Retry-After': '1',
      });
    case 'malformed': {
      const body = `{"data":[{"id":"${requestId}","name":"trunc`;
      res.writeHead(200, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    case 'invalid_json': {
      // Complete, but not JSON: a bare NaN and a trailing comma.
      const body = `{"data":[],"pagination":{"cursor":null,"has_more":false},"total":NaN,"request_id":"${requestId}",}`;
      res.writeHead(200, { ...headers, 'Content-Type': JSON_TYPE, 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    case 'html': {
      // What a proxy or captive portal in front of the API answers.
      const body = '<!doctype html><html><head><title>Service Unavailable</title></head><body>Try later.</body></html>';
      res.writeHead(200, {
        ...headers,
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    default:
      break;
  }

  // 3. rate limit
  const limited = deps.limiter.take(key.key_id);
  Object.assign(headers, limited.headers);
  if (!limited.ok) {
    throw new ApiError(429, 'rate_limited', `Rate limit exceeded; retry in ${limited.retryAfter} s.`);
  }

  // 4. route
  const path = url.pathname;
  const match = path.startsWith('/v1/') ? deps.router.match(path.slice(3)) : null;
  if (!match) throw notFound(`No endpoint at ${path}.`);
  const { def } = match;

  // 5. scope
  requireScope(key, def.scope);

  // 6. query parameters (including the cursor)
  const today = deps.today();
  const query = parseQuery(url.searchParams, def.query, today);
  const scope = scopeOf(data, key);
  let resume: CursorState = { offset: 0 };
  let binding = '';
  if (def.query.list) {
    binding = deps.cursors.binding(key.key_id, path.endsWith('/') ? path.slice(0, -1) : path, query.filters);
    if (query.cursor !== null) {
      const state = deps.cursors.decode(query.cursor, binding);
      resume = state;
      if (state.window && def.query.dates === 'window') [query.from, query.to] = state.window;
    }
  }

  // 7. customer scoping (single resources are checked by their handlers)
  checkCustomerFilter(scope, query.customerId);

  const host = req.headers.host;
  const ctx: RouteContext = {
    req,
    data,
    key,
    scope,
    query,
    path: match.params,
    timeZone: data.organization.time_zone,
    today,
    nowMs: deps.now(),
    origin: host ? `http://${host}` : deps.fallbackOrigin(),
    links: deps.links,
  };
  const result = await def.handler(ctx);

  if (result.type === 'binary') {
    res.writeHead(200, {
      ...headers,
      ...result.headers,
      'Content-Type': result.contentType,
      'Content-Length': result.body.byteLength,
      'Cache-Control': 'no-store',
    });
    res.end(result.body);
    return;
  }
  if (result.type === 'object') {
    sendJson(res, 200, alterBody(fault.action, { data: result.data, request_id: requestId }), headers);
    return;
  }
  const window =
    def.query.dates === 'window' && query.from && query.to ? ([query.from, query.to] as [string, string]) : undefined;
  const project = (result.project ?? ((row: unknown) => row)) as (row: unknown) => unknown;
  const page = paginate(result.rows, resume, query.limit, project, deps.cursors, binding, window);
  if (fault.action === 'repeated_cursor') {
    // A server stuck on one page: it offers this very page again as the next one.
    page.pagination = {
      has_more: true,
      cursor: deps.cursors.encode(binding, { ...resume, ...(window ? { window } : {}) }),
    };
  }
  sendJson(
    res,
    200,
    alterBody(fault.action, { data: page.data, pagination: page.pagination, request_id: requestId }),
    headers,
  );
}
