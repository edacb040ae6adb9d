/** API errors and the error envelope of `docs/linen-api-v1.md` (Errors). */

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'invalid_params'
  | 'rate_limited'
  | 'internal_error';

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** Extra response headers (e.g. `Allow`, `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(status: number, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

export const notFound = (message: string): ApiError => new ApiError(404, 'not_found', message);
export const invalidParams = (message: string): ApiError => new ApiError(422, 'invalid_params', message);
export const forbidden = (message: string): ApiError => new ApiError(403, 'forbidden', message);

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
  request_id: string;
}

export function errorEnvelope(err: ApiError, requestId: string): ErrorEnvelope {
  return { error: { code: err.code, message: err.message }, request_id: requestId };
}
