/**
 * The sizes answers are built within: the tightest of the platforms they are rendered for (Slack's Block Kit:
 * 50 blocks, 3,000 characters a section, 10 fields). An answer built within them fits everywhere without losing
 * its "…and N more" lines; each renderer still applies its own limits as a safety net (a Teams card's 28 KB).
 * Lengths are measured as the longest a renderer can make them (escaping, markup, emoji names).
 */
import type { Part } from './document.ts';
import { isSpan, type Rich } from './rich.ts';

export const CONTENT_LIMITS = {
  /** Parts of one answer (one Block Kit block each; see `partsUsed`). */
  parts: 50,
  /** Rendered characters of one paragraph. */
  text: 3000,
  fields: 10,
  fieldText: 2000,
  title: 150,
  /** Actions in one row (customer choices). */
  actions: 25,
  /** Rendered characters of an answer's summary. */
  summary: 3000,
} as const;

/**
 * Blocks the parts take at the most: a chart with its numbers is two, a table with its "…and N more" line two and
 * its lines.
 */
export const partsUsed = (parts: readonly Part[]): number =>
  parts.reduce((n, p) => n + (p.kind === 'chart' ? 2 : p.kind === 'table' ? 2 + partsUsed(p.lines) : 1), 0);

/** The most a piece of text can grow when rendered: `&` as `&amp;`, `<` as `&lt;`, a mention defused. */
const GROWTH: Record<string, number> = { '&': 4, '<': 3, '>': 3, '@': 1, '*': 1, _: 1, '`': 1, '[': 1, ']': 1 };
/** Emphasis markers (`**…**`), an icon's name (`:large_orange_circle:`), a command's prefix (`/linen `). */
const SPAN_COST = 4;
const ICON_COST = 21;
const COMMAND_COST = 9;
/** `<#C0123456789>`, `<@U0123456789>`, or a name. */
const REF_COST = 40;

/** A character of GROWTH: a string without one renders at its own length (most of an answer's strings). */
const GROWS = /[&<>@*_`[\]]/;

function stringLength(s: string): number {
  let n = s.length;
  if (!GROWS.test(s)) return n;
  for (const ch of s) n += GROWTH[ch] ?? 0;
  return n;
}

/** A quote marks each of its lines (`>`). */
const quotedLines = (t: Rich): number =>
  1 + t.reduce((n, p) => n + (typeof p === 'string' ? p.split('\n').length - 1 : 0), 0);

/** An icon, a command, a channel or a person: what the platforms write for them at the most. */
function refCost(p: Exclude<Rich[number], string | { style: unknown }>): number {
  if ('icon' in p) return ICON_COST;
  if ('command' in p) return COMMAND_COST + stringLength(p.command);
  return REF_COST + stringLength(p.name ?? '');
}

/** The longest `text` can be once rendered. */
export function measure(text: Rich): number {
  let n = 0;
  for (const p of text) {
    if (typeof p === 'string') n += stringLength(p);
    else if (isSpan(p)) n += SPAN_COST + measure(p.content) + (p.style === 'quote' ? quotedLines(p.content) : 0);
    else n += refCost(p);
  }
  return n;
}

/** `text` cut to at most `max` rendered characters, ending with an ellipsis (spans keep their emphasis). */
export function truncateRich(text: Rich, max: number): Rich {
  if (measure(text) <= max) return text;
  let room = max - 1;
  // In a quote every line break also starts a marked line.
  const cut = (t: Rich, quoted = false): Rich => {
    const out: Rich[number][] = [];
    for (const p of t) {
      if (room <= 0) break;
      if (typeof p === 'string') {
        let kept = '';
        for (const ch of p) {
          const cost = 1 + (GROWTH[ch] ?? 0) + (quoted && ch === '\n' ? 1 : 0);
          if (cost > room) {
            room = 0;
            break;
          }
          kept += ch;
          room -= cost;
        }
        // Do not leave a lone high surrogate.
        if (kept && /[\ud800-\udbff]$/.test(kept)) kept = kept.slice(0, -1);
        if (kept) out.push(kept);
      } else if (isSpan(p)) {
        room -= SPAN_COST;
        if (room <= 0) break;
        out.push({ style: p.style, content: cut(p.content, quoted || p.style === 'quote') });
      } else {
        const cost = refCost(p);
        if (cost > room) {
          room = 0;
          break;
        }
        out.push(p);
        room -= cost;
      }
    }
    return out;
  };
  return [...cut(text), '…'];
}

/**
 * Lines joined into paragraphs of at most `max` rendered characters each (one part a paragraph), so a long list is
 * never cut mid-line.
 */
export function chunkLines(lines: readonly Rich[], max: number = CONTENT_LIMITS.text): Rich[] {
  const out: Rich[] = [];
  let cur: Rich[number][] = [];
  let size = 0;
  for (const raw of lines) {
    const piece = truncateRich(raw, max);
    const len = measure(piece);
    if (cur.length && size + 1 + len > max) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    if (cur.length) {
      cur.push('\n');
      size += 1;
    }
    cur.push(...piece);
    size += len;
  }
  if (cur.length) out.push(cur);
  return out;
}
