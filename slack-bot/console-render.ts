/**
 * Block Kit as plain terminal text: headers underlined, sections and fields as lines, context dimmed into
 * brackets, buttons listed. mrkdwn is reduced to what a terminal shows (entities decoded, `*bold*` kept
 * readable, a few emoji named).
 */
import type { Block, Message } from './blocks/kit.ts';

const EMOJI: Record<string, string> = {
  ':red_circle:': '(!!)',
  ':large_orange_circle:': '(!)',
  ':white_circle:': '(.)',
  ':warning:': '/!\\',
  ':white_check_mark:': '[ok]',
  ':tada:': '[ok]',
  ':new:': '[new]',
  ':eyes:': '[seen]',
  ':hammer_and_wrench:': '[wip]',
  ':page_facing_up:': '[pdf]',
};

/** mrkdwn to terminal text. */
export function mrkdwnToText(s: string): string {
  return s
    .replace(/:[a-z0-9_+-]+:/g, (m) => EMOJI[m] ?? m)
    .replace(/<@([A-Z0-9]+)>/g, '@$1')
    .replace(/<#([A-Z0-9]+)(?:\|([^>]*))?>/g, (_m, id: string, name?: string) => `#${name || id}`)
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2 ($1)')
    .replace(/\u200b/g, '')
    .replace(/`([^`\n]*)`/g, '$1')
    .replace(/\*([^*\n]+)\*/g, '$1')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,;:])/gm, '$1$2')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

const indent = (text: string, pad: string) =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');

export function renderBlock(block: Block): string {
  switch (block.type) {
    case 'header': {
      const t = block.text.text;
      return `${t}\n${'='.repeat(Math.min(72, [...t].length))}`;
    }
    case 'section': {
      const parts: string[] = [];
      if (block.text) parts.push(mrkdwnToText(block.text.text));
      if (block.fields) {
        for (const f of block.fields) {
          const [label, ...rest] = mrkdwnToText(f.text).split('\n');
          parts.push(rest.length ? `  ${label}: ${rest.join(' ')}` : `  ${label}`);
        }
      }
      if (block.accessory) parts.push(`  [button: ${block.accessory.text.text}]`);
      return parts.join('\n');
    }
    case 'context':
      return indent(block.elements.map((e) => mrkdwnToText(e.text)).join('  '), '  ');
    case 'divider':
      return '-'.repeat(40);
    case 'actions':
      return `  Buttons: ${block.elements.map((b) => `[${b.text.text}]`).join(' ')}`;
  }
}

export function renderMessage(message: Message): string {
  if (message.blocks.length === 0) return mrkdwnToText(message.text);
  return message.blocks.map(renderBlock).join('\n');
}
