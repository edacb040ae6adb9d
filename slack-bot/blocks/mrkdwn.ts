/**
 * Text for Slack mrkdwn. Everything that comes from the Linen API (names, subjects, notes, error messages)
 * goes through `esc` so it can never ping a channel, mention someone or fake a link.
 */

import { dateTimeFormat } from '../../shared/intl.ts';

const SPECIAL_MENTION = /@(channel|here|everyone)\b/gi;
// Control characters other than tab and newline could break rendering; a zero-width space splits mentions.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const ZWSP = '\u200b';

/**
 * Escape API text for mrkdwn: `&`, `<`, `>` become entities (so `<!channel>`, `<@U123>` and `<http://x|y>`
 * show as typed), `@channel`/`@here`/`@everyone` get a zero-width space after the `@`, and control
 * characters are dropped.
 */
export function esc(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .replace(CONTROL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(SPECIAL_MENTION, `@${ZWSP}$1`);
}

/** Escaped and folded to one line (for names inside a list line). */
export function escLine(text: string | null | undefined): string {
  return esc(text).replace(/\s*\n\s*/g, ' ');
}

/** Plain text (headers, buttons) is not parsed by Slack; only fold lines and drop control characters. */
export function plain(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .replace(CONTROL, '')
    .replace(/\s*\n\s*/g, ' ');
}

/** Bold a mrkdwn fragment that is already escaped. */
export const bold = (escaped: string): string => (escaped === '' ? '' : `*${escaped}*`);

/** Inline code for an already escaped fragment (backticks removed so the span cannot be closed early). */
export const code = (escaped: string): string => `\`${escaped.replace(/`/g, "'")}\``;

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

export const count = (n: number): string => n.toLocaleString('en-US');

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** `2026-11-22 10:48` in the organization's timezone, from an API timestamp. */
export function when(iso: string | null | undefined, timeZone: string): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return esc(iso);
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
