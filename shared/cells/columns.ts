/**
 * Table columns, typed by the rows they read. Import the builders as a namespace (`import * as col`):
 * `grid(ctx, rows, [col.day('date'), 'item_name', col.dollars('amount_cents', 'Amount ($)')])`. Each builder
 * takes its row type from the list it is in, so a field the rows do not have (`col.day('dat')`) fails the
 * typecheck. A field is a key of the row or, one level down, a key of one of its object fields
 * (`parent_manifest.manifest_number`; a missing object reads as null). A plain field name shows the value as
 * it is.
 *
 * Without a header, a column is named after its field's last part in plain words: `created_at` -> Created,
 * `soil_weight_lb` -> Soil weight (lb), `is_active` -> Active.
 */
import type { Operation } from '../core/effects.ts';
import type { CellContext } from './context.ts';
import { type Cell, currency as currencyCell, dollars as dollarsCell, label as labelCell } from './values.ts';

type Value<T> = (row: T, ctx: CellContext) => Cell | null | undefined;
/** A header, the value of a row, and for a column of names, the id it names (the customers list names it). */
export type Column<T> = readonly [header: string, value: Value<T>, names?: (row: T) => unknown];

type Key<T> = Extract<keyof T, string>;
/** `field`, or `field.subfield` when `field` holds an object. */
type Path<T> = {
  [K in Key<T>]: K | (NonNullable<T[K]> extends object ? `${K}.${Key<NonNullable<T[K]>>}` : never);
}[Key<T>];

/** The columns of a table: made by the builders below, or field names shown as they are. */
export type Columns<T> = readonly (Path<T> | Column<T>)[];

const headerOf = (path: string) =>
  path
    .split('.')
    .pop()!
    .replace(/^is_/, '')
    .replace(/_(id|at|name|number|cents|qty|pct|code|label|count)$/, '')
    .replace(/_lb$/, ' (lb)')
    .replace(/_/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());

/** The value at `field` of a row (null when its parent object is). */
const reader = (field: string) => {
  const keys = field.split('.');
  return (row: unknown): unknown => {
    let v: unknown = row;
    for (const k of keys) v = v == null ? null : (v as Record<string, unknown>)[k];
    return v;
  };
};

/** A column builder: the field's value shown with `show`; `names`: the value is an id the customers list names. */
const shown =
  <V>(show: (v: V, ctx: CellContext) => Cell | null | undefined, names?: boolean) =>
  <T>(field: Path<T>, header = headerOf(field)): Column<T> => {
    const get = reader(field);
    const value: Value<T> = (row, ctx) => show(get(row) as V, ctx);
    return names ? [header, value, get] : [header, value];
  };

/** The value as it is (a plain field name in a column list is the same, with the derived header). */
export const value = shown((v: Cell | null) => v);
/** An enum value in words: `in_progress` -> In progress. */
export const label = shown(labelCell);
/** A timestamp as a date-time showing the organization's local time. */
export const time = shown((v: string, ctx) => ctx.timeCell(v));
/** An org-local day as a date. */
export const day = shown((v: string, ctx) => ctx.dayCell(v));
/** A customer id as the customer's name. */
export const customer = shown((v: string, ctx) => ctx.customerName(v), true);
/** A department id as the department's name. */
export const department = shown((v: string, ctx) => ctx.departmentName(v), true);
/** Cents as dollars. */
export const dollars = shown(dollarsCell);
/** A currency code in capitals. */
export const currency = shown(currencyCell);
/** A value computed from the whole row. */
export const computed = <T>(header: string, compute: (row: T) => Cell | null | undefined): Column<T> => [
  header,
  compute,
];

/**
 * A header row, then one row per record; nulls become empty cells. The customers list, which names customers and
 * departments, is read first when a column of names has an id to name.
 */
export function* grid<T>(ctx: CellContext, rows: readonly T[], columns: Columns<T>): Operation<Cell[][]> {
  const cols = columns.map((c) => (typeof c === 'string' ? value<T>(c) : c));
  if (cols.some((c) => c[2] && rows.some(c[2]))) yield* ctx.customers();
  const out: Cell[][] = [cols.map((c) => c[0])];
  for (const r of rows) out.push(cols.map((c) => c[1](r, ctx) ?? ''));
  return out;
}
