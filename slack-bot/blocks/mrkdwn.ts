/**
 * Escaping for Slack mrkdwn. Every string of an answer (names, subjects, notes, error messages) goes through `esc`
 * when it is rendered (render.ts), so it can never ping a channel, mention someone or fake a link.
 */

const SPECIAL_MENTION = /@(channel|here|everyone)\b/gi;
// Control characters other than tab and newline could break rendering; a zero-width space splits mentions.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const ZWSP = '\u200b';
/**
 * Whether a string holds anything `esc` changes: most of an answer's strings hold none, and are sent as they are
 * (the replacements below cost an answer's rendering a fifth of its time).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NEEDS_ESCAPE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f&<>@]/;
/** Whether a string holds anything `plain` changes (a control character, a line break). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NEEDS_PLAIN = /[\u0000-\u001f\u007f]/;

/**
 * Escape API text for mrkdwn: `&`, `<`, `>` become entities (so `<!channel>`, `<@U123>` and `<http://x|y>`
 * show as typed), `@channel`/`@here`/`@everyone` get a zero-width space after the `@`, and control
 * characters are dropped.
 */
export function esc(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  const s = String(text);
  if (!NEEDS_ESCAPE.test(s)) return s;
  return s
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
  const s = String(text);
  if (!NEEDS_PLAIN.test(s)) return s;
  return s.replace(CONTROL, '').replace(/\s*\n\s*/g, ' ');
}

/** Inline code for an already escaped fragment (backticks removed so the span cannot be closed early). */
export const code = (escaped: string): string => `\`${escaped.replace(/`/g, "'")}\``;
