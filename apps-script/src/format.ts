/**
 * Values as Sheets shows them: dollars, labels and dates (tables are in columns.ts). Sheets displays a returned
 * `Date` in the spreadsheet's timezone, so a timestamp is returned as the instant whose wall-clock time in
 * the spreadsheet's zone equals its wall-clock time in the organization's zone (the same instant when the
 * two zones agree), and a `YYYY-MM-DD` day as midnight of that day in the spreadsheet's zone.
 */
import { dateTimeFormat } from '../../shared/intl.ts';

export type Cell = string | number | boolean | Date;

/** A Date, also one from another realm (Sheets passes its own): `instanceof Date` would miss those. */
export const isDate = (v: unknown): v is Date => Object.prototype.toString.call(v) === '[object Date]';

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

const utc = (w: number[]) => Date.UTC(w[0]!, w[1]!, w[2]!, w[3]!, w[4]!, w[5]!, w[6]!);

/** The instant at which the clock in `timeZone` shows the wall-clock time `w`. */
function fromWallClock(w: number[], timeZone: string): number {
  const guess = utc(w);
  const first = guess - (utc(wallClock(guess, timeZone)) - guess);
  const offset = utc(wallClock(first, timeZone)) - first;
  return guess - offset;
}

export interface Zones {
  org: string;
  sheet: string;
}

/** An API timestamp as a Sheets date-time showing the organization's local time. */
export function sheetTimestamp(iso: string | null | undefined, zones: Zones): Cell {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  if (zones.org === zones.sheet) return new Date(ms);
  return new Date(fromWallClock(wallClock(ms, zones.org), zones.sheet));
}

/** An org-local `YYYY-MM-DD` day as a Sheets date. */
export function sheetDay(day: string | null | undefined, zones: Zones): Cell {
  if (!day) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  return new Date(fromWallClock([Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 0, 0], zones.sheet));
}

export const dollars = (cents: number | null | undefined): Cell => (typeof cents === 'number' ? cents / 100 : '');
export const currency = (code: string | null | undefined): Cell => (code ? code.toUpperCase() : '');
export const label = (value: string | null | undefined): Cell =>
  value ? value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ') : '';
