/**
 * An Adaptive Card validator for every card the bot posts on Teams: version 1.5 within the renderer's size budget
 * (`CARD_BYTES`), only the elements the bot writes, text only as TextRuns (a TextBlock would read API text as
 * Markdown), distinct ids, `Action.Execute` buttons with a verb and a title. Tables and charts are held to their
 * references:
 * - `Table` (https://learn.microsoft.com/en-us/adaptive-cards/schema-explorer/table, version 1.5): rows of
 *   `TableRow`, each with one `TableCell` a column, each cell a list of elements; alignments `Left`, `Center` or
 *   `Right`;
 * - charts (https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/charts-in-adaptive-cards):
 *   the element types listed there; `Chart.Line` and `Chart.VerticalBar.Grouped` data as series with a legend and
 *   `{x, y}` values, `Chart.VerticalBar` and `Chart.HorizontalBar` data as `{x, y}`, `Chart.Pie` and `Chart.Donut`
 *   data as `{legend, value}`; colours and colour sets among the reference's names; every number finite. The bot's
 *   own rules on top: at most nine series a chart (each its own categorical colour, so they stay apart), distinct
 *   legends, a slice above zero, and `fallback: drop` (clients that draw no chart show its numbers);
 * - Universal Actions (https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/universal-actions-for-adaptive-cards/work-with-universal-actions-for-adaptive-cards):
 *   a `refresh` is an `Action.Execute` with its verb and the ids of the people it refreshes for (`userIds`, Teams
 *   user ids, at most 60); a button that names an input (`data.input`) names one on the card;
 * - `Input.ChoiceSet`: an id, choices with a title and a value each (values distinct), and its value (several
 *   comma-separated where it is a multi-select) among them; a multi-select is not `filtered` (clients differ on it:
 *   https://github.com/microsoft/AdaptiveCards/issues/8386).
 */
import { CARD_BYTES } from '../../teams-bot/cards/render.ts';

const COLOR_SETS = new Set([
  'categorical',
  'sequential',
  'sequentialred',
  'sequentialgreen',
  'sequentialyellow',
  'diverging',
]);
const COLORS = new Set([
  'good',
  'warning',
  'attention',
  'neutral',
  'categoricalRed',
  'categoricalPurple',
  'categoricalLavender',
  'categoricalBlue',
  'categoricalLightBlue',
  'categoricalTeal',
  'categoricalGreen',
  'categoricalLime',
  'categoricalMarigold',
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `sequential${n}`),
  'divergingBlue',
  'divergingLightBlue',
  'divergingCyan',
  'divergingTeal',
  'divergingYellow',
  'divergingPeach',
  'divergingLightRed',
  'divergingRed',
  'divergingMaroon',
  'divergingGray',
]);
const CHARTS = new Set([
  'Chart.Line',
  'Chart.VerticalBar',
  'Chart.VerticalBar.Grouped',
  'Chart.HorizontalBar',
  'Chart.Pie',
  'Chart.Donut',
  'Chart.Gauge',
]);
const ELEMENTS = new Set([
  'RichTextBlock',
  'Container',
  'ColumnSet',
  'ActionSet',
  'Table',
  'Input.Text',
  'Input.ChoiceSet',
  ...CHARTS,
]);
const ALIGN = new Set(['Left', 'Center', 'Right']);
const MAX_SERIES = 9;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isX = (v: unknown) => typeof v === 'string' || finite(v);

