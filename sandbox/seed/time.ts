/**
 * Calendar arithmetic for the seeded history. Days are org-local `YYYY-MM-DD` strings; instants are built from
 * a local day and a minute of that day in the organization's timezone, and read back as local days.
 */
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import type { LocalDate, Timestamp, Weekday } from '../model.ts';
import { pad } from './prng.ts';

const WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const DAY_MS = 86_400_000;

const dayMsCache = new Map<string, number>();
const msDayCache = new Map<number, LocalDate>();

function dayToUtcMs(day: LocalDate): number {
  let ms = dayMsCache.get(day);
  if (ms === undefined) {
    ms = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
    if (dayMsCache.size > 100_000) dayMsCache.clear();
    dayMsCache.set(day, ms);
  }
  return ms;
}

function utcMsToDay(ms: number): LocalDate {
  let day = msDayCache.get(ms);
  if (day === undefined) {
    const date = new Date(ms);
    day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
    if (msDayCache.size > 100_000) msDayCache.clear();
    msDayCache.set(ms, day);
  }
  return day;
}

export function addDays(day: LocalDate, days: number): LocalDate {
  return utcMsToDay(dayToUtcMs(day) + days * DAY_MS);
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  return Math.round((dayToUtcMs(to) - dayToUtcMs(from)) / DAY_MS);
}

export function weekdayOf(day: LocalDate): Weekday {
  return WEEKDAYS[new Date(dayToUtcMs(day)).getUTCDay()] as Weekday;
}

/** Two-digit year of a local day (display numbers carry the org-local year). */
export function yy(day: string): string {
  return day.slice(2, 4);
}

export function isValidDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  return utcMsToDay(dayToUtcMs(day)) === day;
}

/**
 * Builds instants from org-local wall-clock times. Offsets are looked up once per day (and per hour on days
 * whose offset changes), which keeps thousands of timestamps cheap.
 */
export class Clock {
  /** The generation instant (default noon of `today`, org-local). Nothing seeded happens after it except future plans. */
  readonly nowMs: number;
  private readonly dayOffsets = new Map<LocalDate, { start: number; end: number }>();
  private readonly hourStarts = new Map<string, number>();

  constructor(
    readonly timeZone: string,
    readonly today: LocalDate,
    asOfMs?: number,
  ) {
    this.nowMs = asOfMs ?? this.ms(today, 12 * 60);
  }

  private wallMs(day: LocalDate, hour: number): number {
    return dayToUtcMs(day) + hour * 3_600_000;
  }

  private hourStart(day: LocalDate, hour: number): number {
    let offsets = this.dayOffsets.get(day);
    if (!offsets) {
      const start = fromZonedTime(`${day}T00:00:00`, this.timeZone).getTime();
      const end = fromZonedTime(`${day}T23:00:00`, this.timeZone).getTime();
      offsets = { start: this.wallMs(day, 0) - start, end: this.wallMs(day, 23) - end };
      this.dayOffsets.set(day, offsets);
    }
    if (offsets.start === offsets.end) return this.wallMs(day, hour) - offsets.start;
    const key = `${day}T${hour}`;
    let cached = this.hourStarts.get(key);
    if (cached === undefined) {
      cached = fromZonedTime(`${day}T${pad(hour, 2)}:00:00`, this.timeZone).getTime();
      this.hourStarts.set(key, cached);
    }
    return cached;
  }

  /** The instant of `minutes` after local midnight of `day` (may be negative or past 24 h; seconds allowed). */
  ms(day: LocalDate, minutes: number): number {
    let d = day;
    let m = minutes;
    while (m < 0) {
      d = addDays(d, -1);
      m += 1440;
    }
    while (m >= 1440) {
      d = addDays(d, 1);
      m -= 1440;
    }
    const hour = Math.floor(m / 60);
    return this.hourStart(d, hour) + Math.round((m - hour * 60) * 60) * 1000;
  }

  iso(day: LocalDate, minutes: number): Timestamp {
    return new Date(this.ms(day, minutes)).toISOString();
  }

  /** The org-local day of an instant. */
  localDay(at: number | Timestamp): LocalDate {
    const ms = typeof at === 'number' ? at : Date.parse(at);
    // The local day D with midnight(D) <= ms < midnight(D + 1), searched from the UTC day.
    let day = utcMsToDay(Math.floor(ms / DAY_MS) * DAY_MS);
    for (let guard = 0; guard < 3; guard++) {
      if (ms < this.ms(day, 0)) day = addDays(day, -1);
      else if (ms >= this.ms(addDays(day, 1), 0)) day = addDays(day, 1);
      else return day;
    }
    return formatInTimeZone(new Date(ms), this.timeZone, 'yyyy-MM-dd');
  }
}

export function isoOf(ms: number): Timestamp {
  return new Date(ms).toISOString();
}
