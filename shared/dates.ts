/**
 * Org-local calendar days. The API reads every `from`/`to`/`date` as a `YYYY-MM-DD` day in the
 * organization's timezone; a `Date` given by the caller is read in that zone through Intl. Day arithmetic is
 * done on the calendar (UTC noon of the day), so DST changes never shift a day. The Apps Script bundle loads
 * this file: the instant a day starts (date-fns-tz, which runs code as it loads) is in day-start.ts.
 */
import { InvalidParamsError } from './errors.ts';
import { dateTimeFormat } from './intl.ts';

export type DateInput = Date | string;

const DAY_MS = 86_400_000;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidTimeZone(tz: string): boolean {
  try {
    dateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** True for a real calendar day written `YYYY-MM-DD`. */
export function isIsoDay(s: string): boolean {
  const m = YMD.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

const lastDay = { key: '', day: '' };

/**
 * The org-local day of an instant. Read straight from Intl (what date-fns-tz itself uses underneath):
 * date-fns' general `format` would add about 20 KB to the Apps Script bundle for this one pattern.
 */
export function dayInZone(instant: Date, timeZone: string): string {
  // A digest run asks the same instant's day thousands of times (one per subscription): the last answer is kept.
  const key = `${timeZone}|${instant.getTime()}`;
  if (key === lastDay.key) return lastDay.day;
  const formatter = dateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const parts: Record<string, string> = {};
  for (const part of formatter.formatToParts(instant)) parts[part.type] = part.value;
  lastDay.key = key;
  lastDay.day = `${parts.year!.padStart(4, '0')}-${parts.month}-${parts.day}`;
  return lastDay.day;
}

/** Normalize a `Date` or `YYYY-MM-DD` to the org-local day; throws InvalidParamsError before any request. */
export function toIsoDay(value: DateInput, timeZone: string, param = 'date'): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new InvalidParamsError({ message: `${param} is an invalid Date` });
    return dayInZone(value, timeZone);
  }
  if (typeof value === 'string' && isIsoDay(value)) return value;
  throw new InvalidParamsError({
    message: `${param} must be a Date or a real day written YYYY-MM-DD, got ${JSON.stringify(value)}`,
  });
}

function dayToUtcNoon(day: string): number {
  const m = YMD.exec(day);
  if (!m) throw new InvalidParamsError({ message: `not a YYYY-MM-DD day: ${day}` });
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 12);
}

export function addDays(day: string, n: number): string {
  return new Date(dayToUtcNoon(day) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both inclusive (1 for the same day). */
export function daysInclusive(from: string, to: string): number {
  return Math.round((dayToUtcNoon(to) - dayToUtcNoon(from)) / DAY_MS) + 1;
}

export interface DayWindow {
  from: string;
  to: string;
}

/** The last `n` org-local days, today included: `lastNDays(7)` on a Tuesday runs Wednesday..Tuesday. */
export function lastNDays(n: number, timeZone: string, now: Date = new Date()): DayWindow {
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidParamsError({ message: `n must be a positive integer, got ${n}` });
  const to = dayInZone(now, timeZone);
  return { from: addDays(to, -(n - 1)), to };
}

/**
 * The last `n` whole org-local days, ending yesterday: today is only partly delivered, so a default window
 * leaves it out. `lastCompleteDays(7)` on a Tuesday runs Tuesday a week ago..Monday.
 */
export function lastCompleteDays(n: number, timeZone: string, now: Date = new Date()): DayWindow {
  const w = lastNDays(n, timeZone, now);
  return { from: addDays(w.from, -1), to: addDays(w.to, -1) };
}

/** Today, org-local. */
export function today(timeZone: string, now: Date = new Date()): string {
  return dayInZone(now, timeZone);
}

/**
 * Split an inclusive window into chunks of at most `maxDays`, newest first (the order the API lists dated
 * rows), so the concatenated results keep the server's order.
 */
export function splitWindow(window: DayWindow, maxDays = 92): DayWindow[] {
  if (daysInclusive(window.from, window.to) < 1) {
    throw new InvalidParamsError({ message: `from (${window.from}) is after to (${window.to})` });
  }
  const chunks: DayWindow[] = [];
  let to = window.to;
  while (daysInclusive(window.from, to) > 0) {
    const candidate = addDays(to, -(maxDays - 1));
    const from = daysInclusive(window.from, candidate) > 0 ? candidate : window.from;
    chunks.push({ from, to });
    to = addDays(from, -1);
  }
  return chunks;
}
