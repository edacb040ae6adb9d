/**
 * `/linen fillrate <customer> [days|from to] [department]`: fill rate and par met side by side, short days,
 * worst items (by par met), per-day trend.
 */

import { daysInclusive } from '../../shared/dates.ts';
import type { FillRateBucket, FillRateReport } from '../../shared/reports/index.ts';
import { type Content, field, fields, note, type Part, text, title } from '../content/document.ts';
import { count, moreLine, pct, plural, take } from '../content/format.ts';
import { chunkLines } from '../content/limits.ts';
import { b, code, i, line, type Rich, r } from '../content/rich.ts';

export const MAX_ITEMS = 15;
export const MAX_TREND_DAYS = 14;

const BARS = '▁▂▃▄▅▆▇█';

/**
 * One bar per day, scaled between the window's lowest and highest rate so that day-to-day movement shows
 * (the per-day percentages are printed beside it). Days without a usable par show `·`.
 */
export function sparkline(rates: readonly (number | null)[]): string {
  const known = rates.filter((r): r is number => r !== null);
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  const span = hi - lo;
  return rates
    .map((r) => {
      if (r === null) return '·';
      const level = span < 0.005 ? (BARS.length - 1) / 2 : ((r - lo) / span) * (BARS.length - 1);
      return BARS[Math.round(level)];
    })
    .join('');
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

  // Per-day trend of par met, oldest first.
  const byDay = [...r0.byDay].reverse();
  parts.push(
    text(
      r`${b('Par met trend')} ${code(sparkline(byDay.map((d) => d.parMet)))} (${byDay[0]!.date} → ${byDay[byDay.length - 1]!.date}, days with deliveries)`,
    ),
  );
  const recent = byDay
    .slice(-MAX_TREND_DAYS)
    .map((d) => `${d.date.slice(5)} ${pct(d.parMet)}${d.shortDays ? ' short' : ''}`);
  parts.push(note([recent.join(' · ')]));

  // Worst items first (by par met); items without a usable par last.
  const withPar = r0.byItem
    .filter((it) => it.parMet !== null)
    .sort((a, c) => a.parMet! - c.parMet! || a.fillRate! - c.fillRate! || a.itemName.localeCompare(c.itemName));
  const noPar = r0.byItem.filter((it) => it.parMet === null);
  const { shown, more } = take(withPar, MAX_ITEMS);
  const list: Rich[] = [
    r`${b('Worst items first')} (par met · fill rate)`,
    ...shown.map(
      (it) =>
        r`${code(pct(it.parMet, 1).padStart(6, ' '))} ${line(it.itemName)}: fill ${pct(it.fillRate, 1)}, ${shortText(it)}, ${count(it.delivered)} of ${count(it.par)}`,
    ),
  ];
  if (more) list.push([moreLine(more, 'items')]);
  if (noPar.length)
    list.push([
      i(
        `${plural(noPar.length, 'item')} without a pieces par: ${noPar
          .slice(0, 5)
          .map((it) => line(it.itemName))
          .join(', ')}${noPar.length > 5 ? ', …' : ''}`,
      ),
    ]);
  for (const chunk of chunkLines(list)) parts.push(text(chunk));

  const worst = withPar[0];
  return {
    summary: [
      `Fill rate for ${who}: ${pct(r0.fillRate, 1)}, par met ${pct(r0.parMet, 1)}, ${shortText(r0)} (${count(r0.delivered)} of ${count(r0.par)} pieces), ${win}.${worst ? ` Worst: ${line(worst.itemName)} par met ${pct(worst.parMet, 1)}.` : ''}`,
    ],
    parts,
  };
}
