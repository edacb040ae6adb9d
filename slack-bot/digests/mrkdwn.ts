/**
 * Escaping of API text for Slack mrkdwn: `&`, `<`, `>` become entities (so `<!channel>` or `<@U1>` show as
 * typed) and `@channel`/`@here`/`@everyone` are split with a zero-width space so they never notify.
 */
const SPECIAL_MENTION = /@(channel|here|everyone)\b/gi;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

export function esc(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .replace(CONTROL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(SPECIAL_MENTION, '@\u200b$1')
    .replace(/\s*\n\s*/g, ' ');
}

/** Plain text (header blocks) is not parsed; only control characters and line breaks are removed. */
export function plain(text: string): string {
  return text.replace(CONTROL, '').replace(/\s*\n\s*/g, ' ');
}

/** Cut to `max` characters with an ellipsis, never inside an entity. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let at = max - 1;
  const amp = text.lastIndexOf('&', at);
  if (amp >= 0 && amp > at - 6 && text.indexOf(';', amp) >= at) at = amp;
  return `${text.slice(0, at)}…`;
}
