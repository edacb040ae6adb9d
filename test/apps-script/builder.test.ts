/** The formula builder's server side: the formula is rebuilt from a checked spec, previewed, and inserted. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formulaText } from '../../apps-script/src/formula-text.ts';
import { type Harness, startHarness } from '../support/apps-script-harness.ts';
import { cellOf } from '../support/apps-script-spreadsheet.ts';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  h.world.sheets = [{ name: 'Sheet1', formulas: [] }];
});
afterAll(async () => {
  await h?.close();
});

describe('formulaText', () => {
  it('quotes values (doubling quotes), leaves blanks empty and drops trailing ones', () => {
    expect(
      formulaText('LINEN_INVOICES', ['customer', 'from', 'to', 'status'], { customer: 'A "B"', status: 'sent' }),
    ).toBe('=LINEN_INVOICES("A ""B""", , , "sent")');
    expect(formulaText('LINEN_AGING', ['customer'], { customer: '  ' })).toBe('=LINEN_AGING()');
  });
});

describe('the sidebar functions', () => {
  it('refuses an unknown function, a parameter the function lacks, and text over one line', () => {
    expect(h.menu('linenPreviewFormula', { name: 'SUM', values: {} }).error).toBe('Choose a function from the list.');
    expect(h.menu('linenPreviewFormula', { name: 'LINEN_AGING', values: { formula: '=1' } }).error).toBe(
      'LINEN_AGING has no argument named formula.',
    );
    expect(h.menu('linenInsertFormula', { name: 'LINEN_AGING', values: { customer: 'a\n=1' } }).error).toBe(
      'The customer argument must be one line of text.',
    );
  });

  it('previews a single value and a table, and says what is wrong in one sentence', () => {
    const one = h.menu('linenPreviewFormula', {
      name: 'LINEN_BALANCE',
      values: { customer: 'Mercy General Hospital' },
    });
    expect(one.value).toEqual({
      formula: '=LINEN_BALANCE("Mercy General Hospital")',
      value: String(h.cell('LINEN_BALANCE', 'Mercy General Hospital').value),
    });
    const table = h.menu('linenPreviewFormula', { name: 'LINEN_CUSTOMERS', values: {} }).value as {
      rows: string[][];
      total: number;
    };
    expect(table.rows[0]).toEqual(['Id', 'Name', 'Group', 'Departments', 'Created']);
    expect(table.total).toBe(h.sb.data.customers.length);
    expect(h.menu('linenPreviewFormula', { name: 'LINEN_BALANCE', values: { customer: 'Nobody' } }).error).toMatch(
      /^No customer named "Nobody" is visible/,
    );
  });

  it('inserts the rebuilt formula into the current cell', () => {
    h.world.active = { sheet: 'Sheet1', a1: 'C4' };
    const r = h.menu('linenInsertFormula', { name: 'LINEN_TICKET', values: { ticket_number: 'TKT-26-00417' } });
    expect(r.value).toEqual({ formula: '=LINEN_TICKET("TKT-26-00417")', cell: 'Sheet1!C4' });
    expect(cellOf(h.world.sheets[0]!, 'C4').formula).toBe('=LINEN_TICKET("TKT-26-00417")');
  });

  it("lists a customer's items for the item field", () => {
    const mercy = h.sb.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const items = h.menu('linenBuilderItems', mercy.id).value as string[];
    expect(items.length).toBeGreaterThan(3);
    expect(items).toEqual([...items].sort((a, b) => a.localeCompare(b)));
    expect(h.menu('linenBuilderItems', '').value).toEqual([]);
  });
});
