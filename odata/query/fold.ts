/**
 * What of a `$filter` the API can do: for each property the API filters on, the values a matching row can have
 * (`eq` folded, one listing per value), and for the dated property the days a matching row can fall on (the
 * listing's `from`/`to`). Both are over-approximations: every row the filter matches is in what the API is
 * asked for, and the whole filter is still applied by the feed to what comes back, so folding narrows what is
 * read and never changes the answer. `and` intersects, `or` joins, anything else leaves the property open.
 */
import { addDays } from '../../shared/dates.ts';
import type { Filter } from './filter.ts';

/** The values a property can have in a matching row: any (`all`), or one of a finite set (maybe none). */
export type Values = 'all' | ReadonlySet<string>;

export function valuesOf(filter: Filter | undefined, property: string): Values {
  if (!filter) return 'all';
  switch (filter.k) {
    case 'and': {
      const a = valuesOf(filter.a, property);
      const b = valuesOf(filter.b, property);
      if (a === 'all') return b;
      if (b === 'all') return a;
      return new Set([...a].filter((v) => b.has(v)));
    }
    case 'or': {
      const a = valuesOf(filter.a, property);
      const b = valuesOf(filter.b, property);
      if (a === 'all' || b === 'all') return 'all';
      return new Set([...a, ...b]);
    }
    case 'const':
      return filter.value ? 'all' : new Set();
    case 'cmp':
      if (filter.path.length === 1 && filter.path[0] === property && filter.op === 'eq' && filter.value.t === 'string')
        return new Set([filter.value.v]);
      return 'all';
    default:
      return 'all';
  }
}

/** Whether the filter names the property anywhere. */
export function mentions(filter: Filter | undefined, property: string): boolean {
  if (!filter) return false;
  switch (filter.k) {
    case 'and':
    case 'or':
      return mentions(filter.a, property) || mentions(filter.b, property);
    case 'const':
      return false;
    default:
      return filter.path[0] === property;
  }
}

/** Org-local days, both inclusive; an absent bound is open. `empty`: no day can match. */
export type DayRange = { from?: string | undefined; to?: string | undefined } | 'empty';

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function intersect(a: DayRange, b: DayRange): DayRange {
  if (a === 'empty' || b === 'empty') return 'empty';
  const from = a.from === undefined ? b.from : b.from === undefined ? a.from : a.from > b.from ? a.from : b.from;
  const to = a.to === undefined ? b.to : b.to === undefined ? a.to : a.to < b.to ? a.to : b.to;
  if (from !== undefined && to !== undefined && from > to) return 'empty';
  return { from, to };
}

function hull(a: DayRange, b: DayRange): DayRange {
  if (a === 'empty') return b;
  if (b === 'empty') return a;
  const from = a.from === undefined || b.from === undefined ? undefined : a.from < b.from ? a.from : b.from;
  const to = a.to === undefined || b.to === undefined ? undefined : a.to > b.to ? a.to : b.to;
  return { from, to };
}

/**
 * The days a matching row's `property` can fall on. A day property folds exactly; an instant folds to its UTC
 * day widened by one each side, which holds the org-local day whatever the organization's time zone (an instant
 * outside the years 1000 to 9998 is not folded).
 */
export function daysOf(filter: Filter | undefined, property: string, kind: 'day' | 'instant'): DayRange {
  if (!filter) return {};
  switch (filter.k) {
    case 'and':
      return intersect(daysOf(filter.a, property, kind), daysOf(filter.b, property, kind));
    case 'or':
      return hull(daysOf(filter.a, property, kind), daysOf(filter.b, property, kind));
    case 'const':
      return filter.value ? {} : 'empty';
    case 'text':
      return {};
    case 'cmp': {
      if (filter.path.length !== 1 || filter.path[0] !== property) return {};
      const v = filter.value;
      let lo: string;
      let hi: string;
      let strict = false;
      if (kind === 'day' && v.t === 'date') {
        lo = v.v;
        hi = v.v;
        strict = true;
      } else if (kind === 'instant' && v.t === 'instant' && utcDay(v.v) >= '1000' && utcDay(v.v) < '9999') {
        lo = addDays(utcDay(v.v), -1);
        hi = addDays(utcDay(v.v), 1);
      } else return {};
      switch (filter.op) {
        case 'eq':
          return { from: lo, to: hi };
        case 'ge':
          return { from: lo };
        case 'gt':
          return { from: strict ? addDays(lo, 1) : lo };
        case 'le':
          return { to: hi };
        case 'lt':
          return { to: strict ? addDays(hi, -1) : hi };
        default:
          return {};
      }
    }
  }
}
