/**
 * Reading a cell's arguments, the same in both spreadsheets: text, a choice among values, a day (a date cell, a
 * serial number or `YYYY-MM-DD`), a from/to window. Blank is `undefined`, `null` (an omitted argument in Excel)
 * or empty text. A wrong argument is an `ArgError` naming it.
 */
import { dayInZone, isIsoDay } from '../dates.ts';
import { ArgError } from './messages.ts';
import { dayOfSerial } from './values.ts';

/** A Date, also one from another realm (Sheets passes its own): `instanceof Date` would miss those. */
export const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';

export const isBlank = (v: unknown) => v === undefined || v === null || v === '';

function single(v: unknown, name: string): unknown {
  if (Array.isArray(v)) {
    if (v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) return v[0][0];
    throw new ArgError(`${name} must be a single value, not a range.`);
  }
  return v;
}

/** A text argument, or undefined when blank. */
export function text(input: unknown, name: string): string | undefined {
  const v = single(input, name);
  if (isBlank(v)) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return String(v);
  throw new ArgError(`${name} must be text.`);
}

/** An enum argument: `In progress` and `in_progress` both work. */
export function choice<V extends string>(input: unknown, name: string, allowed: readonly V[]): V | undefined {
  const t = text(input, name);
  if (t === undefined) return undefined;
  const v = t.toLowerCase().replace(/[\s-]+/g, '_');
  const found = allowed.find((a) => a === v);
  if (found === undefined) throw new ArgError(`${name} must be one of ${allowed.join(', ')}, not "${t}".`);
  return found;
}

/** A date argument as a `YYYY-MM-DD` day: a date cell (read in `sheetTimeZone`), a serial number or the day's text. */
export function day(input: unknown, name: string, sheetTimeZone: string): string | undefined {
  const v = single(input, name);
  if (isBlank(v)) return undefined;
  if (isDate(v)) {
    if (Number.isNaN(v.getTime())) throw new ArgError(`${name} is not a valid date.`);
    const d = dayInZone(v, sheetTimeZone);
    // Sheets dates run from year 1 to 9999; the API's days have four-digit years.
    if (!isIsoDay(d)) throw new ArgError(`${name} must be a date between the years 1 and 9999.`);
    return d;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 2_958_466) return dayOfSerial(v);
  if (typeof v === 'string' && isIsoDay(v.trim())) return v.trim();
  const typed =
    typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  throw new ArgError(`${name} must be a date or a day written YYYY-MM-DD${typed ? `, not ${typed}` : ''}.`);
}

/** A from/to pair, checked for order. */
export function window(
  from: unknown,
  to: unknown,
  required: boolean,
  sheetTimeZone: string,
): { from?: string; to?: string } {
  const f = day(from, 'from', sheetTimeZone);
  const t = day(to, 'to', sheetTimeZone);
  if (required && f === undefined) throw new ArgError('from is required (a date or YYYY-MM-DD).');
  if (required && t === undefined) throw new ArgError('to is required (a date or YYYY-MM-DD).');
  if (f !== undefined && t !== undefined && f > t) throw new ArgError(`from (${f}) is after to (${t}).`);
  return { ...(f !== undefined ? { from: f } : {}), ...(t !== undefined ? { to: t } : {}) };
}

/**
 * A function's arguments by parameter name, as a cell passes them (trailing blanks dropped). A missing required
 * argument is reported by the reader of that argument, in its own words.
 */
export function namedArgs(name: string, params: readonly string[], args: readonly unknown[]): Record<string, unknown> {
  let n = args.length;
  while (n > 0 && args[n - 1] === undefined) n--;
  if (n > params.length) throw new ArgError(`Too many arguments: ${name}(${params.join(', ')}).`);
  const named: Record<string, unknown> = {};
  for (const [i, p] of params.entries()) named[p] = args[i];
  return named;
}

/** A listing's name in a cache: `name` and its params (sorted, undefined ones dropped). */
export function listingRequest(name: string, params: Record<string, unknown>) {
  const clean: Record<string, unknown> = {};
  for (const k of Object.keys(params).sort()) if (params[k] !== undefined) clean[k] = params[k];
  return { request: `${name} ${JSON.stringify(clean)}`, clean };
}
