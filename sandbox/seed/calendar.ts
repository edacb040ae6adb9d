/**
 * The fixed origin of the seeded history. Every dated record is drawn from a stream keyed by its own day (or week,
 * month, cycle) counted from this origin, never from "today" or from the first day shown, so a day gives the same
 * records whichever day the data is generated for: yesterday's manifests, invoices and tickets keep their ids,
 * numbers and facts today, and each new day only adds its own.
 */
import type { LocalDate } from '../model.ts';
import type { Rng } from './prng.ts';
import { addDays, daysBetween } from './time.ts';

/** A Monday; days, weeks and cycles are counted from it. */
export const SEED_ORIGIN: LocalDate = '2020-01-06';

export function dayIndex(day: LocalDate): number {
  return daysBetween(SEED_ORIGIN, day);
}

/** Weeks since the origin (weeks start on Monday). */
export function weekIndex(day: LocalDate): number {
  return Math.floor(dayIndex(day) / 7);
}

/** Months since January 2020. */
export function monthIndex(day: LocalDate): number {
  return (Number(day.slice(0, 4)) - 2020) * 12 + Number(day.slice(5, 7)) - 1;
}

/** The stream of one day's records of one kind (`label`, e.g. `operations/MGH/2`). */
export function dayStream(root: Rng, label: string, day: LocalDate): Rng {
  return root.fork(`${label}@${day}`);
}

/** The `index`-th cycle of `length` days: its first day. */
export function cycleStart(length: number, index: number): LocalDate {
  return addDays(SEED_ORIGIN, index * length);
}

/** The cycle of `length` days that holds `day`. */
export function cycleOf(length: number, day: LocalDate): number {
  return Math.floor(dayIndex(day) / length);
}

/** Whether `day` is within the recurring phase [from, to) of a `period`-day cycle shifted by `offset` days. */
export function inPhase(day: LocalDate, period: number, offset: number, from: number, to: number): boolean {
  const phase = (((dayIndex(day) + offset) % period) + period) % period;
  return phase >= from && phase < to;
}
