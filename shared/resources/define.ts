/** Helpers the resource files share: one line per endpoint. */

import type * as z from 'zod/mini';
import type { CallDef, ListDef } from '../core/defs.ts';
import { getDef } from '../core/get-def.ts';
import { listDef } from '../core/list-def.ts';
import type { CoreConfig } from '../core/send.ts';
import { addDays, type DayWindow, daysInclusive, splitWindow, today } from '../dates.ts';
import { buildQuery, type ParamDecl, type ParamsOf, pathId } from '../params.ts';

export interface ResourceContext extends CoreConfig {
  /** The current instant (for "today" in the org timezone). */
  clock: () => Date;
}

export const MAX_WINDOW_DAYS = 92;

/** One list endpoint, declared once: its path, the scope it needs, the row schema and its query parameters. */
export interface ListEndpoint<S extends z.ZodMiniType, D extends Record<string, ParamDecl>> {
  path: string;
  /** The path with its ids as `{id}` when it carries any, for observers. */
  template?: string;
  /** The scope the endpoint needs (to word a 403); absent for "any key" endpoints. */
  scope?: string;
  item: S;
  params: D;
  /** The endpoint caps its window at 92 days (daily deliveries, cart counts): longer windows are split. */
  splitWindow?: boolean;
}

export function list<S extends z.ZodMiniType, D extends Record<string, ParamDecl>>(
  ctx: ResourceContext,
  endpoint: ListEndpoint<S, D>,
  values: ParamsOf<D> | undefined,
): ListDef<z.infer<S>> {
  const query = buildQuery(endpoint.params, values as Record<string, unknown> | undefined, ctx.timeZone);
  let windows: DayWindow[] | undefined;
  if (endpoint.splitWindow && (query.from !== undefined || query.to !== undefined)) {
    // The API's defaults for these endpoints: `to` today, `from` six days before `to`.
    const to = query.to ?? today(ctx.timeZone, ctx.clock());
    const from = query.from ?? addDays(to, -6);
    if (daysInclusive(from, to) > MAX_WINDOW_DAYS) {
      windows = splitWindow({ from, to }, MAX_WINDOW_DAYS);
      delete query.from;
      delete query.to;
    }
  }
  return listDef(ctx, {
    path: endpoint.path,
    template: endpoint.template,
    scope: endpoint.scope,
    item: endpoint.item,
    query,
    windows,
    limit: values?.limit,
  });
}

/**
 * The list methods of one scope, one line per endpoint: `const lists = listsIn(ctx, 'processing')`, then
 * `units: lists('/inventory/units', UnitSchema, unitParams)`. Each method builds its listing when called.
 */
export function listsIn(ctx: ResourceContext, scope?: string) {
  return <S extends z.ZodMiniType, D extends Record<string, ParamDecl>>(
    path: string,
    item: S,
    params: D,
    options: Pick<ListEndpoint<S, D>, 'splitWindow'> = {},
  ) =>
    (values?: ParamsOf<D>): ListDef<z.infer<S>> =>
      list(ctx, { path, scope, item, params, splitWindow: options.splitWindow }, values);
}

/** One single-resource endpoint: `path` is the prefix the id is appended to. */
export interface GetEndpoint<S extends z.ZodMiniType> {
  path: string;
  /** How a bad id argument is named in the error (`manifest id`). */
  idName: string;
  scope?: string;
  item: S;
}

export function get<S extends z.ZodMiniType>(
  ctx: ResourceContext,
  endpoint: GetEndpoint<S>,
  id: string,
): CallDef<z.infer<S>> {
  let path: string;
  try {
    path = `${endpoint.path}/${pathId(id, endpoint.idName)}`;
  } catch (e) {
    return failedCall(`GET ${endpoint.path}/{id}`, e);
  }
  return getDef(ctx, { path, template: `${endpoint.path}/{id}`, scope: endpoint.scope, item: endpoint.item });
}

/**
 * A call that fails when run, before any effect: a bad argument to a promise-returning method becomes a
 * rejection (async client) or a throw (sync client), never a request.
 */
export function failedCall<T>(endpoint: string, error: unknown): CallDef<T> {
  return {
    kind: 'call',
    endpoint,
    // biome-ignore lint/correctness/useYield: a generator, so the throw happens when the call runs, not when it is built
    *op() {
      throw error;
    },
  };
}

export const COMMON = { customerId: { kind: 'id' } } as const satisfies Record<string, ParamDecl>;
export const DATED = { ...COMMON, from: { kind: 'date' }, to: { kind: 'date' } } as const satisfies Record<
  string,
  ParamDecl
>;
