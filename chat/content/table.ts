/**
 * A table as a part of an answer: typed columns and rows of cells as the answer writes them (amounts, percentages
 * and days formatted by `format.ts`), and a button a row where there is one (an invoice's PDF), built by a view,
 * knowing nothing of any platform. Numbers are right-aligned, text and days left. The table part also carries the
 * same rows as lines (document.ts: its text equivalent). Each renderer maps the table to its platform with
 * `fitTable` and, past its limits, shows the first rows and a line saying how many more there are and the command
 * that lists them (`moreRowsLine`).
 */
import type { Action } from './document.ts';
import { count } from './format.ts';
import { command, type Rich, r } from './rich.ts';

export type ColumnType = 'text' | 'number' | 'money' | 'percent' | 'date';
export type Align = 'left' | 'center' | 'right';

export interface Column {
  readonly header: string;
  readonly type: ColumnType;
}

export interface Table {
  /** What the rows are, as a caption ("Open invoices"). */
  readonly title: string;
  /** The rows in the plural ("invoices"), for "…and 12 more invoices". */
  readonly noun: string;
  readonly columns: readonly Column[];
  /** One cell a column in each row, as the answer writes it. */
  readonly rows: readonly (readonly string[])[];
  /** The button of each row, where rows have one (drawn in the row by platforms whose tables hold buttons). */
  readonly actions?: readonly Action[] | undefined;
  /**
   * The command (as typed, without the platform's way in) that lists the rows a platform leaves out, where one
   * narrows the answer (`invoices <customer>`); without one, the line counts them.
   */
  readonly command?: string | undefined;
}

/** What a platform allows a table; `Infinity` where its reference states no limit. */
export interface TableLimits {
  /** Rows, the header row among them. */
  readonly rows: number;
  readonly columns: number;
  /** Characters of every cell together, the header's among them. */
  readonly characters: number;
}

const NUMERIC = new Set<ColumnType>(['number', 'money', 'percent']);

export const alignOf = (column: Column): Align => (NUMERIC.has(column.type) ? 'right' : 'left');

/** An empty cell as the answer writes it (platforms want something in every cell). */
export const EMPTY_CELL = '—';

const cellText = (s: string | undefined) => (s === undefined || s.trim() === '' ? EMPTY_CELL : s);

export interface FittedTable {
  table: Table;
  /** Rows left out. */
  more: number;
}

/**
 * The first rows and columns that fit `limits`, every cell filled. Columns past the limit are left out from the
 * right (the first ones name a row); rows past it, or past the characters, from the bottom (views list worst or
 * newest first).
 */
export function fitTable(table: Table, limits: TableLimits): FittedTable {
  const columns = table.columns.slice(0, Math.max(1, limits.columns));
  const rowsOf = (cells: readonly string[]) => columns.map((_, k) => cellText(cells[k]));
  const header = columns.map((c) => cellText(c.header));
  let chars = header.reduce((t, s) => t + s.length, 0);
  const rows: string[][] = [];
  for (const raw of table.rows) {
    if (rows.length + 1 >= limits.rows) break;
    const row = rowsOf(raw);
    const size = row.reduce((t, s) => t + s.length, 0);
    if (chars + size > limits.characters) break;
    chars += size;
    rows.push(row);
  }
  return {
    table: {
      ...table,
      columns: columns.map((c, k) => ({ ...c, header: header[k]! })),
      rows,
      ...(table.actions ? { actions: table.actions.slice(0, rows.length) } : {}),
    },
    more: table.rows.length - rows.length,
  };
}

/** "…and 12 more invoices not in this table: `invoices <customer>` lists them." */
export const moreRowsLine = (more: number, t: Table): Rich =>
  t.command
    ? r`…and ${count(more)} more ${t.noun} not in this table: ${command(t.command)} lists them.`
    : [`…and ${count(more)} more ${t.noun} not in this table.`];
