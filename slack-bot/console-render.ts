/**
 * Block Kit as plain terminal text: headers underlined, sections and fields as lines, context dimmed into
 * brackets, buttons listed, a chart drawn with its numbers (a sparkline per series of a line, a bar beside each
 * number of one series; the context block of its numbers is then not repeated), a table as aligned columns. mrkdwn
 * is reduced to what a terminal shows (entities decoded, `*bold*` kept readable, a few emoji named).
 */
import { chartAsText, tableAsText } from '../chat/content/text-charts.ts';
import type { Block, DataVisualizationBlock, Message, TableBlock } from './blocks/kit.ts';
import { CHART_NUMBERS_BLOCK } from './blocks/render.ts';

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

/** The chart drawn with its numbers; `title` is the first line of its numbers (the title and what fitting said). */
function chartText(block: DataVisualizationBlock, title = block.title): string {
  const c = block.chart;
  const lines =
    c.type === 'pie'
      ? chartAsText({
          title,
          kind: 'pie',
          categories: c.segments.map((s) => s.label),
          series: [{ name: '', values: c.segments.map((s) => s.value) }],
        })
      : chartAsText({
          title,
          unit: c.axis_config.y_label,
          kind: c.type === 'line' ? 'line' : 'bar',
          categories: c.axis_config.categories,
          series: c.series.map((s) => ({ name: s.name, values: s.data.map((p) => p.value) })),
        });
  return lines.join('\n');
}

function tableText(block: TableBlock): string {
  const [header = [], ...rows] = block.rows.map((row) => row.map((cell) => cell.text));
  return tableAsText(
    header,
    header.map((_, k) => block.column_settings?.[k]?.align ?? 'left'),
    rows,
  ).join('\n');
}

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
      if (block.accessory?.type === 'button') parts.push(`  [button: ${block.accessory.text.text}]`);
      else if (block.accessory) {
        const chosen = (block.accessory.initial_options ?? []).map((o) => o.text.text);
        parts.push(`  [menu: ${chosen.length ? chosen.join(', ') : block.accessory.placeholder.text}]`);
      }
      return parts.join('\n');
    }
    case 'context':
      return indent(block.elements.map((e) => mrkdwnToText(e.text)).join('  '), '  ');
    case 'divider':
      return '-'.repeat(40);
    case 'actions':
      return `  Buttons: ${block.elements.map((b) => `[${b.text.text}]`).join(' ')}`;
    case 'data_visualization':
      return chartText(block);
    case 'table':
      return tableText(block);
  }
}

/** A chart's numbers (a context block after the chart): the chart is drawn with them, under their first line. */
const numbersOf = (block: Block | undefined) =>
  block?.type === 'context' && block.block_id?.startsWith(`${CHART_NUMBERS_BLOCK}:`)
    ? mrkdwnToText(block.elements[0]?.text ?? '')
    : null;

export function renderMessage(message: Message): string {
  if (message.blocks.length === 0) return mrkdwnToText(message.text);
  const out: string[] = [];
  message.blocks.forEach((block, k) => {
    const numbers = block.type === 'data_visualization' ? numbersOf(message.blocks[k + 1]) : null;
    if (block.type === 'data_visualization') out.push(chartText(block, numbers?.split('\n')[0]));
    else if (!(numbersOf(block) !== null && message.blocks[k - 1]?.type === 'data_visualization'))
      out.push(renderBlock(block));
  });
  return out.join('\n');
}
