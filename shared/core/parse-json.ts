/** Reading a JSON body against its envelope schema; a body of the wrong shape names the field that is off. */
import type * as z from 'zod/mini';
import { ResponseShapeError } from '../errors.ts';
import { redact } from '../redact.ts';
import { bodyText } from './decode.ts';
import type { HttpResponse } from './effects.ts';

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

function describeIssue(
  issue: { message: string; path: readonly PropertyKey[]; expected?: unknown },
  json: unknown,
): string {
  const v = valueAt(json, issue.path);
  const got = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
  const expected = typeof issue.expected === 'string' ? `expected ${issue.expected}, ` : '';
  return redact(`${issue.message} (${expected}got ${got})`);
}
