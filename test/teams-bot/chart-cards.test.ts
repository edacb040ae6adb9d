/**
 * Charts and tables as Adaptive Card elements (teams-bot/cards/charts.ts, tables.ts, render.ts), without a network:
 * each chart kind as its Teams element, a colour a series and at most nine of them, the numbers under every chart,
 * a table's buttons in a column of its own, a card over its size leaving out the tables' lines and then cutting
 * rows; the console's Teams view draws them as text; and the validator refuses what Teams would not draw.
 */
import { describe, expect, it } from 'vitest';
import type { Chart } from '../../chat/content/chart.ts';
import { type Content, chart, table, text } from '../../chat/content/document.ts';
import type { Table } from '../../chat/content/table.ts';
import { cardToText } from '../../teams-bot/cards/card-text.ts';
import { toAdaptiveCard } from '../../teams-bot/cards/render.ts';
import { validateCard } from '../support/adaptive-card.ts';

const content = (...parts: Content['parts']): Content => ({ summary: ['Answer'], parts });
const base = {
  unit: { kind: 'count', noun: 'pieces' },
  nouns: { categories: 'units', series: 'customers' },
  notes: [],
} as const;
const of = (c: Partial<Chart>): Chart => ({
  kind: 'bar',
  title: 'T',
  axis: 'fixed',
  categories: ['a', 'b'],
  series: [{ name: 's', values: [1, 2] }],
  ...base,
  ...c,
});

describe('charts on a Teams card', () => {
  it('each kind as its element, with its numbers under it and nothing drawn by clients that cannot', () => {
    const kinds: [Partial<Chart>, string][] = [
      [{ kind: 'line', axis: 'days', period: 'day', categories: ['2026-11-18', '2026-11-19'] }, 'Chart.Line'],
      [{ axis: 'ranked' }, 'Chart.HorizontalBar'],
      [{}, 'Chart.VerticalBar'],
      [
        {
          series: [
            { name: 's', values: [1, 2] },
            { name: 't', values: [3, 4] },
          ],
        },
        'Chart.VerticalBar.Grouped',
      ],
      [{ kind: 'pie' }, 'Chart.Pie'],
      [{ kind: 'donut' }, 'Chart.Donut'],
    ];
    for (const [c, type] of kinds) {
      const card = toAdaptiveCard(content(chart(of(c))));
      expect(card.body!.map((e: any) => e.type)).toEqual([type, 'Container']);
      expect((card.body![0] as any).fallback).toBe('drop');
      expect((card.body![1] as any).id).toBe('linen_chart_numbers_0');
      expect(validateCard(card)).toEqual([]);
    }
  });

  it('a colour a series, at most nine: past them the first eight and "Others"', () => {
    const series = Array.from({ length: 12 }, (_, k) => ({ name: `Customer ${k}`, values: [k, 1] }));
    const card = toAdaptiveCard(content(chart(of({ series }))));
    const grouped = card.body![0] as any;
    expect(grouped.data.map((s: any) => s.legend)).toEqual([...series.slice(0, 8).map((s) => s.name), 'Others']);
    expect(grouped.data[8].values).toEqual([
      { x: 'a', y: 8 + 9 + 10 + 11 },
      { x: 'b', y: 4 },
    ]);
    expect(new Set(grouped.data.map((s: any) => s.color)).size).toBe(9);
    expect(validateCard(card)).toEqual([]);
  });
});

const tickets = (n: number): Table => ({
  title: 'Open tickets',
  noun: 'tickets',
  columns: [
    { header: 'Ticket', type: 'text' },
    { header: 'Days', type: 'number' },
  ],
  rows: Array.from({ length: n }, (_, k) => [`TKT-${k}`, String(k)]),
  actions: Array.from({ length: n }, (_, k) => ({
    kind: 'pdf' as const,
    invoice: { i: `i${k}`, c: 'c', d: '2026-11-01', n: `INV-${k}` },
  })),
  command: 'tickets <customer>',
});

