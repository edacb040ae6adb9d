/**
 * Declarative query-parameter schemas. Unknown, repeated or empty parameters, malformed values, enum values
 * outside the list, `from` after `to` and over-long windows are all 422 naming the parameter.
 */
import { addDays, daysBetween, isLocalDate } from './dates.ts';
import { invalidParams } from './errors.ts';

export type ParamSpec =
  | { type: 'id'; required?: boolean }
  | { type: 'text'; required?: boolean }
  | { type: 'enum'; values: readonly string[]; required?: boolean }
  | { type: 'int'; min: number; max: number; required?: boolean };

export interface QuerySchema {
  /** List endpoints also take `limit`, `cursor` and `customer_id`. */
  list: boolean;
  /** `open`: optional `from`/`to`; `window`: default last 7 days, at most `MAX_WINDOW_DAYS`. */
  dates?: 'open' | 'window';
  params?: Record<string, ParamSpec>;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
export const MAX_WINDOW_DAYS = 92;
export const DEFAULT_WINDOW_DAYS = 7;

export interface ParsedQuery {
  /** Validated values of the endpoint's own parameters (not limit/cursor/customer_id/from/to). */
  values: Record<string, string>;
  limit: number;
  cursor: string | null;
  customerId: string | null;
  from: string | null;
  to: string | null;
  /** Everything except `limit` and `cursor`, as sent: what a cursor is bound to. */
  filters: Record<string, string>;
}

function specsOf(schema: QuerySchema): Map<string, ParamSpec | 'limit' | 'cursor' | 'date'> {
  const specs = new Map<string, ParamSpec | 'limit' | 'cursor' | 'date'>();
  if (schema.list) {
    specs.set('limit', 'limit');
    specs.set('cursor', 'cursor');
    specs.set('customer_id', { type: 'id' });
  }
  if (schema.dates) {
    specs.set('from', 'date');
    specs.set('to', 'date');
  }
  for (const [name, spec] of Object.entries(schema.params ?? {})) specs.set(name, spec);
  return specs;
}

const specCache = new WeakMap<QuerySchema, Map<string, ParamSpec | 'limit' | 'cursor' | 'date'>>();

/** Validates a query against a schema. `today` is the org-local day used for default windows. */
export function parseQuery(search: URLSearchParams, schema: QuerySchema, today: string): ParsedQuery {
  let specs = specCache.get(schema);
  if (!specs) {
    specs = specsOf(schema);
    specCache.set(schema, specs);
  }
  const seen = new Map<string, string>();
  for (const [name, value] of search) {
    const spec = specs.get(name);
    if (spec === undefined) {
      throw invalidParams(`Unknown query parameter "${name}".`);
    }
    if (seen.has(name)) throw invalidParams(`Query parameter "${name}" is repeated; send it once.`);
    if (value === '') throw invalidParams(`Query parameter "${name}" is empty.`);
    seen.set(name, value);
    validate(name, value, spec);
  }
  for (const [name, spec] of specs) {
    if (typeof spec === 'object' && spec.required && !seen.has(name)) {
      throw invalidParams(`Query parameter "${name}" is required.`);
    }
  }

  const out: ParsedQuery = {
    values: {},
    limit: seen.has('limit') ? Number(seen.get('limit')) : DEFAULT_LIMIT,
    cursor: seen.get('cursor') ?? null,
    customerId: seen.get('customer_id') ?? null,
    from: seen.get('from') ?? null,
    to: seen.get('to') ?? null,
    filters: {},
  };
  for (const [name, value] of seen) {
    if (name !== 'limit' && name !== 'cursor') out.filters[name] = value;
    if (!['limit', 'cursor', 'customer_id', 'from', 'to'].includes(name)) out.values[name] = value;
  }

  if (out.from && out.to && out.from > out.to) {
    throw invalidParams(`Parameter "from" (${out.from}) is after "to" (${out.to}).`);
  }
  if (schema.dates === 'window') {
    const to = out.to ?? today;
    const from = out.from ?? addDays(to, -(DEFAULT_WINDOW_DAYS - 1));
    if (from > to) throw invalidParams(`Parameter "from" (${from}) is after "to" (${to}, today when omitted).`);
    const days = daysBetween(from, to) + 1;
    if (days > MAX_WINDOW_DAYS) {
      throw invalidParams(
        `The window from ${from} to ${to} spans ${days} days; at most ${MAX_WINDOW_DAYS} days are allowed (split the range over several requests).`,
      );
    }
    out.from = from;
    out.to = to;
  }
  return out;
}

function validate(name: string, value: string, spec: ParamSpec | 'limit' | 'cursor' | 'date'): void {
  if (spec === 'cursor') return;
  if (spec === 'limit') {
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIMIT) {
      throw invalidParams(`Parameter "limit" must be an integer from 1 to ${MAX_LIMIT}.`);
    }
    return;
  }
  if (spec === 'date') {
    if (!isLocalDate(value)) throw invalidParams(`Parameter "${name}" must be a calendar day as YYYY-MM-DD.`);
    return;
  }
  switch (spec.type) {
    case 'id':
    case 'text':
      if (value.trim() === '') throw invalidParams(`Query parameter "${name}" is empty.`);
      return;
    case 'enum':
      if (!spec.values.includes(value)) {
        throw invalidParams(`Parameter "${name}" must be one of: ${spec.values.join(', ')}.`);
      }
      return;
    case 'int':
      if (!/^-?\d+$/.test(value) || Number(value) < spec.min || Number(value) > spec.max) {
        throw invalidParams(`Parameter "${name}" must be an integer from ${spec.min} to ${spec.max}.`);
      }
      return;
  }
}
