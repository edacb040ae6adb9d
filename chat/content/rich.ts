/**
 * Rich text as data: what an answer says, with its emphasis, icons and command names, and no platform's markup.
 * Plain strings are text as it is (from the API or our own words): each renderer escapes them for its platform
 * (mrkdwn for Slack, card text for Teams, nothing for a terminal), so API text can never become markup anywhere.
 */

/** The icons answers use, by meaning; each renderer draws them its own way (`:warning:` in Slack, ⚠️ in Teams). */
export type Icon =
  | 'warning'
  | 'ok'
  | 'info'
  | 'high'
  | 'medium'
  | 'low'
  | 'new'
  | 'eyes'
  | 'working'
  | 'party'
  | 'hourglass'
  | 'document'
  | 'no';

export interface Span {
  readonly style: 'bold' | 'italic' | 'code' | 'quote';
  readonly content: Rich;
}

export interface IconRef {
  readonly icon: Icon;
}

/** A command as a person types it, without the platform's way in (`/linen ` in Slack, nothing in Teams). */
export interface CommandRef {
  readonly command: string;
  /** Inside a sentence, as words (`plain`), rather than set apart as code (the default). */
  readonly as?: 'plain' | undefined;
}

/** A channel by its platform id (a Slack channel, a Teams conversation); `name` where it is known. */
export interface ChannelRef {
  readonly channel: string;
  readonly name?: string | undefined;
}

/** A person by their platform id; `name` where it is known. */
export interface UserRef {
  readonly user: string;
  readonly name?: string | undefined;
}

export type Inline = string | Span | IconRef | CommandRef | ChannelRef | UserRef;
export type Rich = readonly Inline[];

/** What a template or a helper accepts: one piece, a sequence of them, or nothing. */
export type RichLike = Inline | Rich | null | undefined | false;

export function rich(...pieces: RichLike[]): Rich {
  const out: Inline[] = [];
  for (const p of pieces) {
    if (p === null || p === undefined || p === false || p === '') continue;
    if (Array.isArray(p)) out.push(...(p as Rich));
    else out.push(p as Inline);
  }
  return out;
}

/** A template literal as rich text: `r\`${b(name)} owes ${money(x)}\``. */
export function r(strings: TemplateStringsArray, ...values: RichLike[]): Rich {
  const out: RichLike[] = [];
  strings.forEach((s, i) => {
    out.push(s);
    if (i < values.length) out.push(values[i]);
  });
  return rich(...out);
}

const span = (style: Span['style'], pieces: RichLike[]): Span => ({ style, content: rich(...pieces) });

export const b = (...pieces: RichLike[]): Span => span('bold', pieces);
export const i = (...pieces: RichLike[]): Span => span('italic', pieces);
export const code = (text: string): Span => span('code', [text]);
/** A multi-line note set apart as a quote. */
export const quote = (text: string): Span => span('quote', [text]);
export const icon = (name: Icon): IconRef => ({ icon: name });
export const command = (text: string): CommandRef => ({ command: text });
/** A command named inside a sentence, as words. */
export const commandWords = (text: string): CommandRef => ({ command: text, as: 'plain' });
export const channel = (id: string, name?: string | null): ChannelRef =>
  name ? { channel: id, name } : { channel: id };
export const user = (id: string, name?: string | null): UserRef => (name ? { user: id, name } : { user: id });

/** Whether rich text says nothing at all (empty strings and empty emphasis only). */
export function isBlank(text: RichLike): boolean {
  if (text === null || text === undefined || text === false || text === '') return true;
  if (typeof text === 'string') return false;
  if (Array.isArray(text)) return (text as Rich).every(isBlank);
  const inline = text as Inline;
  return isSpan(inline) ? inline.content.every(isBlank) : false;
}

/** The pieces that say something, with `sep` between them. */
export function joinRich(parts: readonly RichLike[], sep: RichLike): Rich {
  const out: RichLike[] = [];
  for (const p of parts) {
    if (isBlank(p)) continue;
    if (out.length) out.push(sep);
    out.push(p);
  }
  return rich(...out);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** API text on one line (names inside a list line): control characters dropped, line breaks folded. */
export function line(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  return String(text)
    .replace(CONTROL, '')
    .replace(/\s*\n\s*/g, ' ');
}

/** The words of rich text without any emphasis: for plain-text places (a title, a button, a log line). */
export function plainText(text: Rich, commandPrefix = ''): string {
  return text
    .map((p) => {
      if (typeof p === 'string') return p;
      if ('style' in p) return plainText(p.content, commandPrefix);
      if ('command' in p) return `${commandPrefix}${p.command}`;
      if ('channel' in p) return p.name ? `#${p.name}` : 'a channel';
      if ('user' in p) return p.name ?? 'someone';
      return '';
    })
    .join('');
}

/** Whether an inline is emphasised text (bold, italic, code or a quote). */
export function isSpan(p: Inline): p is Span {
  return typeof p !== 'string' && 'style' in p;
}
