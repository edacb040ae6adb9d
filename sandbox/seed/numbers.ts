/**
 * Display numbers such as `MAN-26-004211`: `PREFIX-YY-sequence`, the sequence restarting every org-local year.
 *
 * The provider numbers the records of all its customers, most of which the sandbox does not show, so each day of
 * the year owns a fixed block of the sequence (`perDay` numbers, the day-of-year times the rate) and the shown
 * records of a day take the first numbers of its block in the order they happened. A number then depends only on
 * its record's day and its rank within that day, never on how much history is generated or on "today".
 */
import type { LocalDate } from '../model.ts';
import { pad } from './prng.ts';
import { daysBetween, yy } from './time.ts';

export interface DailyNumbering<T> {
  prefix: string;
  digits: number;
  /** Numbers the provider gives out per day, across all its customers (at least the most rows a day can have). */
  perDay: number;
  /** The org-local day that dates a row (its year goes into the number). */
  day(row: T): LocalDate;
  /** Order of the rows within one day (when they happened); the rank within the day picks the number. */
  order(a: T, b: T): number;
  assign(row: T, number: string): void;
}

/** The first number of the block of the `dayOfYear`-th day (0 for 1 January). */
function blockStart(dayOfYear: number, perDay: number): number {
  return 1 + Math.floor(dayOfYear * perDay);
}

/**
 * Numbers `rows`: every row of a day must be present (rows that exist only later included), or a rank moves.
 * Rows are grouped by their day; a day with more rows than its block holds is an error of the seed.
 */
export function numberByDay<T>(rows: readonly T[], numbering: DailyNumbering<T>): void {
  const byDay = new Map<LocalDate, T[]>();
  for (const row of rows) {
    const day = numbering.day(row);
    const list = byDay.get(day);
    if (list) list.push(row);
    else byDay.set(day, [row]);
  }
  for (const [day, list] of byDay) {
    const dayOfYear = daysBetween(`${day.slice(0, 4)}-01-01`, day);
    const start = blockStart(dayOfYear, numbering.perDay);
    const capacity = blockStart(dayOfYear + 1, numbering.perDay) - start;
    if (list.length > capacity)
      throw new Error(`${numbering.prefix}: ${list.length} rows on ${day}, the block holds ${capacity}`);
    list.sort(numbering.order);
    list.forEach((row, rank) => {
      numbering.assign(row, `${numbering.prefix}-${yy(day)}-${pad(start + rank, numbering.digits)}`);
    });
  }
}

/**
 * The number a record added later to a day takes: the first of the day's block that no record in `taken` has,
 * or past the block when the day has used all of it (display numbers are not unique keys anyway).
 */
export function firstFreeNumber(
  numbering: Pick<DailyNumbering<unknown>, 'prefix' | 'digits' | 'perDay'>,
  day: LocalDate,
  taken: Iterable<string>,
): string {
  const used = new Set(taken);
  const dayOfYear = daysBetween(`${day.slice(0, 4)}-01-01`, day);
  for (let n = blockStart(dayOfYear, numbering.perDay); ; n++) {
    const number = `${numbering.prefix}-${yy(day)}-${pad(n, numbering.digits)}`;
    if (!used.has(number)) return number;
  }
}
