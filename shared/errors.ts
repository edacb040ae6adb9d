/**
 * One error class per failure a caller may want to tell apart, each with a `userMessage`: one sentence a
 * person can act on (shown in a Sheets cell or a Slack reply). Messages never contain the API key:
 * every text that enters an error passes through `redact`.
 */
import { redact } from './redact.ts';

export interface LinenErrorInit {
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  requestId?: string | undefined;
  userMessage?: string | undefined;
  /** Secrets to scrub from every text of the error, in addition to bearer-looking tokens. */
  secrets?: readonly string[] | undefined;
  cause?: unknown;
}

function scrubCause(cause: unknown, secrets: readonly string[]): Error | undefined {
  if (cause === undefined || cause === null) return undefined;
  if (cause instanceof LinenError) return cause;
  const name = cause instanceof Error ? cause.name : 'Error';
  const msg = cause instanceof Error ? cause.message : String(cause);
  const copy = new Error(redact(msg, secrets));
  copy.name = name;
  const code = (cause as { code?: unknown }).code;
  if (typeof code === 'string') (copy as Error & { code?: string }).code = code;
  if (cause instanceof Error && cause.stack) copy.stack = redact(cause.stack, secrets);
  return copy;
}

export class LinenError extends Error {
  /** HTTP status, when the error came from a response. */
  readonly status: number | undefined;
  /** The API's error code (`unauthorized`, `rate_limited`, ...) or a client-side code. */
  readonly code: string;
  /** The `request_id` of the response, to quote to support. */
  readonly requestId: string | undefined;
  /** One sentence a person can act on. */
  readonly userMessage: string;

  constructor(init: LinenErrorInit) {
    const secrets = init.secrets ?? [];
    const message = redact(init.message, secrets);
    const cause = scrubCause(init.cause, secrets);
    super(message, cause ? { cause } : undefined);
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code ?? 'error';
    this.requestId = init.requestId;
    this.userMessage = redact(init.userMessage ?? message, secrets);
    if (this.stack) this.stack = redact(this.stack, secrets);
  }

  override toString(): string {
    return `${this.name}: ${this.message}`;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      userMessage: this.userMessage,
    };
  }
}

const reqSuffix = (requestId: string | undefined) => (requestId ? ` (request ${requestId})` : '');

export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  requestId: string | undefined;
  secrets?: readonly string[] | undefined;
}

function apiInit(i: ApiErrorInit, userMessage: string): LinenErrorInit {
  return {
    status: i.status,
    code: i.code,
    requestId: i.requestId,
    secrets: i.secrets,
    message: `${i.status} ${i.code}: ${i.message}${reqSuffix(i.requestId)}`,
    userMessage,
  };
}

/** 401: the key is missing, unknown or revoked. */
export class AuthenticationError extends LinenError {
  constructor(i: ApiErrorInit) {
    super(apiInit(i, 'The API key was rejected: it may be revoked or mistyped.'));
  }
}

/** How each scope is named to a person ("This key has no accounting access."). */
export const SCOPE_LABELS: Record<string, string> = {
  processing: 'processing (deliveries, manifests, inventory)',
  accounting: 'accounting',
  direct_sales: 'direct-sales',
};

/** 403: the key lacks the endpoint's scope (or a signed PDF link is expired or for another key). */
export class PermissionDeniedError extends LinenError {
  /** The scope the endpoint needs, when the client knows it. */
  readonly scope: string | undefined;
  constructor(i: ApiErrorInit & { scope?: string | undefined }) {
    const user = i.scope
      ? `This key has no ${SCOPE_LABELS[i.scope] ?? i.scope} access.`
      : `Access denied: ${i.message}`;
    super(apiInit(i, user));
    this.scope = i.scope;
  }
}

/** 404: unknown route, or a resource or customer outside the key's access. */
export class NotFoundError extends LinenError {
  /** `userMessage` is given when the client itself found nothing (a lookup) and can say so in one sentence. */
  constructor(i: ApiErrorInit & { userMessage?: string | undefined }) {
    super(apiInit(i, i.userMessage ?? `Not found, or not visible to this key: ${i.message}`));
  }
}

