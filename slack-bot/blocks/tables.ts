/**
 * A neutral table (chat/content/table.ts) as Block Kit's table block, within the limits Slack's reference states
 * (https://docs.slack.dev/reference/block-kit/blocks/table-block): at most 100 rows (the header is the first), at
 * most 20 cells a row and 20 column settings, and at most 10,000 characters across the cells of a table and of a
 * message. Cells are `raw_text` (shown as typed, never parsed; at least one character); numbers are right-aligned
 * and text wraps. One table a message: the reference counts characters across a message's tables, and Slack refuses
 * a message of two (`invalid_attachments`, as those who sent one report; the page itself does not say), so a second
 * table of an answer is left to its lines.
 */
import { alignOf, fitTable, type Table, type TableLimits } from '../../chat/content/table.ts';
import type { RawTextCell, TableBlock } from './kit.ts';
import { plain } from './mrkdwn.ts';

export const SLACK_TABLE_LIMITS: TableLimits = { rows: 100, columns: 20, characters: 10_000 };
/** Table blocks in one message. */
export const MAX_TABLES = 1;

const cell = (text: string): RawTextCell => ({ type: 'raw_text', text: plain(text) || '—' });

/** The table within Slack's limits as a table block, and how many rows were left out. */
export function tableBlock(table: Table): { block: TableBlock; more: number } {
  // Folded to one line before counting: what is counted is what is sent.
  const flat = { ...table, rows: table.rows.map((row) => row.map((s) => plain(s))) };
  const { table: t, more } = fitTable(flat, SLACK_TABLE_LIMITS);
  return {
    block: {
      type: 'table',
      column_settings: t.columns.map((c) =>
        c.type === 'text' ? { align: alignOf(c), is_wrapped: true } : { align: alignOf(c) },
      ),
      rows: [t.columns.map((c) => cell(c.header)), ...t.rows.map((row) => row.map(cell))],
    },
    more,
  };
}
