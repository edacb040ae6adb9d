/**
 * A neutral answer (chat/content) as an Adaptive Card (schema 1.5, as Teams renders it), built with Microsoft's
 * `@microsoft/teams.cards`. Text is set as TextRuns in RichTextBlocks, which Teams never reads as Markdown: text from
 * the API shows as typed, whatever characters it holds, and cannot become a link or a mention. The card is plain JSON
 * typed by the library's interfaces (its classes write every default out, four times the bytes). Icons are emoji,
 * commands are written as typed in Teams (no slash), fields are label-and-value columns, and actions are
 * `Action.Execute` buttons the bot answers (`card.action`), a chart as a Teams chart element with its numbers under
 * it (charts.ts), a table as a `Table` element (tables.ts).
 *
 * Within Teams' limits, in this order, each step said on the card:
 * 1. a chart's series (or a pie's slices) past the nine colours that tell them apart: the first eight and "Others"
 *    summed (or, where values do not add up, the first nine); its days are charted by week, then by month, where
 *    the numbers of each day would not fit a paragraph beside the chart (`fitChart`);
 * 2. a card over Teams' size limit first leaves out its tables' lines (the same rows written out: the table shows
 *    them, the rows' buttons in a column of their own);
 * 3. then cuts its tables' rows to the most that fit, with "…and N more … not in this table: `…` lists them.";
 * 4. then keeps its first parts and says how many were left out.
 */
import type { IAdaptiveCard, IExecuteAction, IRichTextBlock, ITextRun } from '@microsoft/teams.cards';
import { chartNumbers, fitChart, isDrawable } from '../../chat/content/chart.ts';
import type { Action, Choice, Content, Part } from '../../chat/content/document.ts';
import type { Icon, Inline, Rich } from '../../chat/content/rich.ts';
import { moreRowsLine } from '../../chat/content/table.ts';
import { chartElement, TEAMS_CHART_LIMITS } from './charts.ts';
import { tableElement } from './tables.ts';

/** Card JSON above this is refused by Teams (28 KB for a bot message); a margin keeps the activity's own fields. */
export const CARD_BYTES = 26 * 1024;

/**
 * The verbs of the card's buttons, which `card.action` routes on: `refresh` asks its command again and answers the
 * action with the new card (Universal Actions), as the card's own `refresh` does.
 */
export const VERB = { rerun: 'linen_rerun', pdf: 'linen_pdf', refresh: 'linen_refresh' } as const;

