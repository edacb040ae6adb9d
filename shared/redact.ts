/**
 * Keeping the API key out of every string the client produces.
 *
 * The key only ever lives in the `authorization` header of an HttpRequest. Anything that could carry
 * request headers or a transport's error text goes through `redact` before it reaches an error message.
 */

const BEARER = /(bearer\s+)[^\s"',;]+/gi;
const AUTH_HEADER = /("?authorization"?\s*[:=]\s*"?)[^"\n,}]+/gi;

export const REDACTED = '[redacted]';

/** Replace every occurrence of the given secrets, and any bearer token or authorization header value. */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(REDACTED);
  }
  return out.replace(AUTH_HEADER, `$1${REDACTED}`).replace(BEARER, `$1${REDACTED}`);
}

/** `lk_live_demo_all_access` -> `lk_live_…cess`: enough to recognise a key, never enough to use it. */
export function maskKey(key: string | null): string {
  return key ? `${key.slice(0, 8)}…${key.slice(-4)}` : '';
}
