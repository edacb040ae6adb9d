/** `/linen short [customer] [department | unit]`: what is missing right now, by unit and item, worst first. */
import type { ShortToday } from '../../shared/reports/index.ts';
import { type Content, note, type Part, text, title } from '../content/document.ts';
import { count, humanize, moreLine, plural, take } from '../content/format.ts';
import { chunkLines } from '../content/limits.ts';
import { b, icon, line, type Rich, r } from '../content/rich.ts';

export const MAX_SHORT_LINES = 40;

export interface ShortViewOptions {
  /** Customer names by id (lines name their customer when several are shown). */
  customerNames: ReadonlyMap<string, string>;
  /** The customer asked for, when one was. */
  customerName?: string | undefined;
}

export function shortView(report: ShortToday, opts: ShortViewOptions): Content {
  const scope = [opts.customerName, report.place]
    .filter(Boolean)
    .map((s) => line(s))
    .join(' › ');
  const parts: Part[] = [title(scope ? `Short today: ${scope}` : 'Short today')];
  const days = `count days ${report.window.from} → ${report.window.to}`;
  const pending = report.pendingCarts ? `; ${plural(report.pendingCarts, 'cart')} not counted yet` : '';
  if (report.lines.length === 0) {
    const none = report.carts
      ? `Nothing missing: the latest counts of ${plural(report.carts, 'cart')} are all delivered (${days}${pending}).`
      : `No cart counts to read (${days}${pending}).`;
    parts.push(text([icon('ok'), ' ', none]));
    return { summary: [none], parts };
  }
  parts.push(
    note(
      r`${b(count(report.missing))} pieces missing in ${plural(report.lines.length, 'unit item', 'unit items')}, from the latest count of ${plural(report.carts, 'cart')} (${days}${pending}). Missing = required at the count − delivered since; worst first.`,
    ),
  );
  const several = !opts.customerName;
  const { shown, more } = take(report.lines, MAX_SHORT_LINES);
  const list: Rich[] = shown.map((l) => {
    const where = [several ? opts.customerNames.get(l.customerId) : null, l.unitName ?? 'No unit']
      .filter(Boolean)
      .map((s) => line(s))
      .join(' › ');
    const statuses = l.statuses.map((s) => humanize(s).toLowerCase()).join(', ');
    return r`${b(count(l.missing))} ${line(l.itemName)} at ${where}: ${count(l.delivered)} of ${count(l.required)} required delivered · counted ${l.countedOn} (${statuses})`;
  });
  if (more) list.push([moreLine(more, 'unit items', '(name a customer or a department to narrow the list)')]);
  for (const chunk of chunkLines(list)) parts.push(text(chunk));
  const worst = report.lines[0]!;
  return {
    summary: [
      `Short today${scope ? ` at ${scope}` : ''}: ${count(report.missing)} pieces missing; worst ${line(worst.itemName)} at ${line(worst.unitName ?? 'no unit')} (${count(worst.missing)}).`,
    ],
    parts,
  };
}
