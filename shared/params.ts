/**
 * Query parameters: each endpoint declares its parameters once, as data. The declaration gives the
 * TypeScript type of the method's argument and validates the values at run time (callers in Apps Script are
 * plain JavaScript), so a bad value fails before any request instead of costing a 422.
 */

import { type DateInput, toIsoDay } from './dates.ts';
import { InvalidParamsError } from './errors.ts';

export type ParamDecl =
  | { kind: 'id' }
  | { kind: 'date' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'open'; values: readonly string[] };

export const P = {
  id: { kind: 'id' } as const,
  date: { kind: 'date' } as const,
  oneOf: <const V extends readonly string[]>(values: V) => ({ kind: 'enum', values }) as const,
  /** A string the API may extend (known values are suggestions). */
  open: <const V extends readonly string[]>(values: V) => ({ kind: 'open', values }) as const,
};

type ValueOf<D> = D extends { kind: 'date' }
  ? DateInput
  : D extends { kind: 'enum'; values: readonly (infer V)[] }
    ? V
    : D extends { kind: 'open'; values: readonly (infer V)[] }
      ? V | (string & {})
      : string;

/** The camelCase argument object of a list method. `limit` is the page size (1..200). */
export type ParamsOf<S extends Record<string, ParamDecl>> = { [K in keyof S]?: ValueOf<S[K]> | undefined } & {
  limit?: number | undefined;
};

export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function checkLimit(limit: unknown): number | undefined {
  if (limit === undefined || limit === null) return undefined;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 200) {
    throw new InvalidParamsError({ message: `limit must be an integer from 1 to 200, got ${JSON.stringify(limit)}` });
  }
  return limit;
}

/** Validate the caller's params and map them to snake_case query values (without `limit`). */
export function buildQuery(
  decls: Record<string, ParamDecl>,
  params: Record<string, unknown> | undefined,
  timeZone: string,
): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value === undefined || value === null || key === 'limit') continue;
    const decl = decls[key];
    if (!decl) {
      const allowed = [...Object.keys(decls), 'limit'].join(', ');
      throw new InvalidParamsError({ message: `unknown parameter ${key} (allowed: ${allowed})` });
    }
    const name = snakeCase(key);
    if (decl.kind === 'date') {
      query[name] = toIsoDay(value as DateInput, timeZone, key);
      continue;
    }
    if (typeof value !== 'string' || value === '') {
      throw new InvalidParamsError({ message: `${key} must be a non-empty string` });
    }
    if (decl.kind === 'enum' && !decl.values.includes(value)) {
      throw new InvalidParamsError({
        message: `${key} must be one of ${decl.values.join(', ')}, got ${JSON.stringify(value)}`,
      });
    }
    query[name] = value;
  }
  if (query.from && query.to && query.from > query.to) {
    throw new InvalidParamsError({ message: `from (${query.from}) is after to (${query.to})` });
  }
  return query;
}

export function queryString(query: Record<string, string | undefined>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A path segment from a caller-given id. */
export function pathId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidParamsError({ message: `${what} must be a non-empty id string` });
  }
  return encodeURIComponent(value);
}
