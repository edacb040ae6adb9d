/**
 * Insert report: each template builds a sheet whose formulas, formats, conditional colours and chart are
 * checked through the stand-ins, and whose LINEN_ formulas the refresh reads like any others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/index.ts';
import { type Harness, startHarness } from '../support/apps-script-harness.ts';
import { cellOf, type FakeSheet } from '../support/apps-script-spreadsheet.ts';

let h: Harness;
let d: SandboxData;
let mercyId: string;

const sheetNamed = (name: string) => h.world.sheets.find((s) => s.name === name) as FakeSheet;
const insert = (report: Record<string, unknown>) => h.menu('linenInsertReport', report);

beforeAll(async () => {
  h = await startHarness();
  d = h.sb.data;
  mercyId = d.customers.find((c) => c.name === 'Mercy General Hospital')!.id;
  h.world.sheets = [{ name: 'Sheet1', formulas: [] }];
});
afterAll(async () => {
  await h?.close();
});

describe('the dialog', () => {
  it('offers the customers the key sees and default dates', () => {
    const o = h.menu('linenReportOptions', 'fillrate').value as Record<string, unknown>;
    expect(o).toMatchObject({ kind: 'fillrate', title: 'Fill rate dashboard', customerRequired: true, dated: true });
    expect((o.customers as { name: string }[]).map((c) => c.name)).toEqual(
      d.customers.map((c) => c.name).sort((a, b) => a.localeCompare(b)),
    );
    expect(o.from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(h.menu('linenReportOptions', 'nope').error).toBe('Choose one of the reports in the Insert report menu.');
  });

  it('refuses an unknown customer, a missing customer, a bad date and reversed dates in one sentence each', () => {
    expect(insert({ kind: 'fillrate', customer: 'c-nobody', from: '2026-10-01', to: '2026-10-31' }).error).toBe(
      'That customer is not visible to your key; choose one from the list.',
    );
    expect(insert({ kind: 'fillrate', customer: '', from: '2026-10-01', to: '2026-10-31' }).error).toBe(
      'Choose a customer.',
    );
    expect(insert({ kind: 'tickets', customer: mercyId, from: '10/01/2026', to: '2026-10-31' }).error).toBe(
      'Enter the from date as YYYY-MM-DD.',
    );
    expect(insert({ kind: 'tickets', customer: mercyId, from: '2026-11-01', to: '2026-10-31' }).error).toBe(
      'The from date (2026-11-01) is after the to date (2026-10-31).',
    );
    expect(insert({ kind: 'history', customer: mercyId, from: '2026-10-01', to: '2026-10-31' }).error).toBe(
      'There is no history yet: record it first with Record history... in the Linen Connect menu.',
    );
    expect(h.world.sheets.map((s) => s.name)).toEqual(['Sheet1']);
  });

  it('the menu lists the five reports under Insert report', () => {
    h.world.ui.length = 0;
    h.menu('onOpen', { authMode: 'LIMITED' });
    const menu = h.world.ui.find((u) => u.kind === 'menu')!.detail as { items: unknown[] };
    expect(menu.items.find((i) => (i as { submenu?: string }).submenu === 'Insert report')).toEqual({
      submenu: 'Insert report',
      items: [
        ['Fill rate dashboard...', 'linenReportFillRate'],
        ['A/R aging...', 'linenReportAging'],
        ['Open shortfalls...', 'linenReportShortfalls'],
        ['Ticket tracker...', 'linenReportTickets'],
        ['History...', 'linenReportHistory'],
      ],
    });
    for (const fn of ['linenReportFillRate', 'linenReportHistory']) expect(h.menu(fn).error).toBeUndefined();
    const dialogs = h.world.ui
      .filter((u) => u.kind === 'dialog')
      .map((u) => u.detail as { title: string; content: string });
    expect(dialogs.map((x) => x.title)).toEqual(['Insert report: Fill rate dashboard', 'Insert report: History']);
    expect(dialogs[0]!.content).toContain('window.LINEN_REPORT = "fillrate"');
  });
});

describe('Fill rate dashboard', () => {
  let sheet: FakeSheet;
  let items: string[];
  let depts: string[];

  beforeAll(() => {
    const r = insert({ kind: 'fillrate', customer: mercyId, from: '2026-10-01', to: '2026-10-31' });
    expect(r.error).toBeUndefined();
    sheet = sheetNamed((r.value as { sheet: string }).sheet);
    const mercy = d.customers.find((c) => c.id === mercyId)!;
    depts = d.departments.filter((x) => x.customer_id === mercyId).map((x) => x.name);
    items = [...new Set(d.pars.filter((p) => p.customer_id === mercyId).map((p) => p.item_name))].sort((a, b) =>
      a.localeCompare(b),
    );
    expect(mercy.name).toBe('Mercy General Hospital');
  });

  it('lays out items by departments, each a LINEN_FILLRATE over the parameters in B2:B4', () => {
    expect(sheet.name).toBe('Fill rate dashboard: Mercy General Hospital');
    expect(cellOf(sheet, 'B2').value).toBe('Mercy General Hospital');
    expect(cellOf(sheet, 'B3').style.numberFormat).toBe('yyyy-mm-dd');
    expect(sheet.values![6]).toEqual(['Item', ...depts, 'All departments']);
    expect(sheet.values!.slice(7, 7 + items.length).map((r) => r[0])).toEqual(items);
    expect(cellOf(sheet, 'B8').formula).toBe('=LINEN_FILLRATE($B$2, $B$3, $B$4, B$7, $A8)');
    const all = String.fromCharCode(65 + depts.length + 1);
    expect(cellOf(sheet, `${all}8`).formula).toBe('=LINEN_FILLRATE($B$2, $B$3, $B$4, , $A8)');
    const total = 8 + items.length;
    expect(cellOf(sheet, `A${total}`).value).toBe('All items');
    expect(cellOf(sheet, `B${total}`).formula).toBe('=LINEN_FILLRATE($B$2, $B$3, $B$4, B$7)');
    expect(cellOf(sheet, `${all}${total}`).formula).toBe('=LINEN_FILLRATE($B$2, $B$3, $B$4)');
    expect(cellOf(sheet, `C${total}`).style.numberFormat).toBe('0.0%');
    expect(sheet.frozenRows).toBe(7);
    expect(sheet.frozenColumns).toBe(1);
  });

  it('colours the grid against the editable thresholds of 95 % and 98 % in D2:D3', () => {
    expect([cellOf(sheet, 'D2').value, cellOf(sheet, 'D3').value]).toEqual([0.95, 0.98]);
    expect(sheet.validations?.['2,4']).toMatchObject({
      criteria: 'NUMBER_BETWEEN',
      values: [0, 2],
      allowInvalid: false,
    });
    const range = `B8:${String.fromCharCode(65 + depts.length + 1)}${8 + items.length}`;
    expect(sheet.conditionalRules).toEqual([
      expect.objectContaining({
        criteria: 'CUSTOM_FORMULA',
        values: ['=AND(ISNUMBER(B8), B8<$D$2)'],
        background: '#f4c7c3',
        ranges: [range],
      }),
      expect.objectContaining({
        values: ['=AND(ISNUMBER(B8), B8>=$D$2, B8<$D$3)'],
        background: '#fce8b2',
        ranges: [range],
      }),
      expect.objectContaining({ values: ['=AND(ISNUMBER(B8), B8>=$D$3)'], background: '#b7e1cd', ranges: [range] }),
    ]);
  });

  it('charts each item over all departments in a native column chart', () => {
    const all = String.fromCharCode(65 + depts.length + 1);
    expect(sheet.charts).toHaveLength(1);
    expect(sheet.charts![0]).toMatchObject({
      type: 'COLUMN',
      ranges: [`A7:A${7 + items.length}`, `${all}7:${all}${7 + items.length}`],
      numHeaders: 1,
      options: {
        title: 'Fill rate by item, all departments: Mercy General Hospital',
        'vAxis.format': 'percent',
        legend: 'none',
      },
      position: { row: 10 + items.length, column: 1 },
    });
  });

  it('its formulas are refreshed like any others: all foreseen, then read from the warm cache', () => {
    h.world.sheets = h.world.sheets.filter((s) => s === sheet);
    // The date cells hold what Sheets would: midnight of the day in the spreadsheet's timezone.
    h.takeFetches();
    expect(h.menu('linenRefreshData').error).toBeUndefined();
    expect(h.takeFetches().length).toBeGreaterThan(0);
    const from = cellOf(sheet, 'B3').value;
    const to = cellOf(sheet, 'B4').value;
    const value = h.cell('LINEN_FILLRATE', 'Mercy General Hospital', from, to, depts[0], items[0]);
    expect(h.takeFetches()).toHaveLength(0);
    expect(value.error).toBeUndefined();
  });

  it('a second dashboard for the same customer gets a free name', () => {
    const r = insert({ kind: 'fillrate', customer: mercyId, from: '2026-10-01', to: '2026-10-31' });
    expect((r.value as { sheet: string }).sheet).toBe('Fill rate dashboard: Mercy General Hospital (2)');
  });
});

describe('the other reports', () => {
  it('A/R aging: aging per customer with a stacked chart, then open invoices with days overdue', () => {
    const r = insert({ kind: 'aging', customer: '', from: '', to: '' });
    const sheet = sheetNamed((r.value as { sheet: string }).sheet);
    expect(sheet.name).toBe('A/R aging');
    expect(cellOf(sheet, 'B2').value).toBe('');
    expect(cellOf(sheet, 'A7').formula).toBe('=LINEN_AGING($B$2)');
    const end = 7 + d.customers.length + 2;
    expect(sheet.charts![0]).toMatchObject({
      type: 'COLUMN',
      ranges: [`A7:A${end}`, `C7:F${end}`],
      options: { isStacked: true },
    });
    const table = end + 4;
    const query = cellOf(sheet, `A${table}`).formula;
    expect(query).toMatch(
      /^=QUERY\(LINEN_INVOICES\(\$B\$2, \$B\$3, \$B\$4\), "select \* where Col\d+ > 0 order by Col\d+", 1\)$/,
    );
    // The query's column numbers name the columns LINEN_INVOICES really has.
    const header = (h.cell('LINEN_INVOICES').value as string[][])[0]!;
    const [, where, order] = /where Col(\d+) > 0 order by Col(\d+)/.exec(query)!;
    expect(header[Number(where) - 1]).toBe('Balance');
    expect(header[Number(order) - 1]).toBe('Due');
    const column = (name: string) => String.fromCharCode(65 + header.indexOf(name));
    expect(cellOf(sheet, `${column('Due')}${table + 1}`).style.numberFormat).toBe('yyyy-mm-dd');
    expect(cellOf(sheet, `${column('Days overdue')}${table + 1}`).style.numberFormat).toBe('0');
    expect(cellOf(sheet, `${column('Balance')}${table + 1}`).style.numberFormat).toBe('#,##0.00');
  });

  it('Open shortfalls: the open shortfall signals, high severity shaded, suggested orders charted', () => {
    const r = insert({ kind: 'shortfalls', customer: mercyId });
    const sheet = sheetNamed((r.value as { sheet: string }).sheet);
    expect(cellOf(sheet, 'A7').formula).toBe('=LINEN_SIGNALS("shortfall", , $B$2)');
    expect(cellOf(sheet, 'A3').value).toBe(''); // no dates for signals
    expect(sheet.conditionalRules).toEqual([
      expect.objectContaining({ criteria: 'CUSTOM_FORMULA', values: ['=$A8="High"'], ranges: ['A8:K207'] }),
    ]);
    expect(sheet.charts![0]).toMatchObject({ type: 'BAR', ranges: ['F7:F37', 'H7:H37'] });
  });

  it('Ticket tracker: counts per status over the list, and a pie chart of them', () => {
    const r = insert({ kind: 'tickets', customer: mercyId, from: '2026-08-01', to: '2026-11-05' });
    const sheet = sheetNamed((r.value as { sheet: string }).sheet);
    expect(sheet.values!.slice(7, 11).map((x) => x[0])).toEqual([
      'Submitted',
      'Acknowledged',
      'In progress',
      'Resolved',
    ]);
    expect(cellOf(sheet, 'B8').formula).toBe('=COUNTIF($B$15:$B, A8)');
    expect(cellOf(sheet, 'A14').formula).toBe('=LINEN_TICKETS($B$2, $B$3, $B$4)');
    expect(sheet.charts![0]).toMatchObject({
      type: 'PIE',
      ranges: ['A7:B11'],
      options: { title: 'Tickets by status' },
    });
  });

  it("History: the customer's rows of Linen history, charted over time", () => {
    expect(h.menu('linenRecordHistoryNow').error).toBeUndefined();
    const r = insert({ kind: 'history', customer: mercyId, from: '2026-08-01', to: '2026-12-31' });
    const sheet = sheetNamed((r.value as { sheet: string }).sheet);
    expect(cellOf(sheet, 'A8').formula).toBe(
      "=IFERROR(FILTER('Linen history'!A2:J, 'Linen history'!B2:B=$B$2, 'Linen history'!A2:A>=$B$3, 'Linen history'!A2:A<=$B$4), \"\")",
    );
    expect(sheet.charts!.map((c) => [c.type, c.ranges])).toEqual([
      ['LINE', ['A7:A407', 'D7:E407']],
      ['LINE', ['A7:A407', 'G7:H407']],
    ]);
  });
});
