/** Pieces several views share: the error answer, the "choose a customer" answer, the share footer. */

import type { Customer } from '../../shared/schemas/customers.ts';
import { actions, type Content, note, type Part, text } from '../content/document.ts';
import { moreLine, take } from '../content/format.ts';
import { CONTENT_LIMITS, measure, truncateRich } from '../content/limits.ts';
import { icon, line, type Rich } from '../content/rich.ts';

/** Customers offered to choose from before the rest are summed up. */
export const MAX_CHOICES = 25;

/** One friendly sentence. */
export function errorView(sentence: string | Rich): Content {
  const said: Rich = typeof sentence === 'string' ? [line(sentence)] : sentence;
  return { summary: said, parts: [text([icon('warning'), ' ', ...said])] };
}

/** Choices that ask the command again with each candidate customer. */
export function chooseCustomerView(
  input: string,
  matches: readonly Customer[],
  commandFor: (c: Customer) => string,
  intro?: string,
): Content {
  const { shown, more } = take(matches, MAX_CHOICES);
  const what = intro ?? `“${input}” matches ${matches.length} customers; which one?`;
  const parts: Part[] = [
    text([line(what)]),
    actions(shown.map((c) => ({ kind: 'rerun', label: c.name, command: commandFor(c) }))),
  ];
  if (more) parts.push(note([moreLine(more, 'customers: type more of the name')]));
  return {
    summary: truncateRich([line(`${what} ${matches.map((c) => c.name).join(', ')}`)], CONTENT_LIMITS.summary),
    parts,
  };
}

export function shareFooter(commandText: string): Part {
  return actions([{ kind: 'share', command: commandText }]);
}

/** An answer with a note under its title, and at the start of its summary. */
export function withNote(content: Content, sentence: string): Content {
  const [first, ...rest] = content.parts;
  const line1 = note([line(sentence)]);
  const parts = first?.kind === 'title' ? [first, line1, ...rest] : [line1, ...content.parts];
  return { summary: [`${line(sentence)} `, ...content.summary], parts };
}

/**
 * A heading and a list of lines (digest subscriptions, alerts) as paragraphs within the content limits: one
 * paragraph per chunk of lines, up to the part limit, then a note counting the lines left out (`…and 3 more alerts.`).
 */
export function listedLines(heading: Rich, lines: readonly Rich[], noun: string): Part[] {
  const max = CONTENT_LIMITS.text - 100;
  const parts: Part[] = [];
  let cur: Rich = heading;
  let listed = 0;
  for (const l of lines) {
    if (measure(cur) + 1 + measure(l) > max) {
      if (parts.length >= CONTENT_LIMITS.parts - 2) break;
      parts.push(text(cur));
      cur = [];
    }
    cur = cur.length ? [...cur, '\n', ...l] : truncateRich(l, max);
    listed++;
  }
  if (cur.length) parts.push(text(cur));
  if (listed < lines.length) parts.push(note([`…and ${lines.length - listed} more ${noun}.`]));
  return parts;
}
