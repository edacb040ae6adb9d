/**
 * A neutral answer (chat/content) as Block Kit: rich text as escaped mrkdwn, icons as Slack emoji, commands as
 * `/linen ...` in code, actions as buttons whose action_ids the listeners know, a chart as a data visualization
 * block with its numbers in a context block under it, a table as a table block. Slack's limits are applied by
 * `fitMessage` after rendering.
 *
 * Charts and tables degrade within Slack's limits (charts.ts, tables.ts) in this order, never sending what Slack
 * would refuse, and every step is said in the message:
 * 1. a chart's days past 20 points are charted by week, then by month ("By week: …" beside its numbers);
 * 2. its ranked categories past 20 are the first 20 ("N more units not charted");
 * 3. its series past 6 are the first 5 and "Others" summed (or, where values do not add up, the first 6);
 * 4. a pie's slices at or below zero are not drawn, past 6 the last ones are "Others";
 * 5. a third chart of a message is not drawn: its numbers are written as for any chart;
 * 6. a table's rows past 99 (and the header) or past 10,000 characters are cut, with "…and N more … not in this
 *    table: `/linen …` lists them."; a second table of a message is left to its lines (every table's rows are also
 *    written as lines under it, which hold the rows' buttons: a table cell holds none);
 * 7. the message past 50 blocks keeps its first blocks and says how many were left out (`fitMessage`).
 */
import { chartNumbers, fitChart, isDrawable, NO_CHART_LIMITS } from '../../chat/content/chart.ts';
import type { Action, Choice, Content, Part } from '../../chat/content/document.ts';
import { chunkLines } from '../../chat/content/limits.ts';
import { type Icon, type Rich, rich, type Span } from '../../chat/content/rich.ts';
import { moreRowsLine, type Table } from '../../chat/content/table.ts';
import { dataVisualization, MAX_CHARTS, SLACK_CHART_LIMITS } from './charts.ts';
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
  multiSelect,
  section,
} from './kit.ts';
import { fitMessage, LIMITS, truncate } from './limits.ts';
import { code, esc, plain } from './mrkdwn.ts';
import { MAX_TABLES, tableBlock } from './tables.ts';

/** The slash command every command is typed after. */
export const SLASH_COMMAND = '/linen';

const commandText = (typed: string) => (typed ? `${SLASH_COMMAND} ${typed}` : SLASH_COMMAND);

/** The action_ids and block_ids of the bot's buttons (the listeners in `listeners/actions` route on them). */
export const ACTION = {
  share: 'linen_share',
  pdf: 'linen_pdf',
  rerun: 'linen_rerun',
  /** An answer asked again in its place (the home's buttons): `linen_refresh:<n>`, the command in its value. */
  refresh: 'linen_refresh',
  /** A choice's menu: `linen_menu:<command>`, the values chosen appended to the command. */
  menu: 'linen_menu',
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

/** The block_id prefix of a chart's numbers (the console writes them with the chart instead). */
export const CHART_NUMBERS_BLOCK = 'linen_chart_numbers';

/**
 * What one message has drawn so far: buttons are numbered per kind, so every action_id in it is distinct; charts
 * and tables are counted against the message's limits.
 */
class MessageState {
  charts = 0;
  tables = 0;
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
      case 'refresh':
        return button(plain(a.label), `${ACTION.refresh}:${n}`, a.command);
    }
  }
}

/** A choice as a menu beside its label (a label alone where there is nothing to choose from). */
function choiceBlock(c: Choice): Block {
  if (c.options.length === 0) return section(mrkdwn(c.label));
  const options = c.options.map((o) => ({ text: plain(o.label), value: o.value }));
  return section(mrkdwn(c.label), multiSelect(`${ACTION.menu}:${c.command}`, c.placeholder, options, c.chosen));
}

/** The block_id of a row of buttons: the share footer and the customer choices are found by it (others have none). */
const blockIdOf = (as: readonly Action[]) =>
  as.every((a) => a.kind === 'share')
    ? 'linen_footer'
    : as.some((a) => a.kind === 'rerun')
      ? 'linen_choose'
      : undefined;

/** A chart within Slack's limits and its numbers (a third chart of a message: its numbers alone). */
function chartBlocks(part: Extract<Part, { kind: 'chart' }>, state: MessageState): Block[] {
  const n = state.charts++;
  const drawn = n < MAX_CHARTS;
  const c = fitChart(part.chart, drawn ? SLACK_CHART_LIMITS : NO_CHART_LIMITS);
  const numbers = drawn ? c : { ...c, notes: [...c.notes, `not drawn: a Slack message holds ${MAX_CHARTS} charts`] };
  const blocks: Block[] = drawn && isDrawable(c) ? [dataVisualization(c)] : [];
  blocks.push({
    ...context(truncate(mrkdwn(chartNumbers(numbers)), LIMITS.contextText)),
    block_id: `${CHART_NUMBERS_BLOCK}:${n}`,
  });
  return blocks;
}

/** The table as lines `cell · cell · …` under its title, for a message that already holds its one table. */
const tableLines = (t: Table): Rich[] => [
  [{ style: 'bold', content: [t.title] }],
  ...t.rows.map((row) => rich(row.join(' · '))),
];

/** The table (within Slack's limits) and then its lines, which hold the rows' buttons. */
function tableBlocks(part: Extract<Part, { kind: 'table' }>, state: MessageState): Block[] {
  const lines = part.lines.flatMap((p) => blocksOf(p, state));
  if (state.tables++ >= MAX_TABLES) {
    // Its rows are written as lines already; a table without them is written out here.
    return lines.length ? lines : chunkLines(tableLines(part.table)).map((t) => section(mrkdwn(t)));
  }
  const { block, more } = tableBlock(part.table);
  return [block, ...(more ? [context(mrkdwn(moreRowsLine(more, part.table)))] : []), ...lines];
}

function blocksOf(part: Part, state: MessageState): Block[] {
  switch (part.kind) {
    case 'title':
      return [header(plain(part.text))];
    case 'text':
      return [section(mrkdwn(part.text), part.action && state.button(part.action))];
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
          part.actions.map((a) => state.button(a)),
          blockIdOf(part.actions),
        ),
      ];
    case 'chart':
      return chartBlocks(part, state);
    case 'table':
      return tableBlocks(part, state);
    case 'choice':
      return [choiceBlock(part.choice)];
  }
}

/** The answer as a Slack message within Block Kit's limits. */
export function toSlackMessage(content: Content): Message {
  return fitMessage(toBlockKit(content));
}

/** The answer as a Slack message (before `fitMessage`). */
export function toBlockKit(content: Content): Message {
  const state = new MessageState();
  return { text: mrkdwn(content.summary), blocks: content.parts.flatMap((p) => blocksOf(p, state)) };
}
