/// <reference types="google-apps-script" />
/**
 * The response cache: one entry per list walk (every page of a listing, validated by the client), shared by
 * every execution of the spreadsheet through CacheService, and filled by one execution at a time under the
 * document lock so a recalculation of a hundred cells fetches each listing once.
 *
 * Values are packed (column-wise, repeated strings interned) and split into chunks under CacheService's
 * 100 KB per value. Keys carry the API address, a digest of the key and the request, and the refresh
 * generation, so "Refresh data" and a new key simply stop matching old entries.
 */
import { ERROR_TTL_MS, LISTING_TTL_MS } from '../../shared/cells/freshness.ts';
import { CellSentence } from '../../shared/cells/messages.ts';
import type { Operation } from '../../shared/core/effects.ts';
import { documentLock, responseCache, sha256 } from './gas.ts';

/** How long a listing stays cached (CacheService allows at most 6 hours): the cells' own lifetime, as in Excel. */
export const TTL_SECONDS = LISTING_TTL_MS / 1000;
/** Errors that will not change by themselves (bad key, missing scope) are kept briefly. */
export const ERROR_TTL_SECONDS = ERROR_TTL_MS / 1000;
/** Room below CacheService's 100 KB per value. */
export const CHUNK_BYTES = 90_000;

type Row = Record<string, unknown>;

interface Packed {
  /** Column names. */
  k: string[];
  /** Interned strings. */
  s: string[];
  /** Per column: 1 when the values are indexes into `s` (-1 for null), 0 when raw JSON values. */
  t: number[];
  /** Columns of values. */
  c: unknown[][];
  n: number;
}

export function pack(rows: readonly Row[]): Packed {
  const seen = new Set<string>();
  for (const r of rows) for (const k of Object.keys(r)) seen.add(k);
  const keys = [...seen];
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (s: string) => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      index.set(s, i);
    }
    return i;
  };
  const types: number[] = [];
  const cols: unknown[][] = [];
  for (const k of keys) {
    const stringy = rows.every((r) => r[k] === null || typeof r[k] === 'string');
    types.push(stringy ? 1 : 0);
    cols.push(
      rows.map((r) => (stringy ? (r[k] === null ? -1 : intern(r[k] as string)) : r[k] === undefined ? null : r[k])),
    );
  }
  return { k: keys, s: strings, t: types, c: cols, n: rows.length };
}

export function unpack(p: Packed): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < p.n; i++) {
    const r: Row = {};
    p.k.forEach((k, j) => {
      const v = p.c[j]![i];
      r[k] = p.t[j] ? (v === -1 ? null : p.s[v as number]) : v;
    });
    out.push(r);
  }
  return out;
}

