/**
 * The window of whole days `fillrate` and `rewash` read: `<customer> [days | from to] [rest]`. A number of days is
 * the last whole days (today is only partly delivered); two calendar days are the window itself.
 */
import { isIsoDay } from '../../shared/dates.ts';
import { Problem, type Token } from './command.ts';

export type DayWindow = { days: number } | { from: string; to: string };

const MAX_DAYS = 366;

export interface Windowed {
  customer: string;
  window: DayWindow;
  /** The words after the window (or after a quoted customer, without one). */
  rest?: string | undefined;
}

/** The window as text: `14`, or `2026-11-01 2026-11-15`. */
export const windowText = (w: DayWindow) => ('days' in w ? String(w.days) : `${w.from} ${w.to}`);

/** The customer, the window (`defaultDays` when none is given) and what follows them. */
export function parseWindowed(tokens: readonly Token[], defaultDays: number): Windowed | Problem {
  const words = tokens.map((t) => t.text);
  if (words.length === 0) return new Problem('Give a customer name or id.');
  const isWindowWord = (t: string) => /^\d+$/.test(t) || /^\d{4}-\d{2}-\d{2}$/.test(t);
  let i = words.findIndex(isWindowWord);
  if (i === 0) return new Problem('Give the customer first, then the window.');
  if (i < 0) {
    // No window: a quoted customer may be followed by more words; otherwise everything is the customer.
    const split = tokens[0]!.quoted && words.length > 1;
    const rest = split ? words.slice(1) : [];
    return {
      customer: split ? words[0]! : words.join(' '),
      window: { days: defaultDays },
      rest: rest.length ? rest.join(' ') : undefined,
    };
  }
  const customer = words.slice(0, i).join(' ');
  const first = words[i]!;
  let window: DayWindow;
  if (/^\d+$/.test(first)) {
    const days = Number(first);
    if (days < 1 || days > MAX_DAYS) return new Problem(`The window is 1 to ${MAX_DAYS} days (got ${first}).`);
    window = { days };
    i += 1;
  } else {
    const second = words[i + 1];
    if (!isIsoDay(first)) return new Problem(`${first} is not a calendar day (YYYY-MM-DD).`);
    if (second === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(second))
      return new Problem('Give both days of the window: from and to (YYYY-MM-DD YYYY-MM-DD).');
    if (!isIsoDay(second)) return new Problem(`${second} is not a calendar day (YYYY-MM-DD).`);
    if (first > second) return new Problem(`The window starts after it ends (${first} > ${second}).`);
    window = { from: first, to: second };
    i += 2;
  }
  const rest = words.slice(i);
  return { customer, window, rest: rest.length ? rest.join(' ') : undefined };
}