const EMOJI: Record<Icon, string> = {
  warning: '⚠️',
  ok: '✅',
  info: 'ℹ️',
  high: '🔴',
  medium: '🟠',
  low: '⚪',
  new: '🆕',
  eyes: '👀',
  working: '🛠️',
  party: '🎉',
  hourglass: '⏳',
  document: '📄',
  no: '🚫',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const HAS_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

interface Style {
  bold?: boolean;
  italic?: boolean;
  mono?: boolean;
  subtle?: boolean;
}

/** A command as typed in Teams: the words alone (`balance Mercy`), or the bot's name for the empty one. */
export const commandText = (typed: string) => (typed ? typed : 'Linen');

type Element = NonNullable<IAdaptiveCard['body']>[number];

const run = (text: string, extra: Partial<ITextRun> = {}): ITextRun => ({ type: 'TextRun', text, ...extra });

const sameStyle = (a: ITextRun, b: ITextRun) =>
  a.weight === b.weight && a.italic === b.italic && a.fontType === b.fontType && a.isSubtle === b.isSubtle;

/** Rich text as runs of one style each, line by line (a line break starts a new line of runs). */
function runsOf(text: Rich, style: Style = {}, lines: ITextRun[][] = [[]]): ITextRun[][] {
  const push = (t: string, s: Style) => {
    // Most strings hold neither a control character nor a line break: they are one piece as they are.
    const clean = HAS_CONTROL.test(t) ? t.replace(CONTROL, '') : t;
    const parts = clean.includes('\n') ? clean.split(/\r?\n/) : [clean];
    const extra: Partial<ITextRun> = {
      ...(s.bold ? { weight: 'Bolder' as const } : {}),
      ...(s.italic ? { italic: true } : {}),
      ...(s.mono ? { fontType: 'Monospace' as const } : {}),
      ...(s.subtle ? { isSubtle: true } : {}),
    };
    parts.forEach((piece, idx) => {
      if (idx > 0) lines.push([]);
      if (piece === '') return;
      const next = run(piece, extra);
      // A run of the same style as the one before it joins it: the same text in fewer bytes of the card.
      const current = lines[lines.length - 1]!;
      const last = current[current.length - 1];
      if (last && sameStyle(last, next)) current[current.length - 1] = { ...last, text: last.text + next.text };
      else current.push(next);
    });
  };
  for (const p of text as readonly Inline[]) {
    if (typeof p === 'string') push(p, style);
    else if ('icon' in p) push(EMOJI[p.icon], style);
    else if ('command' in p)
      push(p.as === 'plain' ? `“${commandText(p.command)}”` : commandText(p.command), {
        ...style,
        mono: p.as !== 'plain',
      });
    else if ('channel' in p) push(p.name ? `#${p.name}` : 'this channel', style);
    else if ('user' in p) push(p.name ?? 'someone', style);
    else
      runsOf(
        p.content,
        {
          ...style,
          ...(p.style === 'bold' ? { bold: true } : {}),
          ...(p.style === 'italic' || p.style === 'quote' ? { italic: true } : {}),
          ...(p.style === 'code' ? { mono: true } : {}),
        },
        lines,
      );
  }
  return lines;
}

/** One RichTextBlock a line, close together; an empty line keeps its space. */
function paragraph(text: Rich, style: Style = {}): IRichTextBlock[] {
  return runsOf(text, style).map(
    (line, idx): IRichTextBlock => ({
      type: 'RichTextBlock',
      inlines: line.length ? line : [run(' ')],
      ...(idx ? { spacing: 'None' as const } : {}),
    }),
  );
}

const asksAgain = (title: string, verb: string, data: Record<string, unknown>): IExecuteAction => ({
  type: 'Action.Execute',
  title: title.replace(CONTROL, '').slice(0, 80),
  verb,
  data: { linen: verb, ...data },
});

function button(a: Exclude<Action, { kind: 'share' }>): IExecuteAction {
  if (a.kind === 'pdf')
    return { type: 'Action.Execute', title: 'PDF', verb: VERB.pdf, data: { linen: VERB.pdf, invoice: a.invoice } };
  return asksAgain(a.label, a.kind === 'refresh' ? VERB.refresh : VERB.rerun, { command: a.command });
}

/** The id prefix of a choice's input: the card's action names the input its values are read from. */
export const CHOICE_ID = 'linen_choice';

/**
 * A choice as its label, a multi-select list and the button that applies it: an input sends nothing by itself, and
 * the button names the input its command takes the values of. The list is `compact` (a drop-down with a box an
 * option): the `filtered` style, which types to filter, does not take several choices in every client.
 */
function choiceElements(c: Choice, state: CardState): Element[] {
  if (c.options.length === 0) return paragraph(c.label);
  const id = `${CHOICE_ID}_${state.choices++}`;
  return [
    ...paragraph(c.label),
    {
      type: 'Input.ChoiceSet',
      id,
      isMultiSelect: true,
      style: 'compact',
      placeholder: c.placeholder,
      choices: c.options.map((o) => ({ title: o.label.replace(CONTROL, ''), value: o.value })),
      value: c.chosen.join(','),
    },
    { type: 'ActionSet', actions: [asksAgain(c.apply, VERB.refresh, { command: c.command, input: id })] },
  ];
}

/** Actions that mean something in Teams: "Share in channel" is the message extension's there, not a button. */
const usable = (actions: readonly Action[]) =>
  actions.filter((a): a is Exclude<Action, { kind: 'share' }> => a.kind !== 'share');

/** The id prefix of the container of a chart's numbers (the console writes them with the chart instead). */
export const CHART_NUMBERS_ID = 'linen_chart_numbers';

/**
 * What one card has drawn so far, and what its tables may show: their lines (left out when the card is over its
 * size), and how many rows (cut after that).
 */
interface CardState {
  charts: number;
  choices: number;
  readonly tableLines: boolean;
  readonly tableRows: number;
}

/** A chart within Teams' limits, and its numbers as small print in a container of their own. */
function chartElements(part: Extract<Part, { kind: 'chart' }>, state: CardState): Element[] {
  const n = state.charts++;
  const c = fitChart(part.chart, TEAMS_CHART_LIMITS);
  const numbers: Element = {
    type: 'Container',
    id: `${CHART_NUMBERS_ID}_${n}`,
    items: paragraph(chartNumbers(c), { subtle: true }),
  };
  return isDrawable(c) ? [chartElement(c), numbers] : [numbers];
}

/** A line without its button, where the table row above holds the same button. */
const withoutButton = (p: Part): Part => (p.kind === 'text' && p.action ? { kind: 'text', text: p.text } : p);

/**
 * The table (its rows' buttons in a column of their own), then its lines where the card has room for them (without
 * the buttons the table already holds).
 */
function tableElements(part: Extract<Part, { kind: 'table' }>, state: CardState): Element[] {
  const buttons = part.table.actions?.map((a) => (a.kind === 'share' ? undefined : button(a)));
  const { element, more } = tableElement(part.table, state.tableRows, buttons);
  return [
    element,
    ...(more ? paragraph(moreRowsLine(more, part.table), { subtle: true }) : []),
    ...(state.tableLines ? part.lines.flatMap((p) => elementsOf(buttons ? withoutButton(p) : p, state)) : []),
  ];
}

function elementsOf(part: Part, state: CardState): Element[] {
  switch (part.kind) {
    case 'title':
      return [
        {
          type: 'RichTextBlock',
          inlines: [
            run(part.text.replace(CONTROL, '').replace(/\s*\n\s*/g, ' '), { weight: 'Bolder', size: 'Medium' }),
          ],
        },
      ];
    case 'text': {
      const body = paragraph(part.text);
      const action = part.action && part.action.kind !== 'share' ? button(part.action) : undefined;
      if (!action) return body;
      return [
        {
          type: 'ColumnSet',
          separator: true,
          columns: [
            { type: 'Column', width: 'stretch', items: body },
            {
              type: 'Column',
              width: 'auto',
              verticalContentAlignment: 'Center',
              items: [{ type: 'ActionSet', actions: [action] }],
            },
          ],
        },
      ];
    }
    case 'fields': {
      const rows: Element[] = part.text ? paragraph(part.text) : [];
      // Two labelled values a row, as Slack lays out its fields.
      for (let i = 0; i < part.fields.length; i += 2) {
        rows.push({
          type: 'ColumnSet',
          columns: part.fields.slice(i, i + 2).map((f) => ({
            type: 'Column' as const,
            width: 'stretch',
            items: [...paragraph([f.label], { bold: true }), ...paragraph(f.value)],
          })),
        });
      }
      return rows;
    }
    case 'note':
      return part.texts.flatMap((t) => paragraph(t, { subtle: true }));
    case 'divider':
      return [{ type: 'Container', separator: true, spacing: 'Medium', items: [] }];
    case 'actions': {
      const actions = usable(part.actions);
      return actions.length ? [{ type: 'ActionSet', actions: actions.map(button) }] : [];
    }
    case 'chart':
      return chartElements(part, state);
    case 'table':
      return tableElements(part, state);
    case 'choice':
      return choiceElements(part.choice, state);
  }
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** The bytes of each element's JSON, measured once however often the card is measured again as it is cut. */
const elementBytes = new WeakMap<Element, number>();

function bytesOfElement(e: Element): number {
  let n = elementBytes.get(e);
  if (n === undefined) {
    n = jsonBytes(e);
    elementBytes.set(e, n);
  }
  return n;
}

/**
 * The bytes of the card's JSON, `JSON.stringify(card)`'s exactly: its body `[a,b,…]` is its elements, the commas
 * between them and the brackets (the card without a body holds the brackets). Cutting a card over the size measures
 * it once a part left out: each element is serialized once, not once a measure.
 */
function bytesOf(card: IAdaptiveCard): number {
  const body = card.body;
  if (!body) return jsonBytes(card);
  const elements = body.reduce((n, e) => n + bytesOfElement(e), 0);
  return jsonBytes({ ...card, body: [] }) + elements + Math.max(0, body.length - 1);
}

/** The answer as an Adaptive Card within Teams' size limit. */
export function toAdaptiveCard(content: Content, maxBytes = CARD_BYTES): IAdaptiveCard {
  const render = (tableLines: boolean, tableRows: number) => {
    const state: CardState = { charts: 0, choices: 0, tableLines, tableRows };
    return content.parts.map((p) => elementsOf(p, state));
  };
  const fallbackText = plainSummary(content);
  const build = (groups: Element[][], kept: number) => {
    const body = groups.slice(0, kept).flat();
    const left = groups.length - kept;
    if (left)
      body.push(
        ...paragraph([`…and ${left} more part${left === 1 ? '' : 's'} not shown (narrow the command to see them).`], {
          subtle: true,
        }),
      );
    const card: IAdaptiveCard = {
      type: 'AdaptiveCard',
      version: '1.5',
      body,
      fallbackText,
      // Universal Actions: Teams asks the command again when one of these people views the card; the others see it
      // as it was built (with its "as of" time).
      ...(content.live
        ? {
            refresh: {
              action: asksAgain('Refresh', VERB.refresh, { command: content.live.command }),
              userIds: [...content.live.userIds],
            },
          }
        : {}),
    };
    return card;
  };
  const fits = (groups: Element[][]) => bytesOf(build(groups, groups.length)) <= maxBytes;
  let groups = render(true, Infinity);
  const longest = Math.max(0, ...content.parts.map((p) => (p.kind === 'table' ? p.table.rows.length : 0)));
  if (!fits(groups) && longest > 0) {
    // The tables' lines say what the tables show: left out first. Then the most rows that fit, found by halving.
    groups = render(false, Infinity);
    if (!fits(groups)) {
      let lo = 1;
      let hi = longest - 1;
      while (lo < hi) {
        const mid = Math.ceil((lo + hi) / 2);
        if (fits(render(false, mid))) lo = mid;
        else hi = mid - 1;
      }
      groups = render(false, lo);
    }
  }
  let kept = groups.length;
  let card = build(groups, kept);
  while (kept > 1 && bytesOf(card) > maxBytes) card = build(groups, --kept);
  return card;
}

/** The summary as plain text: a notification's line, what a screen reader says, a card's fallback. */
export function plainSummary(content: Content): string {
  return runsOf(content.summary)
    .map((line) => line.map((r) => r.text).join(''))
    .join(' ')
    .slice(0, 1000);
}
