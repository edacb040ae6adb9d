/**
 * An Adaptive Card as plain terminal text, for the console's Teams view (`npm start -- --teams`): what a person sees
 * in Teams, read from the card itself. The first bold run of the card is its title, underlined; label-and-value
 * columns become `label: value` lines; subtle text is indented; separators are rules; buttons are listed, and a
 * menu with the options chosen in it; a chart is
 * drawn with its numbers (under the first line of the numbers written after it, which are then not repeated); a
 * table is aligned columns.
 */
import { chartAsText, tableAsText } from '../../chat/content/text-charts.ts';
import { CHART_NUMBERS_ID } from './render.ts';

type Node = Record<string, unknown>;

const textOfRuns = (block: Node): string =>
  ((block.inlines as Node[] | undefined) ?? []).map((r) => (typeof r === 'string' ? r : String(r.text ?? ''))).join('');

const isSubtle = (block: Node) => ((block.inlines as Node[] | undefined) ?? []).some((r) => r.isSubtle === true);
const isTitle = (block: Node) =>
  ((block.inlines as Node[] | undefined) ?? []).some((r) => r.size === 'Medium' && r.weight === 'Bolder');

function actionsText(actions: Node[]): string {
  return `  Buttons: ${actions.map((a) => `[${String(a.title ?? '')}]`).join(' ')}`;
}

const nodes = (x: unknown): Node[] => (Array.isArray(x) ? (x as Node[]) : []);
const num = (x: unknown) => (typeof x === 'number' ? x : Number(x));

/** A Teams chart element drawn as text, under `title` (the first line of its numbers) or its own title. */
function chartText(el: Node, title = String(el.title ?? '')): string[] {
  const type = String(el.type);
  if (type === 'Chart.Pie' || type === 'Chart.Donut') {
    const data = nodes(el.data);
    return chartAsText({
      title,
      kind: 'pie',
      categories: data.map((d) => String(d.legend ?? '')),
      series: [{ name: '', values: data.map((d) => num(d.value)) }],
    });
  }
  const unit = el.yAxisTitle ? String(el.yAxisTitle) : undefined;
  if (type === 'Chart.Line' || type === 'Chart.VerticalBar.Grouped') {
    const series = nodes(el.data);
    return chartAsText({
      title,
      unit,
      kind: type === 'Chart.Line' ? 'line' : 'bar',
      categories: nodes(series[0]?.values).map((v) => String(v.x)),
      series: series.map((s) => ({ name: String(s.legend ?? ''), values: nodes(s.values).map((v) => num(v.y)) })),
    });
  }
  const data = nodes(el.data);
  return chartAsText({
    title,
    unit,
    kind: 'bar',
    categories: data.map((d) => String(d.x)),
    series: [{ name: '', values: data.map((d) => num(d.y)) }],
  });
}

function tableText(el: Node): string[] {
  // A cell's button is written as the button alone: `[PDF]`.
  const cellText = (item: Node) =>
    item.type === 'ActionSet' ? nodes(item.actions).map((a) => `[${String(a.title ?? '')}]`) : elementText(item);
  const [header = [], ...rows] = nodes(el.rows).map((row) =>
    nodes(row.cells).map((cell) => nodes(cell.items).flatMap(cellText).join(' ').trim()),
  );
  const aligns = nodes(el.columns).map((c) =>
    c.horizontalCellContentAlignment === 'Right' ? ('right' as const) : ('left' as const),
  );
  return tableAsText(header, aligns, rows);
}

const isNumbers = (el: Node | undefined) =>
  el?.type === 'Container' && typeof el.id === 'string' && el.id.startsWith(CHART_NUMBERS_ID);

function elementText(el: Node): string[] {
  const out: string[] = [];
  if (el.separator === true) out.push('-'.repeat(40));
  switch (el.type) {
    case 'RichTextBlock': {
      const t = textOfRuns(el);
      if (isTitle(el)) out.push(t, '='.repeat(Math.min(72, [...t].length)));
      else out.push(isSubtle(el) ? `  ${t}` : t);
      break;
    }
    case 'TextBlock':
      out.push(String(el.text ?? ''));
      break;
    case 'ColumnSet': {
      const columns = ((el.columns as Node[] | undefined) ?? []).map((c) =>
        ((c.items as Node[] | undefined) ?? []).flatMap(elementText),
      );
      const isButtons = (lines: string[]) => lines.length > 0 && lines.every((l) => l.startsWith('  Buttons:'));
      const buttons = columns.filter(isButtons).flat();
      const content = columns.filter((lines) => !isButtons(lines));
      if (buttons.length) {
        // A paragraph beside its button (an invoice and its PDF).
        for (const lines of content) out.push(...lines);
        out.push(...buttons.map((b) => b.replace('  Buttons: ', '  ')));
      } else {
        // Labelled values: `label: value`.
        for (const [label, ...value] of content)
          if (label !== undefined) out.push(`  ${label}: ${value.join(' ')}`.trimEnd());
      }
      break;
    }
    case 'Container':
      for (const item of (el.items as Node[] | undefined) ?? []) out.push(...elementText(item));
      break;
    case 'ActionSet':
      out.push(actionsText((el.actions as Node[] | undefined) ?? []));
      break;
    case 'Input.ChoiceSet': {
      // The options chosen now, or what the list says when none is.
      const chosen = String(el.value ?? '')
        .split(',')
        .filter(Boolean);
      const titles = nodes(el.choices)
        .filter((c) => chosen.includes(String(c.value)))
        .map((c) => String(c.title));
      out.push(`  [menu: ${titles.length ? titles.join(', ') : String(el.placeholder ?? '')}]`);
      break;
    }
    case 'Table':
      out.push(...tableText(el));
      break;
    default:
      if (String(el.type).startsWith('Chart.')) out.push(...chartText(el));
      break;
  }
  return out;
}

export function cardToText(card: unknown): string {
  const body = ((card as Node | undefined)?.body as Node[] | undefined) ?? [];
  return body
    .flatMap((el, k) => {
      const next = body[k + 1];
      if (String(el.type).startsWith('Chart.') && isNumbers(next))
        return chartText(el, elementText(nodes(next!.items)[0] ?? {})[0]?.trim());
      if (isNumbers(el) && String(body[k - 1]?.type).startsWith('Chart.')) return [];
      return elementText(el);
    })
    .join('\n');
}
