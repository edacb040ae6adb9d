/**
 * The neutral table (chat/content/table.ts) and the text drawing of charts and tables (chat/content/text-charts.ts):
 * a table fitted to a platform's rows, columns and characters from the top (views list worst or newest first), every
 * cell filled, each row's button kept with its row, the line that counts the rows left out; and a terminal's
 * aligned columns, numbers on the right, a sparkline of a line and a bar beside each number of a bar chart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../chat/content/document.ts';
import { plainText } from '../../chat/content/rich.ts';
import { EMPTY_CELL, fitTable, moreRowsLine, type Table } from '../../chat/content/table.ts';
import { chartAsText, sparkline, tableAsText } from '../../chat/content/text-charts.ts';
import { runs } from '../support/hostile.ts';

const pdf = (n: number): Action => ({ kind: 'pdf', invoice: { i: `inv${n}`, c: 'c', d: '2026-11-01', n: `INV-${n}` } });

const invoices = (n: number): Table => ({
  title: 'Open invoices',
  noun: 'invoices',
  columns: [
    { header: 'Invoice', type: 'text' },
    { header: 'Due', type: 'date' },
    { header: 'Open', type: 'money' },
  ],
  rows: Array.from({ length: n }, (_, k) => [`INV-${k}`, k % 3 ? '2026-11-01' : '', `$${k}.00`]),
  actions: Array.from({ length: n }, (_, k) => pdf(k)),
  command: 'invoices <customer>',
});

describe('a table fitted to a platform', () => {
  it("keeps the first rows, the header among the rows counted, each row's button with it", () => {
    const { table, more } = fitTable(invoices(150), { rows: 100, columns: 20, characters: Infinity });
    expect(table.rows).toHaveLength(99);
    expect(table.rows[98]![0]).toBe('INV-98');
    expect(table.actions).toEqual(invoices(150).actions!.slice(0, 99));
    expect(more).toBe(51);
  });

  it('keeps the rows whose cells fit the characters, the header counted, and fills empty cells', () => {
    const { table, more } = fitTable(invoices(40), { rows: 100, columns: 20, characters: 100 });
    const chars = (cells: readonly string[]) => cells.reduce((s, c) => s + c.length, 0);
    const used = chars(table.columns.map((c) => c.header)) + table.rows.reduce((s, r) => s + chars(r), 0);
    expect(used).toBeLessThanOrEqual(100);
    expect(table.rows[0]).toEqual(['INV-0', EMPTY_CELL, '$0.00']);
    expect(more).toBe(40 - table.rows.length);
  });

  it('keeps the first columns (the ones that name a row)', () => {
    const { table } = fitTable(invoices(3), { rows: 100, columns: 2, characters: Infinity });
    expect(table.columns.map((c) => c.header)).toEqual(['Invoice', 'Due']);
    expect(table.rows.every((r) => r.length === 2)).toBe(true);
  });

  it('never goes past any limit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 20, max: 5000 }),
        (n, rows, columns, characters) => {
          const { table, more } = fitTable(invoices(n), { rows, columns, characters });
          expect(table.rows.length + 1).toBeLessThanOrEqual(Math.max(1, rows));
          expect(table.rows.length + more).toBe(n);
          for (const r of table.rows) {
            expect(r).toHaveLength(table.columns.length);
            for (const c of r) expect(c.length).toBeGreaterThan(0);
          }
        },
      ),
      runs(300),
    );
  });

  it('says how many rows are left out, and the command that lists them', () => {
    expect(plainText(moreRowsLine(12, invoices(1)), '/linen ')).toBe(
      '…and 12 more invoices not in this table: /linen invoices <customer> lists them.',
    );
    expect(plainText(moreRowsLine(1, { ...invoices(1), command: undefined }))).toBe(
      '…and 1 more invoices not in this table.',
    );
  });
});

describe('in a terminal', () => {
  it('a table is aligned columns under a rule, numbers on the right, long cells cut', () => {
    const lines = tableAsText(
      ['Invoice', 'Summary', 'Open'],
      ['left', 'left', 'right'],
      [
        ['INV-1', 'x'.repeat(80), '$5.00'],
        ['INV-22', 'short\nline', '$1,234.00'],
      ],
    );
    expect(lines).toEqual([
      `  Invoice  ${'Summary'.padEnd(60)}       Open`,
      `  -------  ${'-'.repeat(60)}  ---------`,
      `  INV-1    ${'x'.repeat(59)}…      $5.00`,
      `  INV-22   ${'short line'.padEnd(60)}  $1,234.00`,
    ]);
  });

  it('a line chart is a sparkline a series, then its numbers by category with their unit', () => {
    expect(
      chartAsText({
        title: 'Fill rate and par met by day',
        kind: 'line',
        unit: '%',
        categories: ['2026-11-18', '2026-11-19'],
        series: [
          { name: 'Fill rate', values: [88.1, 90] },
          { name: 'Par met', values: [87, 89.5] },
        ],
      }),
    ).toEqual([
      'Fill rate and par met by day',
      '  Fill rate ▁█   Par met ▁█',
      '              Fill rate  Par met',
      '  2026-11-18      88.1%      87%',
      '  2026-11-19        90%    89.5%',
    ]);
  });

  it('a bar chart of one series has a bar beside each number, the largest the widest', () => {
    const lines = chartAsText({
      title: 'Pieces missing by unit',
      kind: 'bar',
      unit: 'pieces',
      categories: ['ICU', '3 West'],
      series: [{ name: 'Missing', values: [48, 12] }],
    });
    expect(lines[1]).toBe(`  ICU     48 pieces  ${'█'.repeat(24)}`);
    expect(lines[2]).toBe(`  3 West  12 pieces  ${'█'.repeat(6)}`);
  });

  it('a sparkline spans the lowest to the highest value', () => {
    expect(sparkline([0.5, 1, null, 0.75])).toBe('▁█·▅');
    expect(sparkline([88, 88.2])).toBe('▅▅');
  });
});
