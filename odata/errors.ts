/**
 * What the feed refuses or fails with, as OData error bodies (`{"error":{"code","message"}}`, the message one
 * sentence a person can act on). A failure of the Linen API keeps the sentence every other surface shows
 * (`userMessage` of the shared error classes).
 */
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  InternalServerError,
  InvalidParamsError,
  type LinenError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ResponseShapeError,
  TimeoutError,
} from '../shared/errors.ts';

/** The challenge that makes Excel and Power BI ask for a user name and password (the key). */
export const BASIC_CHALLENGE = 'Basic realm="Linen"';

export class ODataError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ODataError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** A request the feed does not understand: 400. */
export const badRequest = (message: string, code = 'bad_request') => new ODataError(400, code, message);

/** A request the feed understands but does not do: 501. */
export const notSupported = (message: string) => new ODataError(501, 'not_implemented', message);

/** A failure of the Linen API (or of reaching it) as the feed's answer, with the product's sentence. */
export function fromLinenError(err: LinenError): ODataError {
  if (err instanceof AuthenticationError || err instanceof ConfigurationError)
    return new ODataError(401, 'unauthorized', err.userMessage, { 'www-authenticate': BASIC_CHALLENGE });
  if (err instanceof PermissionDeniedError) return new ODataError(403, 'forbidden', err.userMessage);
  if (err instanceof NotFoundError) return new ODataError(404, 'not_found', err.userMessage);
  if (err instanceof RateLimitError) {
    const secs = err.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(err.retryAfterMs / 1000));
    return new ODataError(429, 'rate_limited', err.userMessage, secs === undefined ? {} : { 'retry-after': `${secs}` });
  }
  if (err instanceof TimeoutError) return new ODataError(504, 'timeout', err.userMessage);
  // A cursor of a next link the API no longer accepts (an old link, another key's): the query starts again.
  if (err instanceof InvalidParamsError && err.status === 422 && /cursor/i.test(err.message))
    return badRequest('This next link no longer works; run the query again from its start.', 'stale_next_link');
  if (
    err instanceof InternalServerError ||
    err instanceof ConnectionError ||
    err instanceof ResponseShapeError ||
    err instanceof InvalidParamsError
  )
    return new ODataError(502, 'bad_gateway', err.userMessage);
  return new ODataError(502, 'bad_gateway', err.userMessage);
}
