/**
 * Digest schedules: a cadence (`daily`, `weekdays`, or days such as `mon,wed,fri`) and a wall-clock `HH:MM` in
 * the organization's timezone. Run instants come from croner, which keeps wall-clock times across daylight
 * saving changes (a time skipped by spring-forward fires once at the first valid minute after it; a time
 * repeated by fall-back fires once).
 */
import { Cron } from 'croner';
import { dateTimeFormat } from '../../shared/intl.ts';

export const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type DayName = (typeof DAY_NAMES)[number];

const ALIASES: Record<string, DayName> = {
  sun: 'sun',
  sunday: 'sun',
  mon: 'mon',
  monday: 'mon',
  tue: 'tue',
  tues: 'tue',
  tuesday: 'tue',
  wed: 'wed',
  weds: 'wed',
  wednesday: 'wed',
  thu: 'thu',
  thur: 'thu',
  thurs: 'thu',
  thursday: 'thu',
  fri: 'fri',
  friday: 'fri',
  sat: 'sat',
  saturday: 'sat',
};

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/** A single day name or alias, or null. */
export function dayName(word: string): DayName | null {
  return ALIASES[word.trim().toLowerCase()] ?? null;
}

/**
 * Normalize a cadence: `daily`, `weekdays`, `weekends`, `weekly` (on Mondays), or a comma list of days
 * (`mon,wed,fri`), returned as `daily`, `weekdays`, `weekends` or the days in week order. Throws ScheduleError
 * naming an unknown day.
 */
export function parseCadence(input: string): string {
  const s = input.trim().toLowerCase();
  if (s === 'daily' || s === 'everyday' || s === 'every-day') return 'daily';
  if (s === 'weekly') return 'mon';
  if (s === 'weekdays') return 'weekdays';
  if (s === 'weekends') return 'weekends';
  const parts = s
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new ScheduleError('Give a cadence: daily, weekdays, or days such as mon,wed,fri.');
  const days = new Set<DayName>();
  for (const p of parts) {
    const d = dayName(p);
    if (!d)
      throw new ScheduleError(
        `"${p}" is not a day; use mon, tue, wed, thu, fri, sat or sun (for example mon,wed,fri).`,
      );
    days.add(d);
  }
  if (days.size === 7) return 'daily';
  return DAY_NAMES.filter((d) => days.has(d)).join(',');
}

/** `HH:MM` (or `H:MM`), 00:00 to 23:59, normalized to `HH:MM`. */
export function parseTime(input: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(input.trim());
  if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) {
    throw new ScheduleError(`"${input.trim()}" is not a time; use HH:MM on a 24-hour clock, from 00:00 to 23:59.`);
  }
  return `${m[1]!.padStart(2, '0')}:${m[2]}`;
}

export function cronPattern(cadence: string, time: string): string {
  const [hh, mm] = parseTime(time).split(':');
  const c = parseCadence(cadence);
  const dow =
    c === 'daily'
      ? '*'
      : c === 'weekdays'
        ? '1-5'
        : c === 'weekends'
          ? '0,6'
          : c
              .split(',')
              .map((d) => DAY_NAMES.indexOf(d as DayName))
              .join(',');
  return `${Number(mm)} ${Number(hh)} * * ${dow}`;
}

export interface Schedule {
  cadence: string;
  time: string;
  timeZone: string;
}

// A paused Cron only answers "next run after X": stateless, so one per (pattern, zone) is shared.
const crons = new Map<string, Cron>();

function cron(s: Schedule): Cron {
  const pattern = cronPattern(s.cadence, s.time);
  const key = `${pattern}|${s.timeZone}`;
  let c = crons.get(key);
  if (!c) {
    if (crons.size > 5000) crons.clear();
    c = new Cron(pattern, { timezone: s.timeZone, paused: true });
    crons.set(key, c);
  }
  return c;
}

/** The next `n` run instants strictly after `after`. */
export function nextRuns(s: Schedule, after: Date, n: number): Date[] {
  return cron(s).nextRuns(n, after);
}

// Subscriptions sharing a schedule ask the same "next after X" within a tick: answer it once.
const nextCache = new Map<string, Date | null>();

function nextAfter(s: Schedule, after: Date): Date | null {
  const key = `${s.cadence}|${s.time}|${s.timeZone}|${after.getTime()}`;
  let next = nextCache.get(key);
  if (next === undefined) {
    if (nextCache.size > 20_000) nextCache.clear();
    next = cron(s).nextRun(after);
    nextCache.set(key, next);
  }
  return next === null ? null : new Date(next.getTime());
}

/** Run instants in (after, until], at most `max` of them (oldest first). */
export function runsBetween(s: Schedule, after: Date, until: Date, max = 1000): Date[] {
  const out: Date[] = [];
  let cursor = after;
  while (out.length < max) {
    const next = nextAfter(s, cursor);
    if (!next || next.getTime() > until.getTime()) break;
    out.push(next);
    cursor = next;
  }
  return out;
}

/** `Mon 9 Mar, 07:00 CDT` in the given timezone. */
export function formatInstant(d: Date, timeZone: string): string {
  const f = dateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(d)) p[part.type] = part.value;
  // en-US names the zone (CST, CDT) where en-GB gives an offset.
  const z = dateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(d);
  p.timeZoneName = z.find((x) => x.type === 'timeZoneName')?.value ?? timeZone;
  return `${p.weekday} ${p.day} ${p.month}, ${p.hour}:${p.minute} ${p.timeZoneName}`;
}

/** Human description: `daily at 07:00`, `on mon, wed, fri at 07:00`. */
export function describeSchedule(s: Schedule): string {
  const c = parseCadence(s.cadence);
  const when =
    c === 'daily'
      ? 'daily'
      : c === 'weekdays'
        ? 'on weekdays'
        : c === 'weekends'
          ? 'on weekends'
          : `on ${c.split(',').join(', ')}`;
  return `${when} at ${s.time} (${s.timeZone})`;
}
