/// <reference types="google-apps-script" />
/**
 * Fill rate dashboard: items down, departments across, each cell a LINEN_FILLRATE over the parameters block,
 * with an "All departments" column and an "All items" row. Cells are coloured against two thresholds kept in
 * cells (95 % and 98 %, the contract's, editable): red below the first, amber between, green from the second.
 * A column chart shows each item's fill rate over all departments.
 */

import { isBlank } from '../../../shared/cells/args.ts';
import type { Customer } from '../../../shared/index.ts';
import type { Context } from '../context.ts';
import { addRules, BODY_ROW, CUSTOMER, chart, FROM, labels, PERCENT, type Sheet, TO } from './layout.ts';

const RED = '#f4c7c3';
const AMBER = '#fce8b2';
const GREEN = '#b7e1cd';

/** The items with a par at the customer, by name: the rows of the grid. */
export function parItems(ctx: Context, customer: Customer): string[] {
  const par = ctx.run(ctx.rows('inventory.par', { customerId: customer.id }, (a) => a.inventory.par));
  return [...new Set(par.filter((r) => !isBlank(r.item_name)).map((r) => r.item_name))].sort((a, b) =>
    a.localeCompare(b),
  );
}

export const FILL_RATE_NOTE = 'Change the customer, the dates or the thresholds (D2, D3): the cells follow.';

export function buildFillRate(sheet: Sheet, customer: Customer, items: string[]): void {
  labels(sheet, 2, 3, ['Red below']);
  labels(sheet, 3, 3, ['Green from']);
  const thresholds = sheet.getRange('D2:D3');
  thresholds.setValues([[0.95], [0.98]]).setNumberFormat('0%');
  thresholds.setDataValidation(
    SpreadsheetApp.newDataValidation()
      .requireNumberBetween(0, 2)
      .setAllowInvalid(false)
      .setHelpText('A fill rate threshold, e.g. 95%.')
      .build(),
  );

  const depts = customer.departments.map((d) => d.name);
  const head = BODY_ROW;
  const first = head + 1;
  const total = first + items.length;
  const lastCol = depts.length + 2; // A: items, then departments, then "All departments"
  labels(sheet, head, 1, ['Item', ...depts, 'All departments']);
  const cell = (dept: string, item: string) => `=LINEN_FILLRATE(${CUSTOMER}, ${FROM}, ${TO}${dept}${item})`;
  const formulas = [...items, null].map((item, i) => {
    const row = first + i;
    const itemArg = item === null ? '' : `, $A${row}`;
    return depts
      .map((_, j) => cell(`, ${columnLetter(2 + j)}$${head}`, itemArg))
      .concat(item === null ? cell('', '') : cell(', ', itemArg));
  });
  sheet.getRange(first, 1, items.length + 1, 1).setValues([...items.map((i) => [i]), ['All items']]);
  sheet.getRange(total, 1).setFontWeight('bold');
  const grid = sheet.getRange(first, 2, items.length + 1, lastCol - 1);
  grid.setFormulas(formulas);
  grid.setNumberFormat(PERCENT);

  const a1 = grid.getA1Notation();
  const topLeft = `${columnLetter(2)}${first}`;
  const rule = (formula: string, color: string) =>
    SpreadsheetApp.newConditionalFormatRule()
      .whenFormulaSatisfied(formula)
      .setBackground(color)
      .setRanges([sheet.getRange(a1)])
      .build();
  addRules(sheet, [
    rule(`=AND(ISNUMBER(${topLeft}), ${topLeft}<$D$2)`, RED),
    rule(`=AND(ISNUMBER(${topLeft}), ${topLeft}>=$D$2, ${topLeft}<$D$3)`, AMBER),
    rule(`=AND(ISNUMBER(${topLeft}), ${topLeft}>=$D$3)`, GREEN),
  ]);
  sheet.setFrozenRows(head);
  sheet.setFrozenColumns(1);
  const all = columnLetter(lastCol);
  chart(sheet, {
    type: Charts.ChartType.COLUMN,
    ranges: [`A${head}:A${total - 1}`, `${all}${head}:${all}${total - 1}`],
    row: total + 2,
    column: 1,
    options: {
      title: `Fill rate by item, all departments: ${customer.name}`,
      'vAxis.format': 'percent',
      legend: 'none',
    },
  });
}

export function columnLetter(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}
