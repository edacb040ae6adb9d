/**
 * Days and instants as Sheets shows them. Sheets displays a returned `Date` in the spreadsheet's timezone, so a
 * timestamp is returned as the instant whose wall-clock time in the spreadsheet's zone equals its wall-clock time
 * in the organization's zone (the same instant when the two zones agree), and a `YYYY-MM-DD` day as midnight of
 * that day in the spreadsheet's zone. The rest of what a cell holds is shared (shared/cells/values.ts).
 */
import { wallClock, type Zones } from '../../shared/cells/values.ts';

const utc = (w: number[]) => Date.UTC(w[0]!, w[1]!, w[2]!, w[3]!, w[4]!, w[5]!, w[6]!);

/** The instant at which the clock in `timeZone` shows the wall-clock time `w`. */
function fromWallClock(w: number[], timeZone: string): number {
  const guess = utc(w);
  const first = guess - (utc(wallClock(guess, timeZone)) - guess);
  const offset = utc(wallClock(first, timeZone)) - first;
  return guess - offset;
}

/** An API timestamp as a Sheets date-time showing the organization's local time. */
export function sheetTimestamp(iso: string | null | undefined, zones: Zones): Date | string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  if (zones.org === zones.sheet) return new Date(ms);
  return new Date(fromWallClock(wallClock(ms, zones.org), zones.sheet));
}

/** An org-local `YYYY-MM-DD` day as a Sheets date. */
export function sheetDay(day: string | null | undefined, zones: Zones): Date | string {
  if (!day) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  return new Date(fromWallClock([Number(m[1]), Number(m[2]) - 1, Number(m[3]), 0, 0, 0, 0], zones.sheet));
}
