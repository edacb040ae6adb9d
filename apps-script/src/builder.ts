/// <reference types="google-apps-script" />
/**
 * The formula builder sidebar's server side. The sidebar (FormulaBuilder.html, with the function catalog and
 * formulaText built in) asks for the customers and a customer's items, previews a formula's result and inserts
 * it into the current cell. These run as the person at the sidebar, with their key; the cell will run with the
 * owner's (the sidebar says so). The formula is rebuilt here from a checked spec, never taken from the page.
 */
import { isDate } from '../../shared/cells/args.ts';
import { IMPLS } from '../../shared/cells/functions.ts';
import type { Cell } from '../../shared/cells/values.ts';
import { Context } from './context.ts';
import { formulaText } from './formula-text.ts';
import { isLinenFunction, namedArgs, signature } from './invoke.ts';
import { sheetsMessage } from './messages.ts';

const PREVIEW_ROWS = 8;

export function linenShowBuilder(): void {
  SpreadsheetApp.getUi().showSidebar(
    HtmlService.createHtmlOutputFromFile('FormulaBuilder').setTitle('Linen formula builder'),
  );
}

/** Run `work` with a context for the person at the sidebar; any failure becomes one sentence. */
function withContext<T>(work: (ctx: Context) => T): T {
  let ctx: Context | undefined;
  try {
    ctx = new Context();
    return work(ctx);
  } catch (e) {
    throw new Error(sheetsMessage(e, ctx?.secrets ?? []));
  }
}

export interface BuilderCustomer {
  id: string;
  name: string;
  departments: string[];
}

/** The customers (with their departments) for the sidebar's lists. */
export function linenBuilderCustomers(): BuilderCustomer[] {
  return withContext((ctx) =>
    ctx
      .run(ctx.customers())
      .map((c) => ({ id: c.id, name: c.name, departments: c.departments.map((d) => d.name) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  );
}

/** A customer's items, by name. */
export function linenBuilderItems(customerId: unknown): string[] {
  if (typeof customerId !== 'string' || customerId === '') return [];
  return withContext((ctx) =>
    [...new Set(ctx.run(ctx.rows('items.list', { customerId }, (a) => a.items.list)).map((i) => i.name))].sort((a, b) =>
      a.localeCompare(b),
    ),
  );
}

interface Spec {
  name: string;
  params: string[];
  values: Record<string, string>;
}

/** The function and its values from the page, checked: a known LINEN_ function, its own parameters, short text. */
function specFrom(input: unknown): Spec {
  const o = (input && typeof input === 'object' ? input : {}) as { name?: unknown; values?: unknown };
  const name = typeof o.name === 'string' ? o.name : '';
  if (!isLinenFunction(name)) throw new Error('Choose a function from the list.');
  const params = signature(name);
  const given = (o.values && typeof o.values === 'object' ? o.values : {}) as Record<string, unknown>;
  const values: Record<string, string> = {};
  for (const [k, v] of Object.entries(given)) {
    if (!params.includes(k)) throw new Error(`${name} has no argument named ${k}.`);
    if (typeof v !== 'string' || v.length > 200 || /[\r\n]/.test(v))
      throw new Error(`The ${k} argument must be one line of text.`);
    values[k] = v;
  }
  return { name, params, values };
}

/** A cell as the preview shows it: days as YYYY-MM-DD, numbers to 4 decimals at most. */
const show = (v: Cell): string => {
  if (isDate(v)) return v.toISOString().slice(0, 10);
  if (typeof v === 'number') return String(Math.round(v * 10_000) / 10_000);
  return String(v);
};

export interface Preview {
  formula: string;
  /** A single value, or the first rows of a table (header first) with the table's row count. */
  value?: string;
  rows?: string[][];
  total?: number;
}

/** What the formula shows, computed with the sidebar person's key. */
export function linenPreviewFormula(input: unknown): Preview {
  const spec = specFrom(input);
  const formula = formulaText(spec.name, spec.params, spec.values);
  const args = spec.params.map((p) => (spec.values[p]?.trim() ? spec.values[p]!.trim() : undefined));
  const result = withContext((ctx) => ctx.run(IMPLS[spec.name]!(ctx, namedArgs(spec.name, args))));
  if (!Array.isArray(result)) return { formula, value: result === '' ? '(empty)' : show(result) };
  return {
    formula,
    rows: result.slice(0, PREVIEW_ROWS + 1).map((r) => r.map(show)),
    total: Math.max(0, result.length - 1),
  };
}

/** Write the formula into the current cell. */
export function linenInsertFormula(input: unknown): { formula: string; cell: string } {
  const spec = specFrom(input);
  const cell = SpreadsheetApp.getCurrentCell();
  if (!cell) throw new Error('Select a cell first, then insert.');
  const formula = formulaText(spec.name, spec.params, spec.values);
  cell.setFormula(formula);
  return { formula, cell: `${cell.getSheet().getName()}!${cell.getA1Notation()}` };
}
