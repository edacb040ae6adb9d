/**
 * Walking a list to its end: the page size of a walk, the loop guard on cursors, and the whole walk as one
 * operation (what reports use, on either runtime).
 */
import { ResponseShapeError } from '../errors.ts';
import type { ListDef, Page } from './defs.ts';
import type { Operation } from './effects.ts';
import type { Budget } from './send.ts';

export const BULK_LIMIT = 200;

/** The next cursor of a walk, or null at the end; a cursor seen before means the walk would loop. */
export function nextCursor(page: Page<unknown>, seen: Set<string>, endpoint: string): string | null {
  if (!page.hasMore) return null;
  if (page.cursor === null) {
    throw new ResponseShapeError({
      endpoint,
      field: 'pagination.cursor',
      detail: 'null while has_more is true',
      requestId: page.requestId,
    });
  }
  if (seen.has(page.cursor)) {
    throw new ResponseShapeError({
      endpoint,
      field: 'pagination.cursor',
      detail: 'the server repeated a cursor; stopping instead of looping',
      requestId: page.requestId,
    });
  }
  seen.add(page.cursor);
  return page.cursor;
}

/** Every item of a list as one operation (used by reports, which run on either runtime). */
export function* collect<T>(def: ListDef<T>, budget: Budget, stop?: (item: T) => boolean): Operation<T[]> {
  const seen = new Set<string>();
  const out: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = yield* def.page({ cursor, limit: def.limit ?? BULK_LIMIT }, budget);
    for (const item of page.data) {
      out.push(item);
      if (stop?.(item)) return out;
    }
    const next = nextCursor(page, seen, def.endpoint);
    if (next === null) return out;
    cursor = next;
  }
}
