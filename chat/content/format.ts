/** Numbers, amounts, times and names as answers write them, the same on every platform. */
import { dateTimeFormat } from '../../shared/intl.ts';

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `$1,234.56`, `CA$12.00`: integer cents in the given ISO 4217 currency. */
export function money(cents: number, currency: string): string {
  const cur = (currency || 'usd').toUpperCase();
  let f = moneyFormats.get(cur);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency: cur });
    } catch {
      f = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    }
    moneyFormats.set(cur, f);
  }
  return f.format(cents / 100);
}

export function pct(rate: number | null, digits = 0): string {
  return rate === null ? 'n/a' : `${(rate * 100).toFixed(digits)}%`;
}

/** `n.toLocaleString('en-US')`, with one format for every call rather than a new one each time. */
const counts = new Intl.NumberFormat('en-US');

/** A whole number grouped by thousands as en-US writes it (`-1,234,567`), without asking ICU. */
function grouped(n: number): string {
  const digits = String(Math.abs(n));
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let k = out.length; k < digits.length; k += 3) out += `,${digits.slice(k, k + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/**
 * `1,204` as `toLocaleString('en-US')` writes it. Answers count whole numbers by the hundred (a table's cells, a
 * chart's points), which are grouped here: formatting each through Intl cost a fifth of rendering an answer.
 */
export const count = (n: number): string =>
  Number.isSafeInteger(n) && !Object.is(n, -0) ? grouped(n) : counts.format(n);

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** `2026-11-22 10:48` in the organization's timezone, from an API timestamp (text that is not one, as it is). */
export function when(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const f = dateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** The org-local day of an API timestamp. */
export function dayOf(iso: string, timeZone: string): string {
  return when(iso, timeZone).slice(0, 10);
}

/** `shortfall_streak` -> `Shortfall streak`. */
export function humanize(snake: string): string {
  const s = snake.replace(/_/g, ' ').trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export interface Taken<T> {
  shown: T[];
  more: number;
}

/** The first `max` items, and how many were left out (answers list their worst or newest first). */
export function take<T>(items: readonly T[], max: number): Taken<T> {
  return { shown: items.slice(0, Math.max(0, max)), more: Math.max(0, items.length - max) };
}

export function moreLine(more: number, noun: string, hint?: string): string {
  return `…and ${count(more)} more ${noun}${hint ? ` ${hint}` : ''}`;
}
