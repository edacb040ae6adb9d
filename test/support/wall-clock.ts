/**
 * The wall-clock time of an instant in a timezone, read with `Intl` apart from the product's own code, so the suites
 * can check the dates the spreadsheets show: as text, and as Excel's serial number of that wall-clock time.
 */

/** `YYYY-MM-DD hh:mm:ss` in `timeZone`. */
export function wallClockText(instant: Date, timeZone: string): string {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** Excel's serial number (days since 1899-12-30, the time of day as a fraction) of the wall-clock time in `timeZone`. */
export function wallClockSerial(instant: Date, timeZone: string): number {
  const [y, mo, d, h, mi, s] = wallClockText(instant, timeZone).split(/[- :]/).map(Number);
  return (Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) - Date.UTC(1899, 11, 30)) / 86_400_000;
}
