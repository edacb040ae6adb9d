/**
 * Everything the service answers under `/odata`, behind one framework-free function in the shape of Excel's
 * routes: `routes(req, res)` answers a request under `/odata` and resolves true, or leaves it alone and resolves
 * false, so the service's one HTTP server mounts it beside Slack, Teams and Excel.
 *
 *   /odata                 -> /odata/
 *   /odata/                the service document          /odata/$metadata      CSDL XML
 *   /odata/<Set>           a page of the set             /odata/<Set>/$count   the count, as text
 *   /odata/linen.pbids     the Power BI data source file (no key in it, no credentials needed)
 *
 * The checks come in this order, the first failure answering: the method (GET and HEAD only: 405), a known path
 * (404), a key in the query string (400, never forwarded), the caller's key in the Authorization header (401 with
 * a Basic challenge), the query options (400, or 501 for what the feed does not do). The caller's key goes to
 * LINEN_BASE_URL only, through the key's pacing shared with everything else of the service and the process's
 * shared answers. Log lines name the method and the set, never the key or the query.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { credentialInQuery } from '../excel-addin/service/request-checks.ts';
import type { AsyncTransport } from '../shared/core/effects.ts';
import type { RequestObserver } from '../shared/core/observer.ts';
import type { RequestPacer } from '../shared/core/pacing.ts';
import { LinenError } from '../shared/errors.ts';
import { createLinenClient, type LinenClient, processAnswers, UndiciTransport } from '../shared/node.ts';
import { pbids } from './connection-file.ts';
import { keyOf, missingKey } from './credentials.ts';
import type { PrimitiveType, Property } from './edm.ts';
import { badRequest, fromLinenError, notSupported, ODataError } from './errors.ts';
import { METADATA_XML, serviceDocument } from './metadata.ts';
import { decodePosition } from './paging.ts';
import { type FeedQuery, parseQuery } from './query/options.ts';
import { countRows, readPage } from './read.ts';
import { ENTITY_SETS, type EntitySet, entitySet, type FeedRow } from './sets.ts';

export const ODATA_PREFIX = '/odata';
export const PBIDS_FILE = 'linen.pbids';
/** Rows of a page when the tool states no `odata.maxpagesize`. */
export const DEFAULT_PAGE_SIZE = 1_000;
const MAX_PAGE_SIZE = 5_000;

/** Budgets of a feed page: nobody types while a tool refreshes, so slow pages and retries are worth the wait. */
const BUDGET = { timeBudgetMs: 60_000, requestTimeoutMs: 20_000, maxRetries: 2 } as const;

export interface ODataLog {
  info(line: string): void;
  warn(line: string): void;
  error(line: string): void;
  debug(line: string): void;
}

export interface ODataRoutesDeps {
  /** `LINEN_BASE_URL`, ending in `/v1`: the only place the feed sends a key. */
  baseUrl: string;
  /** The pacer every client of a key shares (the service's `keyPacers(...).for`). */
  pacerFor(apiKey: string): RequestPacer;
  /** The service's scrubbing logger. */
  logger: ODataLog;
  /** The service's request metrics, when it keeps any. */
  observer?: RequestObserver | undefined;
  /** `PUBLIC_URL`: the origin tools reach the service at; links are absolute with it, relative without. */
  publicUrl?: string | undefined;
  /** Tests: the transport to the API (default undici). */
  transport?: AsyncTransport | undefined;
  /** Tests: the clock (today's UTC day bounds an open-ended date window). */
  now?: (() => number) | undefined;
}

