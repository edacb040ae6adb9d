/** Org-local days and headings for digests. */
import { today } from '../../shared/index.ts';
import { dateTimeFormat } from '../../shared/intl.ts';

export function dayInZoneOf(at: Date, timeZone: string): string {
  return today(timeZone, at);
}

/** `Thu 5 Nov` in the timezone. */
export function titleOf(at: Date, timeZone: string): string {
  return dateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' })
    .format(at)
    .replace(',', '');
}
