/**
 * What the relay refuses before it forwards anything: a path that could leave the API's `/v1` (dot segments,
 * encoded characters, empty segments), and a query that carries a credential (a parameter named like one, or a
 * value shaped like a Linen key or a bearer token). A key travels only in the Authorization header.
 */

/** Parameter names that carry credentials in other APIs; the Linen API has none of them. */
const CREDENTIAL_NAMES = new Set([
  'key',
  'api_key',
  'apikey',
  'api-key',
  'token',
  'access_token',
  'auth',
  'authorization',
  'bearer',
  'secret',
  'password',
]);

/** A Linen key (`lk_live_…`, `lk_test_…`) or a bearer token. */
const CREDENTIAL_SHAPED = /^(lk_[a-z]+_[A-Za-z0-9_-]{6,}|bearer\s+\S+)$/i;

/** One path segment: unreserved characters, not starting with a dot (no `.` or `..`). */
const SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]*$/;

/** Whether `path` (below `/v1`, raw as received) names an API path and nothing else. */
export function isApiPath(path: string): boolean {
  if (!path.startsWith('/') || path.length > 512) return false;
  return path
    .slice(1)
    .split('/')
    .every((s) => SEGMENT.test(s));
}

/** The name of the first query parameter that carries a credential (or is `apiKey` itself), else undefined. */
export function credentialInQuery(query: URLSearchParams, apiKey: string | undefined): string | undefined {
  for (const [name, value] of query) {
    if (CREDENTIAL_NAMES.has(name.toLowerCase())) return name;
    const v = value.trim();
    if (CREDENTIAL_SHAPED.test(v) || (apiKey !== undefined && apiKey.length >= 8 && v.includes(apiKey))) return name;
  }
  return undefined;
}

/** The bearer key of a request, or undefined when it sends none (or sends it another way). */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
