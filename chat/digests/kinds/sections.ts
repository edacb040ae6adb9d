/** The layout every digest kind shares: titled sections of lines packed into paragraphs within the content limits. */
import { note, type Part, text } from '../../content/document.ts';
import { CONTENT_LIMITS, measure, truncateRich } from '../../content/limits.ts';
import type { Rich } from '../../content/rich.ts';

const SECTION_BUDGET = 2900;

const section = (t: Rich): Part => text(truncateRich(t, CONTENT_LIMITS.text));

/** A note within the text limit. */
export const context = (t: Rich): Part => note(truncateRich(t, CONTENT_LIMITS.text));

/** Titled sections of lines, each packed by `pack` (empty ones left out, "…and N more." where lines were cut). */
export function packSections(sections: readonly (readonly [Rich, readonly Rich[]])[], maxParts = 12): Part[] {
  const parts: Part[] = [];
  for (const [heading, lines] of sections) {
    if (!lines.length) continue;
    const { parts: packed, left } = pack(heading, lines, maxParts);
    parts.push(...packed);
    if (left) parts.push(context([`…and ${left} more.`]));
  }
  return parts;
}

/** Pack lines into paragraphs under the text limit, at most `maxParts`; returns the parts and the lines left out. */
export function pack(heading: Rich, lines: readonly Rich[], maxParts: number): { parts: Part[]; left: number } {
  const parts: Part[] = [];
  let cur: Rich = heading;
  let size = measure(heading);
  let used = 0;
  const headingSize = size;
  for (const l of lines) {
    const piece = truncateRich(l, SECTION_BUDGET - headingSize - 2);
    const pieceSize = measure(piece);
    if (size + pieceSize + 1 > SECTION_BUDGET) {
      if (parts.length + 1 >= maxParts) break;
      parts.push(section(cur));
      cur = [];
      size = 0;
    }
    cur = cur.length ? [...cur, '\n', ...piece] : piece;
    size += (size ? 1 : 0) + pieceSize;
    used++;
  }
  if (cur.length && parts.length < maxParts) parts.push(section(cur));
  return { parts, left: lines.length - used };
}
