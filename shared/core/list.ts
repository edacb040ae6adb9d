/**
 * Operation descriptions the resources return and the clients run: a single call, or a paged list.
 * A list over a long date window is fetched as consecutive <=92-day chunks behind one composite cursor.
 */
import { InvalidParamsError, ResponseShapeError } from '../errors.ts';
import type { DayWindow } from '../dates.ts';
import { checkLimit, queryString } from '../params.ts';
import type * as z from 'zod/mini';
import { listEnvelope, singleEnvelope } from '../schemas/common.ts';
import type { Operation } from './effects.ts';
import { parseJson, send, type Budget, type CoreConfig } from './request.ts';

export interface Page<T> {
  data: T[];
  /** Pass to `page({ cursor })` for the next page; null on the last page. */
  cursor: string | null;
  hasMore: boolean;
  requestId: string;
}

export interface CallDef<T> {
  readonly kind: 'call';
  readonly endpoint: string;
  op(budget: Budget): Operation<T>;
}

export interface PageRequest {
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface ListDef<T> {
  readonly kind: 'list';
  readonly endpoint: string;
  /** The caller's `limit`, if any (iteration otherwise uses 200). */
  readonly limit: number | undefined;
  page(req: PageRequest, budget: Budget): Operation<Page<T>>;
}

export const BULK_LIMIT = 200;

/** The next cursor of a walk, or null at the end; a cursor seen before means the walk would loop. */
export function nextCursor(page: Page<unknown>, seen: Set<string>, endpoint: string): string | null {
  if (!page.hasMore) return null;
  if (page.cursor === null) {
    throw new ResponseShapeError({ endpoint, field: 'pagination.cursor', detail: 'null while has_more is true', requestId: page.requestId });
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

export interface ListSpec<S extends z.ZodMiniType> {
  path: string;
  scope?: string | undefined;
  item: S;
  query: Record<string, string>;
  /** Date chunks, newest first, when the window was split; each replaces `from`/`to` in the query. */
  windows?: DayWindow[] | undefined;
  limit?: number | undefined;
}

export function listDef<S extends z.ZodMiniType>(cfg: CoreConfig, spec: ListSpec<S>): ListDef<z.infer<S>> {
  const envelope = listEnvelope(spec.item);
  const endpoint = `GET ${spec.path}`;
  const chunks = spec.windows && spec.windows.length > 1 ? spec.windows : undefined;
  const fixedWindow = spec.windows?.length === 1 ? spec.windows[0] : undefined;
  const callerLimit = checkLimit(spec.limit);

  function* fetch(window: DayWindow | undefined, cursor: string | undefined, limit: number | undefined, budget: Budget) {
    const q: Record<string, string | undefined> = { ...spec.query, ...(window ?? {}) };
    if (limit !== undefined) q.limit = String(limit);
    if (cursor !== undefined) q.cursor = cursor;
    const env = yield* send(
      cfg,
      {
        endpoint,
        url: cfg.baseUrl + spec.path + queryString(q),
        responseType: 'text',
        scope: spec.scope,
        parse: (res) => parseJson(envelope, endpoint, res),
      },
      budget,
    );
    const page: Page<z.infer<S>> = {
      data: env.data as z.infer<S>[],
      cursor: env.pagination.cursor,
      hasMore: env.pagination.has_more,
      requestId: env.request_id,
    };
    if (page.hasMore && page.cursor === null) nextCursor(page, new Set(), endpoint);
    return page;
  }

  return {
    kind: 'list',
    endpoint,
    limit: callerLimit,
    *page(req, budget) {
      const limit = checkLimit(req.limit) ?? callerLimit;
      if (!chunks) return yield* fetch(fixedWindow, req.cursor, limit, budget);
      let index = 0;
      let inner: string | undefined;
      if (req.cursor !== undefined) {
        const m = /^w(\d+)\.(.*)$/s.exec(req.cursor);
        if (!m || Number(m[1]) >= chunks.length) {
          throw new InvalidParamsError({ message: `cursor ${JSON.stringify(req.cursor)} does not belong to this listing` });
        }
        index = Number(m[1]);
        inner = m[2] === '' ? undefined : m[2];
      }
      const page = yield* fetch(chunks[index], inner, limit, budget);
      if (page.hasMore) return { ...page, cursor: `w${index}.${page.cursor}` };
      if (index + 1 < chunks.length) return { ...page, cursor: `w${index + 1}.`, hasMore: true };
      return page;
    },
  };
}

export interface GetSpec<S extends z.ZodMiniType> {
  path: string;
  scope?: string | undefined;
  item: S;
}

export function getDef<S extends z.ZodMiniType>(cfg: CoreConfig, spec: GetSpec<S>): CallDef<z.infer<S>> {
  const envelope = singleEnvelope(spec.item);
  const endpoint = `GET ${spec.path}`;
  return {
    kind: 'call',
    endpoint,
    *op(budget) {
      const env = yield* send(
        cfg,
        {
          endpoint,
          url: cfg.baseUrl + spec.path,
          responseType: 'text',
          scope: spec.scope,
          parse: (res) => parseJson(envelope, endpoint, res),
        },
        budget,
      );
      return (env as { data: unknown }).data as z.infer<S>;
    },
  };
}

/** Every item of a list as one operation (used by reports, which run on either runtime). */
export function* collect<T>(
  def: ListDef<T>,
  budget: Budget,
  stop?: (item: T) => boolean,
): Operation<T[]> {
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
