/**
 * Where a next link resumes, as an opaque `$skiptoken`: which listing of the query, the API's cursor of the page
 * being read (the client's, which also names the 92-day chunk of a long window), how many of that page's rows
 * were already given, and how many rows were given and skipped so far (for `$top` and `$skip`). Or, for an
 * ordered or counted query, the offset into its sorted rows. It carries no key, and nothing in it is trusted:
 * a listing index out of range or a cursor the API does not accept is a 400 sentence.
 */
import { badRequest } from './errors.ts';

export interface StreamPosition {
  /** Index of the listing (the query's API listings, in order). */
  i: number;
  /** The client's cursor of the page being read; null: the listing's first page. */
  c: string | null;
  /** Rows of that page already read. */
  o: number;
  /** Rows given so far. */
  e: number;
  /** Matching rows skipped so far (`$skip`). */
  s: number;
}

export type Position = { kind: 'stream'; at: StreamPosition } | { kind: 'offset'; offset: number };

export const START: StreamPosition = { i: 0, c: null, o: 0, e: 0, s: 0 };

const invalid = () =>
  badRequest('This next link is not one the feed wrote; run the query again from its start.', 'invalid_skiptoken');

const isCount = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function encodePosition(p: Position): string {
  const body = p.kind === 'stream' ? { v: 1, ...p.at } : { v: 1, n: p.offset };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

export function decodePosition(token: string): Position {
  if (token.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(token)) throw invalid();
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof body !== 'object' || body === null || (body as { v?: unknown }).v !== 1) throw invalid();
  const b = body as Record<string, unknown>;
  if ('n' in b) {
    if (!isCount(b.n)) throw invalid();
    return { kind: 'offset', offset: b.n as number };
  }
  if (!isCount(b.i) || !isCount(b.o) || !isCount(b.e) || !isCount(b.s)) throw invalid();
  if (b.c !== null && (typeof b.c !== 'string' || b.c === '' || b.c.length > 2048)) throw invalid();
  return {
    kind: 'stream',
    at: { i: b.i as number, c: b.c as string | null, o: b.o as number, e: b.e as number, s: b.s as number },
  };
}