describe('tables on a Teams card', () => {
  it('the rows, numbers right-aligned, each row’s button in a last column, then the lines', () => {
    const card = toAdaptiveCard(content(table(tickets(2), [text(['TKT-0 written out'])])));
    const [t, line] = card.body as any[];
    expect(t.type).toBe('Table');
    expect(t.columns.map((c: any) => c.horizontalCellContentAlignment)).toEqual(['Left', 'Right', undefined]);
    expect(t.rows[1].cells[2].items[0].actions[0]).toMatchObject({
      verb: 'linen_pdf',
      data: { invoice: { n: 'INV-0' } },
    });
    expect(line.inlines[0].text).toBe('TKT-0 written out');
    expect(validateCard(card)).toEqual([]);
  });

  it('over the card’s size: the lines left out first, then the rows cut to the most that fit, and counted', () => {
    const lines = Array.from({ length: 40 }, (_, k) => text([`TKT-${k} ${'written out '.repeat(10)}`]));
    const c = content(table(tickets(40), lines));
    const whole = JSON.stringify(toAdaptiveCard(c, 1e9)).length;
    const noLines = JSON.stringify(toAdaptiveCard(content(table(tickets(40), [])), 1e9)).length;
    expect(noLines).toBeLessThan(whole);

    const linesOut = toAdaptiveCard(c, noLines + 200);
    expect((linesOut.body as any[]).map((e) => e.type)).toEqual(['Table']);
    expect((linesOut.body![0] as any).rows).toHaveLength(41);

    const cut = toAdaptiveCard(c, Math.floor(noLines / 2));
    const rows = (cut.body![0] as any).rows.length - 1;
    expect(rows).toBeLessThan(40);
    expect(rows).toBeGreaterThan(5);
    expect(Buffer.byteLength(JSON.stringify(cut))).toBeLessThanOrEqual(Math.floor(noLines / 2));
    expect(cardToText(cut)).toContain(
      `…and ${40 - rows} more tickets not in this table: tickets <customer> lists them.`,
    );
    // One row more would not have fitted.
    expect(
      Buffer.byteLength(JSON.stringify(toAdaptiveCard(content(table({ ...tickets(rows + 1) }, [])), 1e9))),
    ).toBeGreaterThan(Math.floor(noLines / 2) - 300);
  });
});

describe("the console's Teams view", () => {
  it('draws a chart under its numbers’ first line and a table as aligned columns, the numbers not repeated', () => {
    const card = toAdaptiveCard(
      content(
        chart(
          of({
            axis: 'ranked',
            title: 'Pieces missing by unit',
            categories: ['ICU', '3 West'],
            series: [{ name: 'Missing', values: [48, 12] }],
          }),
        ),
        table(tickets(1), []),
      ),
    );
    expect(cardToText(card)).toBe(
      [
        'Pieces missing by unit',
        `  ICU     48 pieces  ${'█'.repeat(24)}`,
        `  3 West  12 pieces  ${'█'.repeat(6)}`,
        '  Ticket  Days',
        '  ------  ----  -----',
        '  TKT-0      0  [PDF]',
      ].join('\n'),
    );
  });
});

describe('the Adaptive Card validator', () => {
  const card = (body: unknown[], version = '1.5') => ({ type: 'AdaptiveCard', version, body });
  const run = (t: string) => ({ type: 'RichTextBlock', inlines: [{ type: 'TextRun', text: t }] });

  it('refuses what Teams would not draw, or would read as Markdown', () => {
    expect(validateCard(card([run('x')], '1.4'))).toEqual(['card: version 1.4 (1.5)']);
    expect(validateCard(card([{ type: 'TextBlock', text: '**x**' }]))).toEqual([
      'card: body[0]: a TextBlock (reads its text as Markdown)',
    ]);
    expect(validateCard(card([run('x'.repeat(30_000))]))[0]).toMatch(/bytes \(max \d+\)/);
    const line = (data: unknown[], extra = {}) => ({
      type: 'Chart.Line',
      title: 'T',
      fallback: 'drop',
      data,
      ...extra,
    });
    const s = (legend: string, color = 'categoricalBlue') => ({ legend, color, values: [{ x: 'a', y: 1 }] });
    expect(validateCard(card([line([s('a', 'pink')])]))).toEqual(['card: body[0].data[0]: colour pink']);
    expect(validateCard(card([line([s('a'), s('a', 'categoricalRed')])]))).toEqual(['card: body[0]: legends repeat']);
    expect(validateCard(card([line([s('a'), s('b')])]))).toEqual(['card: body[0]: series share a colour']);
    expect(validateCard(card([line([{ legend: 'a', values: [{ x: 'a', y: Number.NaN }] }])]))).toEqual([
      'card: body[0].data[0]: point {"x":"a","y":null}',
    ]);
    expect(validateCard(card([{ ...line([s('a')]), fallback: undefined }]))).toEqual([
      'card: body[0]: fallback undefined (drop: its numbers follow it)',
    ]);
    expect(
      validateCard(card([{ type: 'Chart.Pie', title: 'T', fallback: 'drop', data: [{ legend: 'a', value: 0 }] }])),
    ).toEqual(['card: body[0]: slice value 0 (above 0)']);
    const cell = { type: 'TableCell', items: [run('x')] };
    expect(
      validateCard(card([{ type: 'Table', columns: [{}, {}], rows: [{ type: 'TableRow', cells: [cell] }] }])),
    ).toEqual(['card: body[0].rows[0]: 1 cells, 2 columns']);
  });
});
