/** What went wrong with one request, as a LinenError with no key in it: a transport failure or an error status. */
import { ConnectionError, errorFromResponse, type LinenError, TimeoutError } from '../errors.ts';
import { errorEnvelope } from '../schemas/common.ts';
import { bodyText } from './decode.ts';
import type { HttpResponse } from './effects.ts';
import { parseRetryAfter } from './retry.ts';

export function isAbort(e: unknown): boolean {
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
