/**
 * A `$filter` applied to a feed row, as OData defines it: a comparison with null is true only for `eq null` (and
 * `ne` a value), a null property fails every other comparison and every text function; text compares by code
 * units, case-sensitive; days by their text; instants by the moment they name.
 */
import { valueAt } from '../edm.ts';
import type { CompareOp, Filter, Literal } from './filter.ts';

function order(a: unknown, lit: Literal): number | undefined {
  switch (lit.t) {
    case 'instant': {
      const ms = Date.parse(String(a));
      return Number.isNaN(ms) ? undefined : Math.sign(ms - lit.v);
    }
    case 'number':
      return typeof a === 'number' ? (a < lit.v ? -1 : a > lit.v ? 1 : a === lit.v ? 0 : undefined) : undefined;
    case 'string':
    case 'date':
      return typeof a === 'string' ? (a < lit.v ? -1 : a > lit.v ? 1 : 0) : undefined;
    case 'boolean':
      return typeof a === 'boolean' ? (a === lit.v ? 0 : a ? 1 : -1) : undefined;
    default:
      return undefined;
  }
}

function compare(op: CompareOp, value: unknown, lit: Literal): boolean {
  const isNull = value === null || value === undefined;
  if (lit.t === 'null' || isNull) {
    const both = isNull && lit.t === 'null';
    if (op === 'eq') return both;
    if (op === 'ne') return !both;
    return false;
  }
  const c = order(value, lit);
  if (c === undefined) return op === 'ne';
  switch (op) {
    case 'eq':
      return c === 0;
    case 'ne':
      return c !== 0;
    case 'gt':
      return c > 0;
    case 'ge':
      return c >= 0;
    case 'lt':
      return c < 0;
    default:
      return c <= 0;
  }
}

export function matches(filter: Filter | undefined, row: Record<string, unknown>): boolean {
  if (!filter) return true;
  switch (filter.k) {
    case 'and':
      return matches(filter.a, row) && matches(filter.b, row);
    case 'or':
      return matches(filter.a, row) || matches(filter.b, row);
    case 'const':
      return filter.value;
    case 'cmp':
      return compare(filter.op, valueAt(row, filter.path), filter.value);
    case 'text': {
      const v = valueAt(row, filter.path);
      if (typeof v !== 'string') return false;
      if (filter.fn === 'contains') return v.includes(filter.value);
      if (filter.fn === 'startswith') return v.startsWith(filter.value);
      return v.endsWith(filter.value);
    }
  }
}
