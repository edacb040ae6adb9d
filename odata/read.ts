/**
 * Reading a query of a set through the Linen client, a page of the feed at a time.
 *
 * - In the API's order (no `$orderby`, no `$count`), the feed streams: a page reads the API's pages (200 rows
 *   each, through the key's pacing and the process's shared answers) from where the last one stopped, applies the
 *   filter, `$skip` and `$top`, and stops when the page is full, at the end, or after MAX_API_PAGES pages (a
 *   sparse filter then gives a short page and a next link rather than a long wait). The next link names the API
 *   page to resume and how much of it was given, so a tool following next links reads every API page once (a
 *   page split across two feed pages is read again, from the shared answers while they are fresh).
 * - Ordered or counted, it reads every listing to its end, then sorts, counts and slices by offset; each page
 *   reads again, from the shared answers while they are fresh.
 */
import type { LinenClient } from '../shared/client.ts';
import type { Page } from '../shared/core/defs.ts';
import { NotFoundError, ResponseShapeError } from '../shared/errors.ts';
import { valueAt } from './edm.ts';
import { badRequest } from './errors.ts';
import { encodePosition, type Position, START, type StreamPosition } from './paging.ts';
import { type Listing, type PlanContext, planListings } from './plan.ts';
import { matches } from './query/evaluate.ts';
import type { FeedQuery, OrderKey } from './query/options.ts';
import type { ApiRow, EntitySet, FeedRow } from './sets.ts';

/** The API's largest page. */
const API_PAGE = 200;
/** The most API pages one feed page reads before it answers. */
export const MAX_API_PAGES = 25;

export interface ReadContext {
  client: LinenClient;
  set: EntitySet;
  query: FeedQuery;
  /** Rows per feed page. */
  pageSize: number;
  todayUtc: string;
  signal?: AbortSignal | undefined;
}

export interface FeedPage {
  rows: FeedRow[];
  /** `$count=true`: every matching row, `$top` and `$skip` aside. */
  count?: number | undefined;
  /** The `$skiptoken` of the next page, when there is one. */
  next?: string | undefined;
}

const EMPTY: Page<unknown> = { data: [], cursor: null, hasMore: false, requestId: '' };

async function apiPage(ctx: ReadContext, listing: Listing, cursor: string | null): Promise<Page<unknown>> {
  try {
    return await ctx.set
      .list(ctx.client, listing.params)
      .page({ cursor: cursor ?? undefined, limit: API_PAGE, signal: ctx.signal });
  } catch (err) {
    // A customer the key does not see is a 404 from the API: no row of the query can be that customer's.
    if (err instanceof NotFoundError && listing.params.customerId !== undefined) return EMPTY;
    throw err;
  }
}

const rowsOf = (ctx: ReadContext, page: Page<unknown>, listing: Listing) =>
  page.data.flatMap((row) => ctx.set.rows(row as ApiRow, listing.tag));

function planContext(ctx: ReadContext): PlanContext {
  return {
    todayUtc: ctx.todayUtc,
    async customerIds() {
      const customers = await ctx.client.customers.list().all({ signal: ctx.signal });
      return customers.map((c) => c.id);
    },
  };
}

function listingsOf(ctx: ReadContext) {
  return planListings(ctx.set, ctx.query.filter, planContext(ctx));
}

/** Whether the query can stream in the API's order (nothing needs every row first). */
const streams = (q: FeedQuery) => q.orderby.length === 0 && !q.count;

