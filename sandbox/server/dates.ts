/** Org-local calendar days. Every `from`/`to`/`date` of the API is a day in the organization's timezone. */
import { formatInTimeZone } from 'date-fns-tz';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real `YYYY-MM-DD` calendar day. */
export function isLocalDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d;
}

const dayCache = new Map<string, Map<string, string>>();

/** The org-local day (`YYYY-MM-DD`) of an ISO timestamp; memoized, since the data never changes. */
export function localDay(timestamp: string, timeZone: string): string {
  let cache = dayCache.get(timeZone);
  if (!cache) {
    cache = new Map();
    dayCache.set(timeZone, cache);
  }
  let day = cache.get(timestamp);
  if (day === undefined) {
    day = formatInTimeZone(new Date(timestamp), timeZone, 'yyyy-MM-dd');
    if (cache.size > 500_000) cache.clear();
    cache.set(timestamp, day);
  }
  return day;
}

/** The org-local day of an instant (epoch milliseconds). */
export function todayIn(timeZone: string, nowMs: number): string {
  return formatInTimeZone(new Date(nowMs), timeZone, 'yyyy-MM-dd');
}

function dayNumber(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
}

/** Whole calendar days from `a` to `b` (positive when `b` is later). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** `day` shifted by `n` calendar days. */
export function addDays(day: string, n: number): string {
  return new Date((dayNumber(day) + n) * 86_400_000).toISOString().slice(0, 10);
}

/** True when a valid IANA timezone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.length > 0;
  } catch {
    return false;
  }
}
