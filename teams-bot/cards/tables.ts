/**
 * A neutral table (chat/content/table.ts) as the Adaptive Card `Table` element (introduced in card version 1.5:
 * https://learn.microsoft.com/en-us/adaptive-cards/schema-explorer/table): a header row (the first row, read as the
 * header by accessibility software), then a row a table row, each cell one line of text as typed (a RichTextBlock
 * inline, never Markdown: a bold TextRun in the header, a plain string below it); numbers are right-aligned. The reference states no limit on rows or columns: what bounds a table is the
 * card's size, and render.ts cuts its rows to fit, with a line saying how many more there are.
 */
import type { IAdaptiveCard, IExecuteAction, IRichTextBlock, ITable } from '@microsoft/teams.cards';
import { line } from '../../chat/content/rich.ts';
import { type Align, alignOf, fitTable, type Table } from '../../chat/content/table.ts';

const ALIGN: Record<Align, 'Left' | 'Center' | 'Right'> = { left: 'Left', center: 'Center', right: 'Right' };

/** A cell of text as typed: a header's a bold TextRun, a row's a plain string inline (the same text in fewer bytes). */
const cell = (text: string, bold = false) => ({
  type: 'TableCell' as const,
  items: [
    {
      type: 'RichTextBlock',
      inlines: [bold ? { type: 'TextRun', text: line(text), weight: 'Bolder' as const } : line(text)],
    } satisfies IRichTextBlock,
  ] as NonNullable<IAdaptiveCard['body']>,
});

const buttonCell = (action: IExecuteAction | undefined) => ({
  type: 'TableCell' as const,
  items: (action ? [{ type: 'ActionSet', actions: [action] }] : []) as NonNullable<IAdaptiveCard['body']>,
});

/**
 * The table's first `maxRows` rows (the header besides) as a Table element, each row's button (where `buttons` has
 * one) in a last column, and how many rows were left out.
 */
export function tableElement(
  table: Table,
  maxRows: number,
  buttons?: readonly (IExecuteAction | undefined)[],
): { element: ITable; more: number } {
  const { table: t, more } = fitTable(table, { rows: maxRows + 1, columns: Infinity, characters: Infinity });
  const withButtons = buttons?.some(Boolean) === true;
  return {
    element: {
      type: 'Table',
      firstRowAsHeaders: true,
      columns: [
        ...t.columns.map((c) => ({
          width: c.type === 'text' ? 2 : 1,
          horizontalCellContentAlignment: ALIGN[alignOf(c)],
        })),
        ...(withButtons ? [{ width: 'auto' }] : []),
      ],
      rows: [
        {
          type: 'TableRow',
          cells: [...t.columns.map((c) => cell(c.header, true)), ...(withButtons ? [cell(' ', true)] : [])],
        },
        ...t.rows.map((row, k) => ({
          type: 'TableRow' as const,
          cells: [...row.map((s) => cell(s)), ...(withButtons ? [buttonCell(buttons?.[k])] : [])],
        })),
      ],
    },
    more,
  };
}
