/**
 * A neutral answer (chat/content) as Block Kit: rich text as escaped mrkdwn, icons as Slack emoji, commands as
 * `/linen ...` in code, actions as buttons whose action_ids the listeners know. Slack's limits are applied by
 * `fitMessage` after rendering.
 */
import type { Action, Content, Part } from '../../chat/content/document.ts';
import type { Icon, Rich, Span } from '../../chat/content/rich.ts';
import {
  actions,
  type Block,
  type Button,
  button,
  context,
  divider,
  fields,
  header,
  type Message,
  section,
} from './kit.ts';
import { fitMessage } from './limits.ts';
import { code, esc, plain } from './mrkdwn.ts';

/** The slash command every command is typed after. */
export const SLASH_COMMAND = '/linen';

const commandText = (typed: string) => (typed ? `${SLASH_COMMAND} ${typed}` : SLASH_COMMAND);

/** The action_ids and block_ids of the bot's buttons (the listeners in `listeners/actions` route on them). */
export const ACTION = {
  share: 'linen_share',
  pdf: 'linen_pdf',
  rerun: 'linen_rerun',
} as const;

const SLACK_ID = /^[A-Z0-9]+$/;

const EMOJI: Record<Icon, string> = {
  warning: ':warning:',
  ok: ':white_check_mark:',
  info: ':information_source:',
  high: ':red_circle:',
  medium: ':large_orange_circle:',
  low: ':white_circle:',
  new: ':new:',
  eyes: ':eyes:',
  working: ':hammer_and_wrench:',
  party: ':tada:',
  hourglass: ':hourglass:',
  document: ':page_facing_up:',
  no: ':no_entry_sign:',
};

/** Emphasis as Slack writes it, around mrkdwn already escaped. */
function styled(style: Span['style'], inner: string): string {
  if (inner === '') return '';
  if (style === 'bold') return `*${inner}*`;
  if (style === 'italic') return `_${inner}_`;
  if (style === 'code') return code(inner);
  return inner
    .split(/\r?\n/)
    .map((l) => `>${l}`)
    .join('\n');
}

/** Rich text as mrkdwn: every string escaped, emphasis as Slack writes it. */
export function mrkdwn(text: Rich): string {
  return text
    .map((p) => {
      if (typeof p === 'string') return esc(p);
      if ('icon' in p) return EMOJI[p.icon];
      if ('command' in p) return p.as === 'plain' ? esc(commandText(p.command)) : code(esc(commandText(p.command)));
      // Ids come from Slack; anything else is shown as text, never as markup.
      if ('channel' in p) return SLACK_ID.test(p.channel) ? `<#${p.channel}>` : esc(`#${p.name ?? p.channel}`);
      if ('user' in p) return SLACK_ID.test(p.user) ? `<@${p.user}>` : esc(p.name ?? p.user);
      return styled(p.style, mrkdwn(p.content));
    })
    .join('');
}

/** Rich text where Slack takes plain text (headers, button labels): no markup, one line. */
export function plainOf(text: Rich): string {
  return plain(
    text
      .map((p) => {
        if (typeof p === 'string') return p;
        if ('icon' in p) return EMOJI[p.icon];
        if ('command' in p) return commandText(p.command);
        if ('channel' in p) return p.name ? `#${p.name}` : 'a channel';
        if ('user' in p) return p.name ?? 'someone';
        return plainOf(p.content);
      })
      .join(''),
  );
}

/** Buttons are numbered per kind in the message, so every action_id in it is distinct. */
class Buttons {
  readonly #seen = new Map<Action['kind'], number>();
  button(a: Action): Button {
    const n = this.#seen.get(a.kind) ?? 0;
    this.#seen.set(a.kind, n + 1);
    switch (a.kind) {
      case 'share':
        return button('Share in channel', ACTION.share, a.command);
      case 'pdf':
        return button('PDF', `${ACTION.pdf}:${n}`, JSON.stringify(a.invoice));
      case 'rerun':
        return button(plain(a.label), `${ACTION.rerun}:${n}`, a.command);
    }
  }
}

/** The block_id of a row of buttons: the share footer and the customer choices are found by it. */
const blockIdOf = (as: readonly Action[]) => (as.every((a) => a.kind === 'share') ? 'linen_footer' : 'linen_choose');

function blocksOf(part: Part, buttons: Buttons): Block[] {
  switch (part.kind) {
    case 'title':
      return [header(plain(part.text))];
    case 'text':
      return [section(mrkdwn(part.text), part.action && buttons.button(part.action))];
    case 'fields':
      return [
        fields(
          part.fields.map((f) => `*${esc(f.label)}*\n${mrkdwn(f.value)}`),
          part.text && mrkdwn(part.text),
        ),
      ];
    case 'note':
      return [context(...part.texts.map(mrkdwn))];
    case 'divider':
      return [divider()];
    case 'actions':
      return [
        actions(
          part.actions.map((a) => buttons.button(a)),
          blockIdOf(part.actions),
        ),
      ];
  }
}

/** The answer as a Slack message within Block Kit's limits. */
export function toSlackMessage(content: Content): Message {
  return fitMessage(toBlockKit(content));
}

/** The answer as a Slack message (before `fitMessage`). */
export function toBlockKit(content: Content): Message {
  const buttons = new Buttons();
  return { text: mrkdwn(content.summary), blocks: content.parts.flatMap((p) => blocksOf(p, buttons)) };
}
