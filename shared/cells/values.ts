/**
 * What a cell of either spreadsheet can hold, and the conversions both make the same way: dollars, labels,
 * currency codes, the wall-clock time of an instant in a timezone, and spreadsheet serial numbers (days since
 * 1899-12-30, the 1900 date system Sheets and Excel share). How a day or an instant is shown is the
 * spreadsheet's own business (`CellContext.dayCell` and `timeCell`).
 */
import { dateTimeFormat } from '../intl.ts';

/** A number with a display format of its own (Excel's formatted number values: a date shown as a date). */
export interface FormattedNumber {
  type: string;
  basicValue: number;
  numberFormat: string;
}

export type Cell = string | number | boolean | Date | FormattedNumber;

export interface Zones {
  /** The organization's timezone: the API's days, and the wall clock its instants are shown in. */
  org: string;
  /** The spreadsheet's timezone (how Sheets shows and passes dates); the organization's in Excel. */
  sheet: string;
}

export const dollars = (cents: number | null | undefined): Cell => (typeof cents === 'number' ? cents / 100 : '');
export const currency = (code: string | null | undefined): Cell => (code ? code.toUpperCase() : '');
export const label = (value: string | null | undefined): Cell =>
  value ? value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ') : '';

/** The wall-clock time in `timeZone` at instant `ms`: [year, month (0-11), day, hour (0-23), minute, second, ms]. */
export function wallClock(ms: number, timeZone: string): number[] {
  const f = dateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  return [p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!, ((ms % 1000) + 1000) % 1000];
}

/** Day 0 of the spreadsheets' serial numbers (so that 1900-03-01 is 61, as in both). */
export const SERIAL_EPOCH = Date.UTC(1899, 11, 30);
const DAY_MS = 86_400_000;

/** The serial number of a wall-clock time [y, m, d, h, mi, s, ms] (whole days, and the time as a fraction). */
export const serialOf = (w: readonly number[]): number =>
  (Date.UTC(w[0]!, w[1]!, w[2]!, w[3] ?? 0, w[4] ?? 0, w[5] ?? 0, w[6] ?? 0) - SERIAL_EPOCH) / DAY_MS;

/** The `YYYY-MM-DD` day of a serial number (its time of day dropped). */
export const dayOfSerial = (serial: number): string =>
  new Date(SERIAL_EPOCH + Math.floor(serial) * DAY_MS).toISOString().slice(0, 10);
