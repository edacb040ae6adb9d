/** Helpers the resource files share: one line per endpoint. */
import { splitWindow, today, addDays, daysInclusive, type DayWindow } from '../dates.ts';
import { getDef, listDef, type CallDef, type ListDef } from '../core/list.ts';
import type { CoreConfig } from '../core/request.ts';
import { buildQuery, pathId, type ParamDecl, type ParamsOf } from '../params.ts';
import type * as z from 'zod/mini';

export interface ResourceContext extends CoreConfig {
  /** The current instant (for "today" in the org timezone). */
  clock: () => Date;
}

export const MAX_WINDOW_DAYS = 92;

export function list<S extends z.ZodMiniType, D extends Record<string, ParamDecl>>(
  ctx: ResourceContext,
  path: string,
  scope: string | undefined,
  item: S,
  decls: D,
  params: ParamsOf<D> | undefined,
  opts: { splitWindow?: boolean } = {},
): ListDef<z.infer<S>> {
  const query = buildQuery(decls, params as Record<string, unknown> | undefined, ctx.timeZone);
  let windows: DayWindow[] | undefined;
  if (opts.splitWindow && (query.from !== undefined || query.to !== undefined)) {
    // The API's defaults for these endpoints: `to` today, `from` six days before `to`.
    const to = query.to ?? today(ctx.timeZone, ctx.clock());
    const from = query.from ?? addDays(to, -6);
    if (daysInclusive(from, to) > MAX_WINDOW_DAYS) {
      windows = splitWindow({ from, to }, MAX_WINDOW_DAYS);
      delete query.from;
      delete query.to;
    }
  }
  return listDef(ctx, { path, scope, item, query, windows, limit: params?.limit });
}

export function get<S extends z.ZodMiniType>(
  ctx: ResourceContext,
  pathPrefix: string,
  idValue: string,
  what: string,
  scope: string | undefined,
  item: S,
): CallDef<z.infer<S>> {
  let path: string;
  try {
    path = `${pathPrefix}/${pathId(idValue, what)}`;
  } catch (e) {
    return failedCall(`GET ${pathPrefix}/{id}`, e);
  }
  return getDef(ctx, { path, scope, item });
}

/**
 * A call that fails when run, before any effect: a bad argument to a promise-returning method becomes a
 * rejection (async client) or a throw (sync client), never a request.
 */
export function failedCall<T>(endpoint: string, error: unknown): CallDef<T> {
  return {
    kind: 'call',
    endpoint,
    // eslint-disable-next-line require-yield
    *op() {
      throw error;
    },
  };
}

export const COMMON = { customerId: { kind: 'id' } } as const satisfies Record<string, ParamDecl>;
export const DATED = { ...COMMON, from: { kind: 'date' }, to: { kind: 'date' } } as const satisfies Record<string, ParamDecl>;
