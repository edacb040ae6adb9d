/// <reference types="office-js" />
/**
 * Days and instants as Excel shows them: serial numbers of the 1900 date system (an instant at the organization's
 * wall-clock time), so they sort, filter and compute as dates. Where the runtime supports formatted number values
 * (custom functions returning data types: CustomFunctionsRuntime 1.4, with ExcelApi 1.19's `Double` cell value, or
 * ExcelApi 1.16's `FormattedNumber` before it), each carries its date format and shows as a date in any cell;
 * elsewhere it is the plain serial number, which the cell's own number format shows.
 */
import { type Cell, serialOf, wallClock } from '../../shared/cells/values.ts';

export type DateStyle = 'double' | 'formatted-number' | 'serial';

export const DAY_FORMAT = 'yyyy-mm-dd';
export const TIME_FORMAT = 'yyyy-mm-dd hh:mm';

/** What this runtime supports, asked once Office is ready. */
export function dateStyle(): DateStyle {
  try {
    const r = Office.context.requirements;
    if (!r.isSetSupported('CustomFunctionsRuntime', '1.4')) return 'serial';
    if (r.isSetSupported('ExcelApi', '1.19')) return 'double';
    if (r.isSetSupported('ExcelApi', '1.16')) return 'formatted-number';
  } catch {
    // Office not ready, or no requirements to ask: plain serial numbers work everywhere
  }
  return 'serial';
}

function dated(serial: number, numberFormat: string, style: DateStyle): Cell {
  if (style === 'serial') return serial;
  return { type: style === 'double' ? 'Double' : 'FormattedNumber', basicValue: serial, numberFormat };
}

/** An org-local `YYYY-MM-DD` day. */
export function dayCell(day: string | null | undefined, style: DateStyle): Cell {
  if (!day) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  return dated(serialOf([Number(m[1]), Number(m[2]) - 1, Number(m[3])]), DAY_FORMAT, style);
}

/** An API timestamp at the organization's wall-clock time. */
export function timeCell(iso: string | null | undefined, timeZone: string, style: DateStyle): Cell {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return dated(serialOf(wallClock(ms, timeZone)), TIME_FORMAT, style);
}
