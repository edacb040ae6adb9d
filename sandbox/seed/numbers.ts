/**
 * Display numbers such as `MAN-26-004211`: `PREFIX-YY-sequence`, the sequence restarting every org-local year.
 */
import type { LocalDate } from '../model.ts';
import { pad } from './prng.ts';
import { yy } from './time.ts';

export interface YearlyNumbering<T> {
  prefix: string;
  digits: number;
  /** The org-local day that dates a row (its year goes into the number). */
  day(row: T): LocalDate;
  /** The first number of a year's sequence; `earliest` is true for the oldest year in the data, which starts mid-way. */
  start(year: string, earliest: boolean): number;
  assign(row: T, number: string): void;
}

/** Numbers `rows`, which must already be in the order the numbers follow (oldest first). */
export function numberByYear<T>(rows: readonly T[], numbering: YearlyNumbering<T>): void {
  const next = new Map<string, number>();
  for (const row of rows) {
    const year = yy(numbering.day(row));
    const n = next.get(year) ?? numbering.start(year, next.size === 0);
    numbering.assign(row, `${numbering.prefix}-${year}-${pad(n, numbering.digits)}`);
    next.set(year, n + 1);
  }
}
