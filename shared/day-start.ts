/** The instant an org-local day starts, for the Node side (date-fns-tz, which the add-on does not load). */
import { fromZonedTime } from 'date-fns-tz';
import { isIsoDay } from './dates.ts';
import { InvalidParamsError } from './errors.ts';

/** The instant an org-local day starts (midnight in the zone; DST-safe). */
export function startOfDayInZone(day: string, timeZone: string): Date {
  if (!isIsoDay(day)) throw new InvalidParamsError({ message: `not a YYYY-MM-DD day: ${day}` });
  return fromZonedTime(`${day}T00:00:00`, timeZone);
}