/** Split text into pieces of at most `max` UTF-8 bytes, never inside a surrogate pair. */
export function chunk(text: string, max = CHUNK_BYTES): string[] {
  // ASCII (what JSON of ids, names and numbers mostly is) is a byte a character; otherwise at most three.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
  const size = /^[\x00-\x7f]*$/.test(text) ? max : Math.floor(max / 3);
  const out: string[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

type Entry = { v: unknown } | { e: string };

/** Read a stored entry: the head holds either the value or the chunk count. */
function read(cache: GoogleAppsScript.Cache.Cache, key: string): Entry | null {
  const head = cache.get(key);
  if (head === null) return null;
  try {
    if (head.startsWith('#')) {
      const n = Number(head.slice(1));
      const names = Array.from({ length: n }, (_, i) => `${key}.${i}`);
      const parts = cache.getAll(names);
      if (names.some((name) => typeof parts[name] !== 'string')) return null; // a chunk was evicted
      return JSON.parse(names.map((name) => parts[name]).join('')) as Entry;
    }
    return JSON.parse(head) as Entry;
  } catch {
    return null;
  }
}

function write(cache: GoogleAppsScript.Cache.Cache, key: string, entry: Entry, ttl: number): void {
  const text = JSON.stringify(entry);
  try {
    const parts = chunk(text);
    if (parts.length === 1) {
      cache.put(key, text, ttl);
      return;
    }
    const values: Record<string, string> = {};
    for (const [i, p] of parts.entries()) values[`${key}.${i}`] = p;
    cache.putAll(values, ttl);
    cache.put(key, `#${parts.length}`, ttl);
  } catch {
    // A full or unavailable cache costs requests, never a wrong answer.
  }
}

/** A failure remembered for a minute: its message is the sentence the cell showed. */
export class CachedError extends CellSentence {}

export interface Scope {
  baseUrl: string;
  keyHash: string;
  generation: string;
  /** Epoch ms by which this execution must be done with waiting. */
  deadline: number;
  /** A custom function (a cell): when it fills an entry it notes its key digest under CELLS_KEY. */
  cell?: boolean;
}

/**
 * The digest of the key the cells last fetched with. Custom functions run with the spreadsheet owner's key, a
 * trigger with its creator's: a refresh run whose key differs would warm entries no cell reads.
 */
export const CELLS_KEY = 'linen:cells-key';

/** Entries a refresh run writes last 6 hours (CacheService's most), so a run that continues an hour later finds them. */
export const REFRESH_TTL_SECONDS = 21_600;

export type Stored = { rows: Row[] } | { error: string };

/** A listing stored under `scope`'s generation, or null. */
export function storedListing(cache: GoogleAppsScript.Cache.Cache, scope: Scope, request: string): Stored | null {
  const entry = read(cache, cacheKey(scope, request));
  if (!entry) return null;
  return 'e' in entry ? { error: entry.e } : { rows: unpack(entry.v as Packed) };
}

/** Store a listing fetched outside `cachedRows` (a refresh run) under `scope`'s generation. */
export function storeListing(cache: GoogleAppsScript.Cache.Cache, scope: Scope, request: string, value: Stored): void {
  if ('rows' in value) write(cache, cacheKey(scope, request), { v: pack(value.rows) }, REFRESH_TTL_SECONDS);
  else write(cache, cacheKey(scope, request), { e: value.error }, ERROR_TTL_SECONDS);
}

/** Per-execution memo on top of CacheService. */
const memo = new Map<string, unknown>();
/** Whether this execution (a cell) has noted its key digest under CELLS_KEY yet. */
let keyNoted = false;

export function cacheKey(scope: Scope, request: string): string {
  return `linen:${scope.generation}:${sha256(`${scope.baseUrl}\n${scope.keyHash}\n${request}`)}`;
}

/** The rows of a listing already at hand (this execution's memo or the cache), fetching nothing; else null. */
export function peekRows<T extends Row>(scope: Scope, request: string): T[] | null {
  const key = cacheKey(scope, request);
  if (memo.has(key)) return memo.get(key) as T[];
  const entry = read(responseCache(), key);
  if (!entry || 'e' in entry) return null;
  const rows = unpack(entry.v as Packed) as T[];
  memo.set(key, rows);
  return rows;
}

/**
 * The rows of a listing: from this execution's memo, the cache, or `fetch` (run by one execution at a time;
 * the others wait on the lock, then find the entry). Errors a retry would not fix are cached briefly too,
 * so a hundred cells with a missing scope cost one request, not a hundred.
 */
export function* cachedRows<T extends Row>(
  scope: Scope,
  request: string,
  fetch: () => Operation<T[]>,
  errorText: (e: unknown) => { message: string; cache: boolean },
): Operation<T[]> {
  const key = cacheKey(scope, request);
  if (memo.has(key)) return memo.get(key) as T[];
  const cache = responseCache();
  const found = (): T[] | null => {
    const entry = read(cache, key);
    if (!entry) return null;
    if ('e' in entry) throw new CachedError(entry.e);
    const rows = unpack(entry.v as Packed) as T[];
    memo.set(key, rows);
    return rows;
  };
  const hit = found();
  if (hit) return hit;
  const lock = documentLock();
  const waitMs = Math.max(0, Math.min(20_000, scope.deadline - Date.now() - 8_000));
  const locked = lock.tryLock(waitMs);
  try {
    if (locked) {
      const again = found();
      if (again) return again;
    }
    let rows: T[];
    try {
      rows = yield* fetch();
    } catch (e) {
      const { message, cache: keep } = errorText(e);
      if (keep) write(cache, key, { e: message }, ERROR_TTL_SECONDS);
      throw new CachedError(message);
    }
    write(cache, key, { v: pack(rows) }, TTL_SECONDS);
    if (scope.cell && !keyNoted) {
      keyNoted = true;
      try {
        cache.put(CELLS_KEY, scope.keyHash, REFRESH_TTL_SECONDS);
      } catch {
        // only a guard for refresh runs
      }
    }
    memo.set(key, rows);
    return rows;
  } finally {
    if (locked) lock.releaseLock();
  }
}