export function validateCard(card: any, label = 'card'): string[] {
  const problems: string[] = [];
  const p = (s: string): void => {
    problems.push(`${label}: ${s}`);
  };
  if (card?.type !== 'AdaptiveCard') return [`${label}: not an AdaptiveCard`];
  if (card.version !== '1.5') p(`version ${card.version} (1.5)`);
  const bytes = Buffer.byteLength(JSON.stringify(card), 'utf8');
  if (bytes > CARD_BYTES) p(`${bytes} bytes (max ${CARD_BYTES})`);
  const ids = new Set<string>();
  const inputsNamed: { id: string; where: string }[] = [];

  const checkAction = (a: any, where: string) => {
    if (a?.type !== 'Action.Execute') return p(`${where}: action ${a?.type}`);
    if (typeof a.verb !== 'string' || !a.verb) p(`${where}: no verb`);
    if (typeof a.title !== 'string' || !a.title.trim()) p(`${where}: no title`);
    if (a.data?.input !== undefined) inputsNamed.push({ id: String(a.data.input), where });
  };

  const checkChoiceSet = (el: any, where: string) => {
    if (typeof el.id !== 'string' || !el.id) p(`${where}: an input without an id`);
    if (!Array.isArray(el.choices) || el.choices.length === 0) return p(`${where}: no choices`);
    const values = new Set<string>();
    for (const [k, c] of el.choices.entries()) {
      if (typeof c?.title !== 'string' || !c.title) p(`${where}.choices[${k}]: no title`);
      if (typeof c?.value !== 'string' || !c.value) p(`${where}.choices[${k}]: no value`);
      else if (values.has(c.value)) p(`${where}.choices[${k}]: value ${c.value} repeats`);
      else values.add(c.value);
    }
    if (el.isMultiSelect && el.style === 'filtered') p(`${where}: a filtered multi-select`);
    const chosen = typeof el.value === 'string' && el.value ? el.value.split(el.isMultiSelect ? ',' : '\u0000') : [];
    for (const v of chosen) if (!values.has(v)) p(`${where}: value ${v} is not a choice`);
  };

  const checkSeries = (el: any, where: string) => {
    if (!Array.isArray(el.data) || el.data.length === 0) return p(`${where}: no data`);
    if (el.data.length > MAX_SERIES) p(`${where}: ${el.data.length} series (max ${MAX_SERIES})`);
    const legends = el.data.map((s: any) => s?.legend);
    if (legends.some((l: unknown) => typeof l !== 'string' || !l)) p(`${where}: a series without a legend`);
    if (new Set(legends).size !== legends.length) p(`${where}: legends repeat`);
    const colors = el.data.map((s: any) => s?.color).filter(Boolean);
    if (new Set(colors).size !== colors.length) p(`${where}: series share a colour`);
    for (const [j, s] of el.data.entries()) {
      if (s?.color !== undefined && !COLORS.has(s.color)) p(`${where}.data[${j}]: colour ${s.color}`);
      if (!Array.isArray(s?.values) || s.values.length === 0) p(`${where}.data[${j}]: no values`);
      for (const v of s?.values ?? [])
        if (!isX(v?.x) || !finite(v?.y)) p(`${where}.data[${j}]: point ${JSON.stringify(v)}`);
    }
  };

  const checkChart = (el: any, where: string) => {
    if (typeof el.title !== 'string' || !el.title) p(`${where}: no title`);
    if (el.fallback !== 'drop') p(`${where}: fallback ${JSON.stringify(el.fallback)} (drop: its numbers follow it)`);
    if (el.colorSet !== undefined && !COLOR_SETS.has(el.colorSet)) p(`${where}: colour set ${el.colorSet}`);
    if (el.color !== undefined && !COLORS.has(el.color)) p(`${where}: colour ${el.color}`);
    switch (el.type) {
      case 'Chart.Line':
      case 'Chart.VerticalBar.Grouped':
        return checkSeries(el, where);
      case 'Chart.VerticalBar':
      case 'Chart.HorizontalBar':
        if (!Array.isArray(el.data) || el.data.length === 0) return p(`${where}: no data`);
        for (const v of el.data) if (!isX(v?.x) || !finite(v?.y)) p(`${where}: point ${JSON.stringify(v)}`);
        return;
      case 'Chart.Pie':
      case 'Chart.Donut': {
        if (!Array.isArray(el.data) || el.data.length === 0) return p(`${where}: no data`);
        if (el.data.length > MAX_SERIES) p(`${where}: ${el.data.length} slices (max ${MAX_SERIES})`);
        for (const d of el.data) {
          if (typeof d?.legend !== 'string' || !d.legend) p(`${where}: a slice without a legend`);
          if (!finite(d?.value) || d.value <= 0) p(`${where}: slice value ${d?.value} (above 0)`);
          if (d?.color !== undefined && !COLORS.has(d.color)) p(`${where}: colour ${d.color}`);
        }
        return;
      }
      case 'Chart.Gauge':
        if (el.value !== undefined && !finite(el.value)) p(`${where}: value ${el.value}`);
        return;
    }
  };

  const checkTable = (el: any, where: string) => {
    const columns = Array.isArray(el.columns) ? el.columns : [];
    if (columns.length === 0) p(`${where}: no columns`);
    for (const [k, c] of columns.entries())
      if (c?.horizontalCellContentAlignment !== undefined && !ALIGN.has(c.horizontalCellContentAlignment))
        p(`${where}.columns[${k}]: alignment ${c.horizontalCellContentAlignment}`);
    if (!Array.isArray(el.rows) || el.rows.length === 0) return p(`${where}: no rows`);
    for (const [j, row] of el.rows.entries()) {
      if (row?.type !== 'TableRow') p(`${where}.rows[${j}]: ${row?.type}`);
      const cells = Array.isArray(row?.cells) ? row.cells : [];
      if (cells.length !== columns.length) p(`${where}.rows[${j}]: ${cells.length} cells, ${columns.length} columns`);
      for (const [k, cell] of cells.entries()) {
        if (cell?.type !== 'TableCell' || !Array.isArray(cell.items)) p(`${where}.rows[${j}][${k}]: not a TableCell`);
        else for (const [m, item] of cell.items.entries()) checkElement(item, `${where}.rows[${j}][${k}][${m}]`);
      }
    }
  };

  const checkElement = (el: any, where: string): void => {
    if (!el || typeof el !== 'object') {
      p(`${where}: not an element`);
      return;
    }
    if (el.type === 'TextBlock' || !ELEMENTS.has(el.type)) {
      p(
        el.type === 'TextBlock'
          ? `${where}: a TextBlock (reads its text as Markdown)`
          : `${where}: unknown element ${el.type}`,
      );
      return;
    }
    if (el.id !== undefined) {
      if (ids.has(el.id)) p(`${where}: id ${el.id} repeats`);
      ids.add(el.id);
    }
    switch (el.type) {
      case 'RichTextBlock':
        if (!Array.isArray(el.inlines) || el.inlines.length === 0) p(`${where}: no inlines`);
        // An inline is a TextRun or a plain string (both text as typed, never Markdown).
        for (const r of el.inlines ?? [])
          if (typeof r !== 'string' && (r?.type !== 'TextRun' || typeof r.text !== 'string'))
            p(`${where}: inline ${JSON.stringify(r)}`);
        return;
      case 'Container':
        for (const [k, item] of (el.items ?? []).entries()) checkElement(item, `${where}.items[${k}]`);
        return;
      case 'ColumnSet':
        for (const [k, col] of (el.columns ?? []).entries()) {
          if (col?.type !== 'Column') p(`${where}.columns[${k}]: ${col?.type}`);
          for (const [m, item] of (col?.items ?? []).entries()) checkElement(item, `${where}.columns[${k}][${m}]`);
        }
        return;
      case 'ActionSet':
        if (!Array.isArray(el.actions) || el.actions.length === 0) p(`${where}: no actions`);
        for (const [k, a] of (el.actions ?? []).entries()) checkAction(a, `${where}.actions[${k}]`);
        return;
      case 'Table':
        checkTable(el, where);
        return;
      case 'Input.ChoiceSet':
        checkChoiceSet(el, where);
        return;
      default:
        if (CHARTS.has(el.type)) checkChart(el, where);
    }
  };

  if (!Array.isArray(card.body)) p('no body');
  for (const [k, el] of (card.body ?? []).entries()) checkElement(el, `body[${k}]`);
  for (const [k, a] of (card.actions ?? []).entries()) checkAction(a, `actions[${k}]`);
  if (card.refresh !== undefined) {
    checkAction(card.refresh.action, 'refresh.action');
    const userIds = card.refresh.userIds;
    if (!Array.isArray(userIds) || userIds.length === 0 || userIds.length > 60)
      p(`refresh.userIds: ${JSON.stringify(userIds)} (1 to 60 ids)`);
    else for (const id of userIds) if (typeof id !== 'string' || !id) p(`refresh.userIds: ${JSON.stringify(id)}`);
  }
  for (const named of inputsNamed)
    if (!ids.has(named.id)) p(`${named.where}: names input ${named.id}, not on the card`);
  return problems;
}

/** Every `Action.Execute` under a node (a card, an activity's attachments), in order: its title, verb and data. */
export function executeActions(node: unknown): { title: string; verb: string; data: any }[] {
  const found: { title: string; verb: string; data: any }[] = [];
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) for (const x of n) walk(x);
    else if (n && typeof n === 'object') {
      const o = n as Record<string, any>;
      if (o.type === 'Action.Execute') found.push({ title: o.title, verb: o.verb, data: o.data });
      for (const v of Object.values(o)) walk(v);
    }
  };
  walk(node);
  return found;
}

/** The Adaptive Cards an activity carries. */
export const cardsOf = (activity: Record<string, any> | undefined): any[] =>
  (activity?.attachments ?? [])
    .filter((a: any) => a?.contentType === 'application/vnd.microsoft.card.adaptive')
    .map((a: any) => a.content);
