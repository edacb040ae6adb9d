/** Org-local days and headings for digests. */
import { today } from '../../shared/index.ts';

export function dayInZoneOf(at: Date, timeZone: string): string {
  return today(timeZone, at);
}

const titleFormats = new Map<string, Intl.DateTimeFormat>();

/** `Thu 5 Nov` in the timezone. */
export function titleOf(at: Date, timeZone: string): string {
  let f = titleFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
    titleFormats.set(timeZone, f);
  }
  return f.format(at).replace(',', '');
}