async function streamPage(ctx: ReadContext, from: StreamPosition): Promise<FeedPage> {
  const listings = await listingsOf(ctx);
  const { query, pageSize } = ctx;
  const at = { ...from };
  if (at.i > listings.length)
    throw badRequest(
      'This next link is not one the feed wrote; run the query again from its start.',
      'invalid_skiptoken',
    );
  const out: FeedRow[] = [];
  const done = () => query.top !== undefined && at.e >= query.top;
  const seen = new Set<string>();
  let read = 0;
  while (at.i < listings.length && !done()) {
    if (read >= MAX_API_PAGES) break;
    const listing = listings[at.i]!;
    const page = await apiPage(ctx, listing, at.c);
    read++;
    const rows = rowsOf(ctx, page, listing);
    let k = at.o;
    for (; k < rows.length && !done() && out.length < pageSize; k++) {
      const row = rows[k]!;
      if (!matches(query.filter, row)) continue;
      if (at.s < (query.skip ?? 0)) {
        at.s++;
        continue;
      }
      out.push(row);
      at.e++;
    }
    if (k < rows.length) {
      at.o = k;
      break;
    }
    if (page.hasMore) {
      if (page.cursor === null || page.cursor === at.c || seen.has(page.cursor))
        throw new ResponseShapeError({
          endpoint: ctx.set.name,
          field: 'pagination.cursor',
          detail: 'the API repeated a cursor; stopping instead of looping',
          requestId: page.requestId,
        });
      seen.add(page.cursor);
      at.c = page.cursor;
    } else {
      at.i++;
      at.c = null;
    }
    at.o = 0;
    if (out.length >= pageSize) break;
  }
  const more = at.i < listings.length && !done();
  return { rows: out, next: more ? encodePosition({ kind: 'stream', at }) : undefined };
}

function compareValues(a: unknown, b: unknown, key: OrderKey): number {
  if (a === b) return 0;
  // OData: null sorts before any value in ascending order.
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (key.prop.type === 'Edm.DateTimeOffset') return Math.sign(Date.parse(String(a)) - Date.parse(String(b)));
  return (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
}

function sortRows(rows: FeedRow[], keys: readonly OrderKey[]): FeedRow[] {
  if (keys.length === 0) return rows;
  return rows.sort((x, y) => {
    for (const key of keys) {
      const c = compareValues(valueAt(x, key.path), valueAt(y, key.path), key);
      if (c !== 0) return key.desc ? -c : c;
    }
    return 0;
  });
}

/** Every matching row of the query, in the API's order. */
async function everyRow(ctx: ReadContext): Promise<FeedRow[]> {
  const listings = await listingsOf(ctx);
  const out: FeedRow[] = [];
  for (const listing of listings) {
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (;;) {
      const page = await apiPage(ctx, listing, cursor);
      for (const row of rowsOf(ctx, page, listing)) if (matches(ctx.query.filter, row)) out.push(row);
      if (!page.hasMore) break;
      if (page.cursor === null || seen.has(page.cursor))
        throw new ResponseShapeError({
          endpoint: ctx.set.name,
          field: 'pagination.cursor',
          detail: 'the API repeated a cursor; stopping instead of looping',
          requestId: page.requestId,
        });
      seen.add(page.cursor);
      cursor = page.cursor;
    }
  }
  return out;
}

async function offsetPage(ctx: ReadContext, offset: number): Promise<FeedPage> {
  const { query, pageSize } = ctx;
  const rows = sortRows(await everyRow(ctx), query.orderby);
  const skip = query.skip ?? 0;
  const end = query.top === undefined ? rows.length : Math.min(rows.length, skip + query.top);
  const start = skip + offset;
  const page = rows.slice(start, Math.min(end, start + pageSize));
  const nextOffset = offset + page.length;
  return {
    rows: page,
    count: query.count ? rows.length : undefined,
    next:
      skip + nextOffset < end && page.length > 0 ? encodePosition({ kind: 'offset', offset: nextOffset }) : undefined,
  };
}

/** One page of the feed, from the start or from a next link's position. */
export function readPage(ctx: ReadContext, position: Position | undefined): Promise<FeedPage> {
  if (streams(ctx.query)) {
    if (position && position.kind !== 'stream')
      throw badRequest(
        'This next link belongs to another query; run the query again from its start.',
        'invalid_skiptoken',
      );
    return streamPage(ctx, position?.at ?? START);
  }
  if (position && position.kind !== 'offset')
    throw badRequest(
      'This next link belongs to another query; run the query again from its start.',
      'invalid_skiptoken',
    );
  return offsetPage(ctx, position?.offset ?? 0);
}

/** `/Set/$count`: the rows the filter matches. */
export async function countRows(ctx: ReadContext): Promise<number> {
  return (await everyRow(ctx)).length;
}
