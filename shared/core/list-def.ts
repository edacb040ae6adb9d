/**
 * A paged list as an operation description. A list over a long date window is fetched as consecutive <=92-day
 * chunks behind one composite cursor.
 */
import type * as z from 'zod/mini';
import type { DayWindow } from '../dates.ts';
import { InvalidParamsError } from '../errors.ts';
import { checkLimit, queryString } from '../params.ts';
import { listEnvelope } from '../schemas/common.ts';
import type { ListDef, Page } from './defs.ts';
import { parseJson } from './parse-json.ts';
import { answer, type Budget, type CoreConfig } from './send.ts';
import { nextCursor } from './walk.ts';

export interface ListSpec<S extends z.ZodMiniType> {
  path: string;
  /** The path with its ids as `{id}`, for observers (default `path`). */
  template?: string | undefined;
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

  function* fetch(
    window: DayWindow | undefined,
    cursor: string | undefined,
    limit: number | undefined,
    budget: Budget,
  ) {
    const q: Record<string, string | undefined> = { ...spec.query, ...(window ?? {}) };
    if (limit !== undefined) q.limit = String(limit);
    if (cursor !== undefined) q.cursor = cursor;
    const env = yield* answer(
      cfg,
      {
        endpoint,
        template: `GET ${spec.template ?? spec.path}`,
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
          throw new InvalidParamsError({
            message: `cursor ${JSON.stringify(req.cursor)} does not belong to this listing`,
          });
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
