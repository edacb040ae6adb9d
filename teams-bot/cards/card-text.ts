/**
 * An Adaptive Card as plain terminal text, for the console's Teams view (`npm start -- --teams`): what a person sees
 * in Teams, read from the card itself. The first bold run of the card is its title, underlined; label-and-value
 * columns become `label: value` lines; subtle text is indented; separators are rules; buttons are listed.
 */

type Node = Record<string, unknown>;

const textOfRuns = (block: Node): string =>
  ((block.inlines as Node[] | undefined) ?? []).map((r) => (typeof r === 'string' ? r : String(r.text ?? ''))).join('');

const isSubtle = (block: Node) => ((block.inlines as Node[] | undefined) ?? []).some((r) => r.isSubtle === true);
const isTitle = (block: Node) =>
  ((block.inlines as Node[] | undefined) ?? []).some((r) => r.size === 'Medium' && r.weight === 'Bolder');

function actionsText(actions: Node[]): string {
  return `  Buttons: ${actions.map((a) => `[${String(a.title ?? '')}]`).join(' ')}`;
}

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
    default:
      break;
  }
  return out;
}

export function cardToText(card: unknown): string {
  const body = ((card as Node | undefined)?.body as Node[] | undefined) ?? [];
  return body.flatMap(elementText).join('\n');
}