/** 405: a method other than GET (the client only sends GET, so this means a misrouted base URL). */
export class MethodNotAllowedError extends LinenError {
  constructor(i: ApiErrorInit) {
    super(apiInit(i, 'The Linen API refused the request method; check the configured base URL.'));
  }
}

/** 422 from the API, or a parameter the client refused before sending anything (`status` undefined). */
export class InvalidParamsError extends LinenError {
  constructor(i: ApiErrorInit | { message: string; param?: string }) {
    if ('status' in i) super(apiInit(i, `Invalid request: ${i.message}`));
    else super({ code: 'invalid_params', message: i.message, userMessage: `Invalid request: ${i.message}` });
  }
}

/** 429 from the API, or the client's own pacing could not fit the request inside the time budget. */
export class RateLimitError extends LinenError {
  /** How long to wait before trying again. */
  readonly retryAfterMs: number | undefined;
  constructor(i: ApiErrorInit & { retryAfterMs: number | undefined }) {
    const secs = i.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(i.retryAfterMs / 1000));
    const user =
      secs === undefined
        ? 'The Linen API is busy (rate limited); try again shortly.'
        : `The Linen API is busy (rate limited); try again in ${secs} second${secs === 1 ? '' : 's'}.`;
    super(apiInit(i, user));
    this.retryAfterMs = i.retryAfterMs;
  }
}

/** 5xx. */
export class InternalServerError extends LinenError {
  constructor(i: ApiErrorInit) {
    super(
      apiInit(
        i,
        i.requestId
          ? `The Linen API had an internal error (request ${i.requestId}); quote it to support.`
          : 'The Linen API had an internal error; try again later.',
      ),
    );
  }
}

/** The request never got a complete response (refused, reset, DNS, TLS, truncated body). */
export class ConnectionError extends LinenError {
  constructor(init: { message: string; secrets?: readonly string[]; cause?: unknown }) {
    super({
      ...init,
      code: 'connection_error',
      userMessage: 'Could not reach the Linen API; check the network and try again.',
    });
  }
}

/** The request took longer than the per-request timeout. */
export class TimeoutError extends LinenError {
  constructor(init: { message: string; secrets?: readonly string[]; cause?: unknown }) {
    super({ ...init, code: 'timeout', userMessage: 'The Linen API did not answer in time; try again.' });
  }
}

/** A response that does not match the specification. */
export class ResponseShapeError extends LinenError {
  readonly endpoint: string;
  /** Path of the offending field, e.g. `data[3].balance_cents`. */
  readonly field: string;
  constructor(i: { endpoint: string; field: string; detail: string; requestId: string | undefined; status?: number }) {
    super({
      status: i.status,
      code: 'response_shape',
      requestId: i.requestId,
      message: `Unexpected response from ${i.endpoint}: ${i.field}: ${i.detail}${reqSuffix(i.requestId)}`,
      userMessage: `The Linen API sent an unexpected response for ${i.endpoint}${reqSuffix(i.requestId)}; try again or quote it to support.`,
    });
    this.endpoint = i.endpoint;
    this.field = i.field;
  }
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), endpoint: this.endpoint, field: this.field };
  }
}

/** The client was set up or called in a way that cannot work (missing key, bad base URL, foreign PDF link). */
export class ConfigurationError extends LinenError {
  constructor(message: string, userMessage?: string) {
    super({ code: 'configuration', message, userMessage: userMessage ?? message });
  }
}

/** Map an error response to its class. */
export function errorFromResponse(i: ApiErrorInit & { retryAfterMs?: number; scope?: string }): LinenError {
  const s = i.status;
  if (s === 401) return new AuthenticationError(i);
  if (s === 403) return new PermissionDeniedError(i);
  if (s === 404) return new NotFoundError(i);
  if (s === 405) return new MethodNotAllowedError(i);
  if (s === 422) return new InvalidParamsError(i);
  if (s === 429) return new RateLimitError({ ...i, retryAfterMs: i.retryAfterMs });
  if (s >= 500) return new InternalServerError(i);
  return new LinenError({ ...apiInit(i, `The Linen API refused the request: ${i.message}`) });
}
