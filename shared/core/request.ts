/**
 * One API call as an operation: pace, send, map the status to an error, retry what is transient, parse.
 */
import {
  ConnectionError,
  LinenError,
  RateLimitError,
  ResponseShapeError,
  TimeoutError,
  errorFromResponse,
} from '../errors.ts';
import { redact } from '../redact.ts';
import type * as z from 'zod/mini';
import { errorEnvelope } from '../schemas/common.ts';
import { bodyText } from './decode.ts';
import { http, now, sleep, type HttpRequest, type HttpResponse, type Operation, type ResponseType } from './effects.ts';
import type { Pacer } from './pacing.ts';
import { decideRetry, parseRetryAfter, type RetryPolicy } from './retry.ts';

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
  pacer: Pacer | null;
  random: () => number;
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
  url: string;
  responseType: ResponseType;
  /** Scope the endpoint needs, to word a 403. */
  scope?: string | undefined;
  parse(res: HttpResponse): T;
}

function isAbort(e: unknown): boolean {
  return e instanceof Error && (e.name === 'AbortError' || (e as { code?: unknown }).code === 'ABORT_ERR');
}

/** Turn whatever a transport threw into a LinenError with no key in it. */
export function transportFailure(e: unknown, secrets: readonly string[]): LinenError {
  if (e instanceof ConnectionError || e instanceof TimeoutError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const name = e instanceof Error ? e.name : '';
  const code = String((e as { code?: unknown })?.code ?? '');
  if (/timeout/i.test(name) || /timeout/i.test(code) || /timed? ?out/i.test(msg)) {
    return new TimeoutError({ message: `Request timed out: ${msg}`, secrets, cause: e });
  }
  return new ConnectionError({ message: `Connection failed: ${msg}`, secrets, cause: e });
}

/** Build the error for a non-2xx response. */
export function errorForResponse(
  res: HttpResponse,
  nowMs: number,
  opts: { scope?: string | undefined; secrets: readonly string[] },
): LinenError {
  let code = `http_${res.status}`;
  let message = `HTTP ${res.status}`;
  let requestId: string | undefined = res.headers['x-request-id'];
  try {
    const parsed = errorEnvelope.safeParse(JSON.parse(bodyText(res.body)));
    if (parsed.success) {
      code = parsed.data.error.code;
      message = parsed.data.error.message;
      requestId = parsed.data.request_id;
    }
  } catch {
    // not JSON: keep the generic text
  }
  const retryAfterMs = parseRetryAfter(res.headers['retry-after'], nowMs);
  return errorFromResponse({
    status: res.status,
    code,
    message,
    requestId,
    secrets: opts.secrets,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(opts.scope ? { scope: opts.scope } : {}),
  });
}

function* pace(cfg: CoreConfig, deadline: number): Operation<void> {
  if (!cfg.pacer) return;
  for (;;) {
    const t = yield* now();
    const wait = cfg.pacer.tryAcquire(t);
    if (wait <= 0) return;
    if (t + wait > deadline) {
      throw new RateLimitError({
        status: 429,
        code: 'client_rate_limited',
        message: `the client's pacing (${cfg.pacer.limit} requests per ${cfg.pacer.windowMs} ms) needs a ${wait} ms wait, beyond the time budget`,
        requestId: undefined,
        retryAfterMs: wait,
      });
    }
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

/** Send one request with pacing and retries, within the budget; return the parsed result. */
export function* send<T>(cfg: CoreConfig, spec: RequestSpec<T>, budget: Budget): Operation<T> {
  const secrets = [cfg.apiKey];
  const start = yield* now();
  if (budget.deadline === undefined) budget.deadline = start + (budget.budgetMs ?? cfg.timeBudgetMs);
  const deadline = budget.deadline;
  const req = buildRequest(cfg, spec.url, spec.responseType);
  let lastError: LinenError | undefined;
  for (let attempt = 0; ; attempt++) {
    yield* pace(cfg, deadline);
    const t = yield* now();
    const timeoutMs = Math.min(cfg.requestTimeoutMs, deadline - t);
    if (timeoutMs <= 0) {
      throw lastError ?? new TimeoutError({ message: `${spec.endpoint}: the time budget of ${cfg.timeBudgetMs} ms ran out` });
    }
    let err: LinenError | undefined;
    let res: HttpResponse | undefined;
    try {
      res = yield* http(req, timeoutMs);
    } catch (e) {
      if (isAbort(e)) throw e;
      err = transportFailure(e, secrets);
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
        if (err instanceof RateLimitError && err.retryAfterMs !== undefined) cfg.pacer?.blockUntil(at + err.retryAfterMs);
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

/** Format a zod issue path as `data[3].balance_cents`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || '(root)';
}

/** Parse a JSON body against an envelope schema, or throw ResponseShapeError naming the field. */
export function parseJson<S extends z.ZodMiniType>(schema: S, endpoint: string, res: HttpResponse): z.infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(bodyText(res.body));
  } catch (e) {
    throw new ResponseShapeError({
      endpoint,
      field: '(body)',
      detail: `not JSON (${e instanceof Error ? e.message : String(e)})`,
      requestId: res.headers['x-request-id'],
      status: res.status,
    });
  }
  const r = schema.safeParse(json);
  if (r.success) return r.data as z.infer<S>;
  const rid = (json as { request_id?: unknown } | null)?.request_id;
  const issue = r.error.issues[0];
  throw new ResponseShapeError({
    endpoint,
    field: issue ? formatPath(issue.path) : '(root)',
    detail: issue ? describeIssue(issue, json) : 'invalid',
    requestId: typeof rid === 'string' ? rid : res.headers['x-request-id'],
    status: res.status,
  });
}

function valueAt(json: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = json;
  for (const p of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

function describeIssue(issue: { message: string; path: readonly PropertyKey[]; expected?: unknown }, json: unknown): string {
  const v = valueAt(json, issue.path);
  const got = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  const expected = typeof issue.expected === 'string' ? `expected ${issue.expected}, ` : '';
  return redact(`${issue.message} (${expected}got ${got})`);
}
