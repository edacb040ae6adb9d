/**
 * `/linen short [customer] [department | unit]`: what is missing right now, by unit and item, worst first, with a
 * bar chart of the pieces missing by unit (the worst units first).
 */
import type { ShortToday } from '../../shared/reports/index.ts';
import type { Chart } from '../content/chart.ts';
import { type Content, chart, note, type Part, text, title } from '../content/document.ts';
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

/** Pieces missing by unit (Σ of its lines), the worst units first; a unit names its customer when several are shown. */
export function missingByUnitChart(report: ShortToday, opts: ShortViewOptions): Chart {
  const several = !opts.customerName;
  const units = new Map<string, { name: string; missing: number }>();
  for (const l of report.lines) {
    const key = `${l.customerId}\u0000${l.unitId ?? ''}`;
    const unit = line(l.unitName ?? 'No unit');
    const name = several ? `${unit} (${line(opts.customerNames.get(l.customerId) ?? l.customerId)})` : unit;
    const u = units.get(key) ?? { name, missing: 0 };
    u.missing += l.missing;
    units.set(key, u);
  }
  const worst = [...units.values()].sort((a, b) => b.missing - a.missing || a.name.localeCompare(b.name));
  return {
    kind: 'bar',
    title: 'Pieces missing by unit',
    unit: { kind: 'count', noun: 'pieces' },
    axis: 'ranked',
    categories: worst.map((u) => u.name),
    series: [{ name: 'Missing', values: worst.map((u) => u.missing) }],
    nouns: { categories: 'units', series: 'series' },
    notes: [],
  };
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
  parts.push(chart(missingByUnitChart(report, opts)));
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