export interface ODataRoutes {
  (req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Closes the feed's connections to the API. */
  close(): Promise<void>;
}

const JSON_TYPE = 'application/json;odata.metadata=minimal;charset=utf-8';

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string>,
): void {
  res.writeHead(status, {
    'odata-version': '4.0',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendError(req: IncomingMessage, res: ServerResponse, err: ODataError): void {
  send(req, res, err.status, JSON.stringify({ error: { code: err.code, message: err.message } }), {
    'content-type': 'application/json;charset=utf-8',
    ...err.headers,
  });
}

/** `Prefer: odata.maxpagesize=N` (or 4.01's `maxpagesize`), when the tool states one. */
function maxPageSize(prefer: string | string[] | undefined): number | undefined {
  const text = Array.isArray(prefer) ? prefer.join(',') : (prefer ?? '');
  const m = /(?:^|[,;\s])(?:odata\.)?maxpagesize\s*=\s*"?(\d{1,9})"?/i.exec(text);
  const n = m ? Number(m[1]) : undefined;
  return n !== undefined && n >= 1 ? n : undefined;
}

/** Whether the tool asks for decimals as strings (`IEEE754Compatible=true` in Accept). */
const ieee754 = (accept: string | undefined) => /IEEE754Compatible\s*=\s*true/i.test(accept ?? '');

const NUMBER_AS_TEXT: ReadonlySet<PrimitiveType> = new Set(['Edm.Decimal']);

function wireValue(p: Property, v: unknown, asText: boolean): unknown {
  if (v === null || !asText) return v;
  if (p.kind === 'primitive') return NUMBER_AS_TEXT.has(p.type) ? String(v) : v;
  if (p.kind === 'complex') {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(p.properties.map((q) => [q.name, wireValue(q, o[q.name] ?? null, asText)]));
  }
  return v;
}

function project(set: EntitySet, query: FeedQuery, row: FeedRow, asText: boolean): FeedRow {
  const out: FeedRow = {};
  for (const p of set.properties)
    if (!query.select || query.select.includes(p.name)) out[p.name] = wireValue(p, row[p.name] ?? null, asText);
  return out;
}

/** `/odata/<rest>` decoded, or undefined for a path no set could have. */
function resourceOf(path: string): string | undefined {
  try {
    return decodeURIComponent(path.slice(ODATA_PREFIX.length + 1));
  } catch {
    return undefined;
  }
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function createODataRoutes(deps: ODataRoutesDeps): ODataRoutes {
  const transport = deps.transport ?? new UndiciTransport();
  const now = deps.now ?? Date.now;
  const publicRoot = deps.publicUrl ? `${deps.publicUrl.replace(/\/+$/, '')}${ODATA_PREFIX}/` : undefined;
  /** Links in payloads: absolute under PUBLIC_URL, else relative to the service root. */
  const base = publicRoot ?? '';

  function clientFor(apiKey: string): LinenClient {
    try {
      return createLinenClient({
        apiKey,
        baseUrl: deps.baseUrl,
        // Days are sent as written; the client reads no time zone of its own for the feed's windows.
        timeZone: 'UTC',
        pacing: deps.pacerFor(apiKey),
        sharedAnswers: processAnswers,
        observer: deps.observer,
        transport,
        userAgent: 'linen-connect-odata/0.1',
        ...BUDGET,
      });
    } catch (err) {
      if (err instanceof LinenError) throw fromLinenError(err);
      throw err;
    }
  }

  /** The feed's root as the caller reached it, for the connection file when PUBLIC_URL is not set. */
  function rootOf(req: IncomingMessage): string {
    if (publicRoot) return publicRoot;
    const host = req.headers.host ?? '';
    if (!/^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host))
      throw badRequest('The request names no host this service can put in a connection file; set PUBLIC_URL.');
    const scheme = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    return `${scheme}://${host}${ODATA_PREFIX}/`;
  }

  async function serveSet(
    req: IncomingMessage,
    res: ServerResponse,
    set: EntitySet,
    apiKey: string,
    search: URLSearchParams,
    countOnly: boolean,
  ): Promise<string> {
    const query = parseQuery(search, set);
    const position = query.skiptoken === undefined ? undefined : decodePosition(query.skiptoken);
    const asked = maxPageSize(req.headers.prefer);
    const pageSize = Math.min(asked ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const aborted = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) aborted.abort();
    };
    res.on('close', onClose);
    try {
      const ctx = {
        client: clientFor(apiKey),
        set,
        query,
        pageSize,
        todayUtc: utcDay(now()),
        signal: aborted.signal,
      };
      if (countOnly) {
        const n = await countRows(ctx);
        send(req, res, 200, String(n), { 'content-type': 'text/plain;charset=utf-8' });
        return `count ${n}`;
      }
      const page = await readPage(ctx, position);
      const asText = ieee754(req.headers.accept);
      const select = query.select ? `(${query.select.join(',')})` : '';
      const body: Record<string, unknown> = { '@odata.context': `${base}$metadata#${set.name}${select}` };
      if (page.count !== undefined) body['@odata.count'] = page.count;
      body.value = page.rows.map((row) => project(set, query, row, asText));
      if (page.next !== undefined) {
        const options = [...query.carried, ['$skiptoken', page.next] as [string, string]]
          .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
          .join('&');
        body['@odata.nextLink'] = `${base}${set.name}?${options}`;
      }
      const headers: Record<string, string> = {
        'content-type': asText ? JSON_TYPE.replace(';charset', ';IEEE754Compatible=true;charset') : JSON_TYPE,
      };
      if (asked !== undefined && asked <= MAX_PAGE_SIZE) headers['preference-applied'] = `odata.maxpagesize=${asked}`;
      send(req, res, 200, JSON.stringify(body), headers);
      return `${page.rows.length} rows${page.next ? ', more' : ''}`;
    } finally {
      res.off('close', onClose);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string): Promise<void> {
    const resource = resourceOf(path);
    const [setName, segment, ...extra] = (resource ?? '').split('/');
    const where = `${req.method} ${ODATA_PREFIX}/${resource !== undefined && entitySet(setName ?? '') ? `${setName}${segment ? `/${segment}` : ''}` : resource === '' || resource === '$metadata' || resource === PBIDS_FILE ? resource : '(unknown path)'}`;
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        throw new ODataError(405, 'method_not_allowed', 'The feed is read-only: it answers GET and HEAD only.', {
          allow: 'GET, HEAD',
        });
      if (resource === PBIDS_FILE) {
        send(req, res, 200, pbids(rootOf(req)), {
          'content-type': 'application/json;charset=utf-8',
          'content-disposition': `attachment; filename="${PBIDS_FILE}"`,
        });
        return;
      }
      const set = setName ? entitySet(setName) : undefined;
      const known = resource === '' || resource === '$metadata' || (set !== undefined && extra.length === 0);
      if (resource === undefined || !known) {
        if (setName && /^[A-Za-z]+\(.*\)$/.test(setName) && entitySet(setName.slice(0, setName.indexOf('('))))
          throw notSupported(
            `The feed does not look rows up by key: read the set with a filter instead, such as ${setName.slice(0, setName.indexOf('('))}?$filter=id eq '…'.`,
          );
        throw new ODataError(
          404,
          'not_found',
          `The feed has no ${JSON.stringify((resource ?? path).slice(0, 60))}; its sets are ${ENTITY_SETS.map((s) => s.name).join(', ')}.`,
        );
      }
      if (set && segment !== undefined && segment !== '$count')
        throw notSupported(
          `The feed reads whole rows of ${set.name}: ${JSON.stringify(segment.slice(0, 40))} is not something it serves.`,
        );
      const search = new URLSearchParams(rawQuery);
      let apiKey: string | undefined;
      let keyError: ODataError | undefined;
      try {
        apiKey = keyOf(req.headers.authorization);
      } catch (err) {
        if (!(err instanceof ODataError)) throw err;
        keyError = err;
      }
      if (credentialInQuery(search, apiKey) !== undefined)
        throw badRequest(
          'A key never goes in a URL: remove it from the address and sign in with Basic authentication (the key as the password).',
          'credential_in_query',
        );
      if (keyError) throw keyError;
      if (apiKey === undefined) throw missingKey();
      if (resource === '') {
        send(req, res, 200, JSON.stringify(serviceDocument(base)), { 'content-type': JSON_TYPE });
        return;
      }
      if (resource === '$metadata') {
        send(req, res, 200, METADATA_XML, { 'content-type': 'application/xml;charset=utf-8' });
        return;
      }
      const outcome = await serveSet(req, res, set!, apiKey, search, segment === '$count');
      deps.logger.debug(`odata: ${where}: ${outcome}`);
    } catch (err) {
      if (res.destroyed) {
        // The tool hung up (a refresh cancelled): the listing was aborted, and there is nobody to answer.
        deps.logger.debug(`odata: ${where}: the caller hung up`);
        return;
      }
      let answer: ODataError;
      if (err instanceof ODataError) answer = err;
      else if (err instanceof LinenError) {
        answer = fromLinenError(err);
        const line = `odata: ${where}: the Linen API answered ${err.name} (${err.code})`;
        if (answer.status >= 500) deps.logger.warn(line);
        else deps.logger.info(line);
      } else {
        deps.logger.error(`odata: ${where} failed: ${err instanceof Error ? err.name : 'error'}`);
        answer = new ODataError(
          500,
          'internal_error',
          'The feed failed unexpectedly; try again, and tell whoever runs the service if it goes on.',
        );
      }
      if (err instanceof ODataError) deps.logger.info(`odata: refused ${where}: ${answer.status} ${answer.code}`);
      if (res.headersSent) res.end();
      else sendError(req, res, answer);
    }
  }

  const routes = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q < 0 ? raw : raw.slice(0, q);
    if (path === ODATA_PREFIX) {
      res.writeHead(308, { location: `${ODATA_PREFIX}/${q < 0 ? '' : raw.slice(q)}`, 'odata-version': '4.0' });
      res.end();
      return true;
    }
    if (!path.startsWith(`${ODATA_PREFIX}/`)) return false;
    await handle(req, res, path, q < 0 ? '' : raw.slice(q + 1));
    return true;
  };
  return Object.assign(routes, { close: async () => transport.close?.() });
}
