/**
 * Charts and tables as Block Kit (slack-bot/blocks/charts.ts, tables.ts, render.ts), without a network: what Slack's
 * references allow is what is sent (two charts a message, the third as its numbers; one table, a second left to its
 * lines; labels of 20 characters, distinct; no empty slice; cells of raw text), the console draws them as text, and
 * the validator refuses every payload Slack would refuse.
 */
import { describe, expect, it } from 'vitest';
import type { Chart } from '../../chat/content/chart.ts';
import { type Content, chart, table, text } from '../../chat/content/document.ts';
import type { Table } from '../../chat/content/table.ts';
import { toBlockKit, toSlackMessage } from '../../slack-bot/blocks/render.ts';
import { renderMessage } from '../../slack-bot/console-render.ts';
import { validateMessage } from '../support/slack-blockkit.ts';

const EVIL = 'Ops <!channel> & <@U999|boss> @here';

const bars = (title: string, names: string[]): Chart => ({
  kind: 'bar',
  title,
  unit: { kind: 'money', currency: 'usd' },
  axis: 'fixed',
  categories: ['Current', '1–30 days'],
  series: names.map((name, k) => ({ name, values: [k + 1, 0] })),
  nouns: { categories: 'aging buckets', series: 'customers' },
  notes: [],
});

const rows = (n: number, cell = 'x'): Table => ({
  title: 'Signals',
  noun: 'signals',
  columns: [
    { header: 'Severity', type: 'text' },
    { header: 'Pieces', type: 'number' },
  ],
  rows: Array.from({ length: n }, (_, k) => [`${cell} ${k}`, String(k)]),
  command: 'signals <kind> <customer>',
});

const content = (...parts: Content['parts']): Content => ({ summary: ['Answer'], parts });

describe('charts in a Slack message', () => {
  it('draws two and writes the third as its numbers, each chart with its numbers under it', () => {
    const m = toSlackMessage(content(chart(bars('A', ['x'])), chart(bars('B', ['y'])), chart(bars('C', ['z']))));
    expect(m.blocks.map((b) => b.type)).toEqual([
      'data_visualization',
      'context',
      'data_visualization',
      'context',
      'context',
    ]);
    expect(JSON.stringify(m.blocks[4])).toContain('not drawn: a Slack message holds 2 charts');
    expect(JSON.stringify(m.blocks[4])).toContain('z: Current $1.00');
    expect(validateMessage(m)).toEqual([]);
  });

  it('cuts names from the data to 20 characters, distinct, as plain text', () => {
    const m = toSlackMessage(content(chart(bars(`${EVIL} ${'t'.repeat(80)}`, [EVIL, EVIL, `${EVIL}!`]))));
    const block = m.blocks[0] as any;
    expect(block.title).toHaveLength(50);
    expect(block.chart.series.map((s: any) => s.name)).toEqual([
      'Ops <!channel> & <@…',
      'Ops <!channel> & … 2',
      'Ops <!channel> & … 3',
    ]);
    // The numbers, in mrkdwn, are escaped like any text of an answer.
    expect((m.blocks[1] as any).elements[0].text).toContain(
      'Ops &lt;!channel&gt; &amp; &lt;@U999|boss&gt; @\u200bhere',
    );
    expect(validateMessage(m)).toEqual([]);
  });

  it('does not draw a pie slice at zero, and draws no pie at all when every slice is', () => {
    const pie = (values: number[]): Chart => ({
      kind: 'donut',
      title: 'Rewash by fault',
      unit: { kind: 'pounds' },
      axis: 'fixed',
      categories: ['Soil fault', 'Processing error'],
      series: [{ name: 'Rewash', values }],
      nouns: { categories: 'faults', series: 'series' },
      notes: [],
    });
    const one = toSlackMessage(content(chart(pie([8, 0]))));
    expect((one.blocks[0] as any).chart).toEqual({ type: 'pie', segments: [{ label: 'Soil fault', value: 8 }] });
    const none = toSlackMessage(content(chart(pie([0, 0]))));
    expect(none.blocks.map((b) => b.type)).toEqual(['context']);
    expect(validateMessage(one)).toEqual([]);
  });
});

describe('tables in a Slack message', () => {
  it('sends one table, right-aligning numbers, then its lines; past its rows, the first 99 and the rest counted', () => {
    const m = toSlackMessage(content(table(rows(150), [text(['the rows as lines'])])));
    const [t, more, lines] = m.blocks as any[];
    expect(t.type).toBe('table');
    expect(t.rows).toHaveLength(100);
    expect(t.rows[0].map((c: any) => c.text)).toEqual(['Severity', 'Pieces']);
    expect(t.column_settings).toEqual([{ align: 'left', is_wrapped: true }, { align: 'right' }]);
    expect(more.elements[0].text).toBe(
      '…and 51 more signals not in this table: `/linen signals &lt;kind&gt; &lt;customer&gt;` lists them.',
    );
    expect(lines.text.text).toBe('the rows as lines');
    expect(validateMessage(m)).toEqual([]);
  });

  it('keeps within 10,000 characters of cells', () => {
    const m = toSlackMessage(content(table(rows(90, 'y'.repeat(300)), [])));
    expect(validateMessage(m)).toEqual([]);
    expect(JSON.stringify(m.blocks[1])).toMatch(/…and \d+ more signals not in this table/);
  });

  it('leaves a second table of a message to its lines, or writes its rows as lines when it has none', () => {
    const withLines = toSlackMessage(content(table(rows(2), []), table(rows(2), [text(['second, as lines'])])));
    expect(withLines.blocks.map((b) => b.type)).toEqual(['table', 'section']);
    const without = toSlackMessage(content(table(rows(2), []), table(rows(2), [])));
    expect(JSON.stringify(without.blocks[1])).toContain('x 0 · 0');
    expect(validateMessage(without)).toEqual([]);
  });
});

