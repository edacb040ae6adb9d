/** Pieces several views share: the error answer, the "choose a customer" answer, the share footer. */

import type { Customer } from '../../shared/schemas/customers.ts';
import { actions, type Block, button, context, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { LIMITS, moreLine, take, truncate } from '../../slack-bot/blocks/limits.ts';
import { escLine, plain } from '../../slack-bot/blocks/mrkdwn.ts';

export const ACTION = {
  share: 'linen_share',
  pdf: 'linen_pdf',
  rerun: 'linen_rerun',
} as const;

/** One friendly sentence (already plain text; escaped here). */
export function errorMessage(sentence: string): Message {
  return { text: escLine(sentence), blocks: [section(`:warning: ${escLine(sentence)}`)] };
}

/** Buttons that replay a command with each candidate customer. */
export function chooseCustomerMessage(
  input: string,
  matches: readonly Customer[],
  commandFor: (c: Customer) => string,
  intro?: string,
): Message {
  const { shown, more } = take(matches, LIMITS.actionsElements);
  const what = intro ?? `“${input}” matches ${matches.length} customers; which one?`;
  const blocks: Block[] = [
    section(escLine(what)),
    actions(
      shown.map((c, i) => button(plain(c.name), `${ACTION.rerun}:${i}`, commandFor(c))),
      'linen_choose',
    ),
  ];
  if (more) blocks.push(context(moreLine(more, 'customers: type more of the name')));
  return { text: truncate(escLine(`${what} ${matches.map((c) => c.name).join(', ')}`), LIMITS.fallbackText), blocks };
}

export function shareFooter(commandText: string): Block {
  return actions([button('Share in channel', ACTION.share, commandText)], 'linen_footer');
}

/** A message with a note (plain text, escaped here) under its title, and at the start of its text fallback. */
export function withNote(message: Message, note: string): Message {
  const [first, ...rest] = message.blocks;
  const line = context(escLine(note));
  const blocks = first?.type === 'header' ? [first, line, ...rest] : [line, ...message.blocks];
  return { text: `${escLine(note)} ${message.text}`, blocks };
}
