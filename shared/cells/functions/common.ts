/**
 * What the families of functions share: their types, the optional customer and dated-window arguments, a display
 * number, and the tables made from listings.
 */

import type { Operation } from '../../core/effects.ts';
import { groupLocations } from '../../reports/groups.ts';
import { type MANIFEST_NUMBER, parseDisplayNumber } from '../../reports/lookup.ts';
import { choice, isBlank, text } from '../args.ts';
import { type Columns, grid } from '../columns.ts';
import type { CellContext, Listing } from '../context.ts';
import { ArgError } from '../messages.ts';
import type { Cell } from '../values.ts';

export type Args = Record<string, unknown>;
/** A function's work: its arguments by name in, a value or a table out, as an operation either runner drives. */
export type Impl = (ctx: CellContext, a: Args) => Operation<Cell | Cell[][]>;

/** An optional customer argument: the customer, or undefined when blank. */
export function* optCustomer(ctx: CellContext, v: unknown) {
  return isBlank(v) ? undefined : yield* ctx.customer(v);
}
export function* opt(ctx: CellContext, v: unknown) {
  return (yield* optCustomer(ctx, v))?.id;
}

/** A customer's departments (the customer goes in the path: GET /customers/{id}/departments). */
export const departments = (ctx: CellContext, customerId: string) =>
  ctx.rows('customers.departments', { customerId }, (a) => (p) => a.customers.departments(p.customerId));

/** The common filters of a dated listing: customer, from and to. */
export function* dated(ctx: CellContext, a: Args) {
  return { customerId: yield* opt(ctx, a.customer), ...ctx.window(a.from, a.to, false) };
}

/** A display-number argument (a manifest or order number), normalized. */
export function displayNumber(input: unknown, name: string, format: typeof MANIFEST_NUMBER) {
  const t = text(input, name);
  if (t === undefined) throw new ArgError(`${name} is required, e.g. "${format.example}".`);
  return parseDisplayNumber(t, format);
}

/** The filters `listing` sends: customer, from and to, and its enum argument. */
type Filters<V> = { customerId?: string; from?: string; to?: string; status?: V; stage?: V };

interface ListingOptions<V> {
  /** Whether the function takes from and to (default true). */
  dated?: boolean;
  /** The allowed values of the function's `status` or `stage` argument, sent as the filter of that name. */
  status?: readonly V[];
  stage?: readonly V[];
  /** A group customer with no rows of its own shows its suggested locations' rows (each names its customer). */
  groups?: boolean;
}

/**
 * For a group customer, the ids of the locations its name suggests, whose rows stand in for it when it has none
 * of its own; null for any other customer.
 */
export function* locationIds(ctx: CellContext, a: Args) {
  const customer = yield* optCustomer(ctx, a.customer);
  if (!customer?.is_group) return null;
  return new Set(groupLocations(customer, yield* ctx.customers()).map((c) => c.id));
}

/**
 * A function that shows one listing as a table: filtered by customer (and from/to, and a status or stage
 * argument when the options say so). `.columns(...)` comes after the listing so the columns are typed by
 * its rows: `listing('ratings.list', (a) => a.ratings.list).columns(['note'])`.
 */
export function listing<T extends Record<string, unknown>, V extends string = never>(
  name: string,
  list: Listing<Filters<V>, T>,
  o: ListingOptions<V> = {},
) {
  return {
    columns: (columns: Columns<T>): Impl =>
      function* (ctx, a) {
        const filters: Filters<V> =
          o.dated === false ? { customerId: yield* opt(ctx, a.customer) } : yield* dated(ctx, a);
        if (o.status) filters.status = choice(a.status, 'status', o.status);
        if (o.stage) filters.stage = choice(a.stage, 'stage', o.stage);
        let rows = yield* ctx.rows(name, filters, list);
        const locations = o.groups && !rows.length ? yield* locationIds(ctx, a) : null;
        if (locations) {
          delete filters.customerId;
          rows = (yield* ctx.rows(name, filters, list)).filter((r) => locations.has(r.customer_id as string));
        }
        return yield* grid(ctx, rows, columns);
      },
  };
}

/**
 * One row per element of each row's list (a manifest's bins, a count's lines, an injection's items): the
 * element under `key` beside the row's own fields. A row whose list is empty stays, with an empty element.
 */
export function perElement<T, E, K extends string>(rows: readonly T[], list: (row: T) => readonly E[], key: K) {
  type Row = T & { [P in K]: Partial<E> };
  return rows.flatMap((r) => {
    const elements: readonly Partial<E>[] = list(r);
    return (elements.length ? elements : [{}]).map((e) => ({ ...r, [key]: e }) as Row);
  });
}