describe('in the console', () => {
  it('draws a chart with its numbers under its title and notes, and a table as aligned columns', () => {
    const line: Chart = {
      kind: 'line',
      title: 'Fill rate',
      unit: { kind: 'percent' },
      axis: 'days',
      period: 'day',
      categories: ['2026-11-18', '2026-11-19'],
      series: [{ name: 'Fill rate', values: [88.1, 90] }],
      nouns: { categories: 'days', series: 'rates' },
      notes: [],
    };
    const out = renderMessage(toSlackMessage(content(chart(line), table(rows(2), []))));
    expect(out).toBe(
      [
        'Fill rate by day',
        '  Fill rate ▁█',
        '  2026-11-18  88.1%',
        '  2026-11-19    90%',
        '  Severity  Pieces',
        '  --------  ------',
        '  x 0            0',
        '  x 1            1',
      ].join('\n'),
    );
  });
});

describe('the Block Kit validator', () => {
  const viz = (chartPayload: unknown, title = 'T') => ({ type: 'data_visualization', title, chart: chartPayload });
  const line = (series: unknown[], categories: string[]) => ({ type: 'line', series, axis_config: { categories } });
  const points = (cats: string[]) => cats.map((label) => ({ label, value: 1 }));
  const refused = (blocks: unknown[]) => validateMessage({ text: 'x', blocks });

  it('refuses what Slack refuses of a chart', () => {
    const cats = Array.from({ length: 21 }, (_, k) => `d${k}`);
    expect(
      refused([
        viz(line([{ name: 'a', data: points(['x']) }], ['x'])),
        viz(line([{ name: 'a', data: points(['x']) }], ['x'])),
        viz(line([{ name: 'a', data: points(['x']) }], ['x'])),
      ]),
    ).toEqual(['message: blocks[2]: chart 3 of a message (max 2)']);
    expect(refused([viz(line([{ name: 'a', data: points(cats) }], cats))])).toEqual([
      'message: blocks[0]: 21 categories (1 to 20)',
    ]);
    expect(
      refused([
        viz(
          line(
            Array.from({ length: 7 }, (_, k) => ({ name: `s${k}`, data: points(['x']) })),
            ['x'],
          ),
        ),
      ]),
    ).toEqual(['message: blocks[0]: 7 series (1 to 6)']);
    expect(refused([viz(line([{ name: 'a', data: points(['x']) }], ['x']), 't'.repeat(51))])).toEqual([
      'message: blocks[0].title: 51 characters (max 50)',
    ]);
    expect(refused([viz(line([{ name: 'n'.repeat(21), data: points(['x', 'y']).slice(1) }], ['x', 'y']))])).toEqual([
      'message: blocks[0].series[0].name: 21 characters (max 20)',
      'message: blocks[0].series[0]: not exactly one point a category',
    ]);
    expect(refused([viz({ type: 'pie', segments: [{ label: 'a', value: 0 }] })])).toEqual([
      'message: blocks[0].segments[0]: value 0 (a number above 0)',
    ]);
  });

  it('refuses what Slack refuses of a table', () => {
    const cell = (t: string) => ({ type: 'raw_text', text: t });
    const tbl = (rowsOf: unknown[][]) => ({ type: 'table', rows: rowsOf });
    expect(refused([tbl([[cell('a')]]), tbl([[cell('b')]])])).toEqual([
      'message: blocks[1]: table 2 of a message (max 1)',
    ]);
    expect(refused([tbl(Array.from({ length: 101 }, () => [cell('a')]))])).toEqual([
      'message: blocks[0]: 101 rows (1 to 100)',
    ]);
    expect(refused([tbl([Array.from({ length: 21 }, () => cell('a'))])])).toEqual([
      'message: blocks[0].rows[0]: 21 cells (1 to 20)',
    ]);
    expect(refused([tbl([[cell('')]])])).toEqual(['message: blocks[0].rows[0][0]: empty raw_text']);
    expect(refused([tbl(Array.from({ length: 11 }, () => [cell('z'.repeat(1000))]))])).toEqual([
      'message: 11000 characters across the table cells (max 10,000)',
    ]);
  });

  it('passes what the renderer sends before and after the limiter', () => {
    const m = toBlockKit(content(chart(bars('A', ['x'])), table(rows(3), [])));
    expect(validateMessage(m)).toEqual([]);
    expect(validateMessage(toSlackMessage(content(chart(bars('A', ['x'])))))).toEqual([]);
  });
});
