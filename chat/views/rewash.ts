/**
 * `/linen rewash <customer> [days | from to]`: rewash pounds against soil pounds, split by fault (charted as a
 * donut where the organization shows the split).
 */
import { daysInclusive } from '../../shared/dates.ts';
import type { RewashRate } from '../../shared/reports/index.ts';
import type { Chart } from '../content/chart.ts';
import { type Content, chart, field, fields, note, type Part, text, title } from '../content/document.ts';
import { count, pct, plural } from '../content/format.ts';
import { icon, line } from '../content/rich.ts';

const lb = (x: number) => `${x.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} lb`;

/** The fault split's pounds (soil fault, processing error), where the batches show it; null where they do not. */
export function faultSplitChart(r: RewashRate): Chart | null {
  if (r.splitHidden || r.soilFaultLb === null || r.errorFaultLb === null) return null;
  return {
    kind: 'donut',
    title: 'Rewash by fault',
    unit: { kind: 'pounds' },
    axis: 'fixed',
    categories: ['Soil fault', 'Processing error'],
    series: [{ name: 'Rewash', values: [r.soilFaultLb, r.errorFaultLb] }],
    nouns: { categories: 'faults', series: 'series' },
    notes: [],
  };
}

export function rewashView(r: RewashRate, opts: { customerName: string }): Content {
  const who = line(opts.customerName);
  const win = `${r.window.from} → ${r.window.to} (${plural(daysInclusive(r.window.from, r.window.to), 'day')})`;
  const parts: Part[] = [title(`Rewash: ${who}`)];
  if (r.soilLb <= 0 && r.batches === 0) {
    parts.push(text([`No soil linen delivered and no rewash in ${win}.`]));
    return { summary: [`Rewash for ${who}: nothing processed in ${win}.`], parts };
  }
  const fault = (label: string, pounds: number | null, rate: number | null) =>
    field(label, [pounds === null ? 'hidden' : `${pct(rate, 2)} (${lb(pounds)})`]);
  parts.push(
    fields([
      field('Rewash rate', [`${pct(r.rate, 2)} (${lb(r.rewashLb)} of ${lb(r.soilLb)} soil)`]),
      field('Window', [win]),
      fault('Soil fault (customer)', r.soilFaultLb, r.soilFaultRate),
      fault('Processing error (laundry: basis of a credit)', r.errorFaultLb, r.errorFaultRate),
      field('Rewash batches', [`${count(r.batches)}${r.voided ? ` (and ${count(r.voided)} voided, left out)` : ''}`]),
      field('Soil manifests', [count(r.manifests)]),
    ]),
  );
  const split = faultSplitChart(r);
  if (split) parts.push(chart(split));
  if (r.splitHidden)
    parts.push(
      text([
        icon('info'),
        ' Your laundry hides the split between soil fault and processing error from customers, so this rewash cannot be split by fault. Ask them for the split to support a credit claim.',
      ]),
    );
  else if (r.batchesWithoutSplit)
    parts.push(
      note([
        `${plural(r.batchesWithoutSplit, 'batch', 'batches')} without the fault split; the split covers the others.`,
      ]),
    );
  parts.push(
    note([
      'Rewash = held pounds of the rewash batches discovered in the window; soil = soil pounds of the normal manifests delivered in it.',
    ]),
  );
  const splitText = r.splitHidden
    ? 'fault split hidden'
    : `processing error ${pct(r.errorFaultRate, 2)}, soil ${pct(r.soilFaultRate, 2)}`;
  return { summary: [`Rewash for ${who}: ${pct(r.rate, 2)} of soil pounds (${splitText}), ${win}.`], parts };
}
