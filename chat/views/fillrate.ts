/**
 * `/linen fillrate <customer> [days|from to] [department]`: fill rate and par met side by side, short days, the
 * per-day trend as a line chart of both rates (with its par met sparkline), and the worst items (by par met) as a
 * table and as lines.
 */

import { daysInclusive } from '../../shared/dates.ts';
import type { FillRateBucket, FillRateReport } from '../../shared/reports/index.ts';
import { type Chart, ratioSeries } from '../content/chart.ts';
import { type Content, chart, field, fields, note, type Part, table, text, title } from '../content/document.ts';
import { count, moreLine, pct, plural, take } from '../content/format.ts';
import { chunkLines } from '../content/limits.ts';
import { b, code, i, line, type Rich, r } from '../content/rich.ts';
import type { Table } from '../content/table.ts';
import { sparkline } from '../content/text-charts.ts';

export const MAX_ITEMS = 15;

/** Fill rate and par met of each day with a pieces par, oldest first: each as the day's Σ ÷ Σ par. */
export function fillRateTrendChart(report: FillRateReport): Chart {
  const days = [...report.byDay].reverse().filter((d) => d.par > 0);
  return {
    kind: 'line',
    title: 'Fill rate and par met',
    unit: { kind: 'percent' },
    axis: 'days',
    period: 'day',
    categories: days.map((d) => d.date),
    series: [
      ratioSeries(
        'Fill rate',
        days.map((d) => d.delivered),
        days.map((d) => d.par),
      ),
      ratioSeries(
        'Par met',
        days.map((d) => d.met),
        days.map((d) => d.par),
      ),
    ],
    nouns: { categories: 'days', series: 'rates' },
    notes: [],
  };
}

type ItemRow = FillRateReport['byItem'][number];

function worstItemsTable(items: readonly ItemRow[]): Table {
  return {
    title: 'Worst items (by par met)',
    noun: 'items',
    columns: [
      { header: 'Item', type: 'text' },
      { header: 'Par met', type: 'percent' },
      { header: 'Fill rate', type: 'percent' },
      { header: 'Short days', type: 'number' },
      { header: 'Delivered', type: 'number' },
      { header: 'Par', type: 'number' },
    ],
    rows: items.map((it) => [
      line(it.itemName),
      pct(it.parMet, 1),
      pct(it.fillRate, 1),
      `${count(it.shortDays)} of ${count(it.daysWithPar)}`,
      count(it.delivered),
      count(it.par),
    ]),
  };
}

export interface FillRateViewOptions {
  customerName: string;
  departmentName?: string | undefined;
}

/** `2026-11-13 → 2026-11-19 (7 days)`, saying whether today (only partly delivered) is in it. */
function windowText(r: FillRateReport): string {
  const days = daysInclusive(r.window.from, r.window.to);
  return `${r.window.from} → ${r.window.to} (${plural(days, 'day')}${r.includesToday ? ', today partly delivered' : ''})`;
}

const shortText = (b: FillRateBucket) =>
  b.daysWithPar === 0 ? 'no day with a par' : `short on ${count(b.shortDays)} of ${plural(b.daysWithPar, 'day')}`;

export function fillRateView(r0: FillRateReport, opts: FillRateViewOptions): Content {
  const who = `${line(opts.customerName)}${opts.departmentName ? ` › ${line(opts.departmentName)}` : ''}`;
  const win = windowText(r0);
  const parts: Part[] = [title(`Fill rate: ${who}`)];
  if (r0.rows === 0) {
    parts.push(text([`No deliveries in ${win}.`]));
    return { summary: [`Fill rate for ${who}: no deliveries in ${win}.`], parts };
  }
  parts.push(
    fields([
      field('Fill rate', [pct(r0.fillRate, 1)]),
      field('Par met', [pct(r0.parMet, 1)]),
      field('Short days', [shortText(r0)]),
      field('Delivered vs par', [`${count(r0.delivered)} of ${count(r0.par)} pieces (${count(r0.met)} toward par)`]),
      field('Window', [win]),
      field('Rows without a pieces par', [`${count(r0.rowsWithoutPar)} of ${count(r0.rows)} (left out of both rates)`]),
    ]),
  );
  parts.push(
    note([
      'Fill rate = delivered ÷ par, so over-fill on one day hides a shortage on another. Par met = what counted toward par ÷ par: over-fill earns nothing. A short day had some item delivered below par.',
    ]),
  );

  // Per-day trend, oldest first: both rates charted (their numbers beside the chart), par met as a sparkline.
  const byDay = [...r0.byDay].reverse();
  const trend = fillRateTrendChart(r0);
  if (trend.categories.length) parts.push(chart(trend));
  parts.push(
    text(
      r`${b('Par met trend')} ${code(sparkline(byDay.map((d) => d.parMet)))} (${byDay[0]!.date} → ${byDay[byDay.length - 1]!.date}, days with deliveries)`,
    ),
  );

  // Worst items first (by par met); items without a usable par last.
  const withPar = r0.byItem
    .filter((it) => it.parMet !== null)
    .sort((a, c) => a.parMet! - c.parMet! || a.fillRate! - c.fillRate! || a.itemName.localeCompare(c.itemName));
  const noPar = r0.byItem.filter((it) => it.parMet === null);
  const { shown, more } = take(withPar, MAX_ITEMS);
  const heading = r`${b('Worst items first')} (par met · fill rate)`;
  const rows: Rich[] = shown.map(
    (it) =>
      r`${code(pct(it.parMet, 1).padStart(6, ' '))} ${line(it.itemName)}: fill ${pct(it.fillRate, 1)}, ${shortText(it)}, ${count(it.delivered)} of ${count(it.par)}`,
  );
  const rest: Rich[] = [];
  if (more) rest.push([moreLine(more, 'items')]);
  if (noPar.length)
    rest.push([
      i(
        `${plural(noPar.length, 'item')} without a pieces par: ${noPar
          .slice(0, 5)
          .map((it) => line(it.itemName))
          .join(', ')}${noPar.length > 5 ? ', …' : ''}`,
      ),
    ]);
  if (shown.length) {
    parts.push(
      table(
        worstItemsTable(shown),
        chunkLines([heading, ...rows]).map((chunk) => text(chunk)),
      ),
    );
    for (const chunk of chunkLines(rest)) parts.push(text(chunk));
  } else for (const chunk of chunkLines([heading, ...rest])) parts.push(text(chunk));

  const worst = withPar[0];
  return {
    summary: [
      `Fill rate for ${who}: ${pct(r0.fillRate, 1)}, par met ${pct(r0.parMet, 1)}, ${shortText(r0)} (${count(r0.delivered)} of ${count(r0.par)} pieces), ${win}.${worst ? ` Worst: ${line(worst.itemName)} par met ${pct(worst.parMet, 1)}.` : ''}`,
    ],
    parts,
  };
}
