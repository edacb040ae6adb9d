/**
 * Slack's Block Kit limits, and a limiter that makes any message fit them. Views build within the content
 * limits (chat/content/limits.ts) and truncate lists themselves, so the count of what is left out names the right
 * thing ("…and 12 more invoices"); `fitMessage` is the safety net every message passes through before it is sent.
 */
import { moreLine } from '../../chat/content/format.ts';
import {
  type Block,
  type Button,
  context,
  type Message,
  type Mrkdwn,
  type MultiStaticSelect,
  type PlainText,
} from './kit.ts';

export const LIMITS = {
  blocks: 50,
  /** A Home tab (and a modal) holds twice a message's blocks. */
  homeBlocks: 100,
  sectionText: 3000,
  fields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  /** A select menu's options, its placeholder, an option's text and value. */
  selectOptions: 100,
  placeholder: 150,
  optionText: 75,
  optionValue: 150,
  actionId: 255,
  blockId: 255,
  /** Slack truncates longer `text`; keep the fallback short and readable. */
  fallbackText: 3000,
} as const;

/**
 * Cut `text` to at most `max` characters, ending with an ellipsis. Never cuts inside an entity (`&amp;`) or
 * a `<...>` token, which would render as garbage or a broken mention.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const amp = text.lastIndexOf('&', cut);
  if (amp >= 0 && amp > cut - 8 && text.indexOf(';', amp) >= cut) cut = amp;
  const lt = text.lastIndexOf('<', cut);
  if (lt >= 0 && text.indexOf('>', lt) >= cut) cut = lt;
  // Do not leave a lone high surrogate.
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return `${text.slice(0, cut)}…`;
}

const fitPlain = (t: PlainText, max: number): PlainText => ({ ...t, text: truncate(t.text || ' ', max) });
const fitMrkdwn = (t: Mrkdwn, max: number): Mrkdwn => ({ ...t, text: truncate(t.text || ' ', max) });

function fitButton(b: Button): Button {
  const out: Button = {
    ...b,
    text: fitPlain(b.text, LIMITS.buttonText),
    action_id: b.action_id.slice(0, LIMITS.actionId),
  };
  if (b.value !== undefined && b.value.length > LIMITS.buttonValue) delete out.value;
  return out;
}

/** The options Slack takes (at most 100, values of at most 150 characters), the chosen ones among them. */
function fitSelect(m: MultiStaticSelect): MultiStaticSelect {
  const options = m.options
    .filter((o) => o.value.length <= LIMITS.optionValue)
    .slice(0, LIMITS.selectOptions)
    .map((o) => ({ ...o, text: fitPlain(o.text, LIMITS.optionText) }));
  const initial = (m.initial_options ?? []).flatMap((i) => options.filter((o) => o.value === i.value));
  const { initial_options: _left, ...rest } = m;
  return {
    ...rest,
    action_id: m.action_id.slice(0, LIMITS.actionId),
    placeholder: fitPlain(m.placeholder, LIMITS.placeholder),
    options,
    ...(initial.length ? { initial_options: initial } : {}),
  };
}

function fitBlock(block: Block): Block {
  switch (block.type) {
    case 'header':
      return { ...block, text: fitPlain(block.text, LIMITS.headerText) };
    case 'section': {
      const out = { ...block };
      if (block.text) out.text = fitMrkdwn(block.text, LIMITS.sectionText);
      if (block.fields) {
        let fs = block.fields.map((f) => fitMrkdwn(f, LIMITS.fieldText));
        if (fs.length > LIMITS.fields) {
          const more = fs.length - (LIMITS.fields - 1);
          fs = [...fs.slice(0, LIMITS.fields - 1), { type: 'mrkdwn', text: moreLine(more, 'fields') }];
        }
        out.fields = fs;
      }
      if (block.accessory?.type === 'button') out.accessory = fitButton(block.accessory);
      else if (block.accessory) out.accessory = fitSelect(block.accessory);
      return out;
    }
    case 'context':
      return {
        ...block,
        elements: block.elements.slice(0, LIMITS.contextElements).map((e) => fitMrkdwn(e, LIMITS.contextText)),
      };
    case 'actions':
      return { ...block, elements: block.elements.slice(0, LIMITS.actionsElements).map(fitButton) };
    case 'divider':
      return block;
    // Charts and tables are fitted to their own limits as they are rendered (charts.ts, tables.ts).
    case 'data_visualization':
    case 'table':
      return block;
  }
}

/**
 * The message within every limit: strings cut, fields and elements capped, at most 50 blocks (`maxBlocks`: a Home
 * tab's 100).
 */
export function fitMessage(message: Message, maxBlocks: number = LIMITS.blocks): Message {
  let blocks = message.blocks.map(fitBlock);
  if (blocks.length > maxBlocks) {
    // Keep a trailing actions block (the share button) and say how much was left out.
    const tail = blocks[blocks.length - 1]?.type === 'actions' ? blocks.slice(-1) : [];
    const room = maxBlocks - tail.length - 1;
    const dropped = blocks.length - tail.length - room;
    blocks = [
      ...blocks.slice(0, room),
      context(moreLine(dropped, 'blocks not shown (narrow the command to see them)')),
      ...tail,
    ];
  }
  const text = truncate(message.text.trim() === '' ? 'Linen' : message.text, LIMITS.fallbackText);
  return { text, blocks };
}
