/** `/linen fillrate <customer> [days|from to] [department]`: fill rate, worst items, per-day trend. */

import { daysInclusive } from '../../shared/dates.ts';
import type { FillRateReport } from '../../shared/reports/index.ts';
import { type Block, context, fields, header, type Message, section } from '../blocks/kit.ts';
import { chunkLines, moreLine, take } from '../blocks/limits.ts';
import { code, count, escLine, pct, plain, plural } from '../blocks/mrkdwn.ts';

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

export function fillRateMessage(r: FillRateReport, opts: FillRateViewOptions): Message {
  const who = `${plain(opts.customerName)}${opts.departmentName ? ` › ${plain(opts.departmentName)}` : ''}`;
  const days = daysInclusive(r.window.from, r.window.to);
  const windowText = `${r.window.from} → ${r.window.to} (${plural(days, 'day')})`;
  const blocks: Block[] = [header(`Fill rate: ${who}`)];
  if (r.rows === 0) {
    blocks.push(section(`No deliveries in ${windowText}.`));
    return { text: `Fill rate for ${escLine(who)}: no deliveries in ${windowText}.`, blocks };
  }
  blocks.push(
    fields([
      `*Fill rate*\n${pct(r.fillRate, 1)}`,
      `*Delivered vs par*\n${count(r.delivered)} of ${count(r.par)} pieces`,
      `*Window*\n${windowText}`,
      `*Rows without a pieces par*\n${count(r.rowsWithoutPar)} of ${count(r.rows)} (left out of the rate)`,
    ]),
  );

  // Per-day trend, oldest first.
  const byDay = [...r.byDay].reverse();
  const trend = `*Trend* ${code(sparkline(byDay.map((d) => d.fillRate)))} (${byDay[0]!.date} → ${byDay[byDay.length - 1]!.date}, days with deliveries)`;
  blocks.push(section(trend));
  const recent = byDay.slice(-MAX_TREND_DAYS).map((d) => `${d.date.slice(5)} ${pct(d.fillRate)}`);
  blocks.push(context(recent.join(' · ')));

  // Worst items first; items without a usable par last.
  const withPar = r.byItem
    .filter((i) => i.fillRate !== null)
    .sort((a, b) => a.fillRate! - b.fillRate! || a.itemName.localeCompare(b.itemName));
  const noPar = r.byItem.filter((i) => i.fillRate === null);
  const { shown, more } = take(withPar, MAX_ITEMS);
  const lines = [
    '*Worst items first*',
    ...shown.map(
      (i) =>
        `${code(pct(i.fillRate, 1).padStart(6, ' '))} ${escLine(i.itemName)}: ${count(i.delivered)} of ${count(i.par)}`,
    ),
  ];
  if (more) lines.push(moreLine(more, 'items'));
  if (noPar.length)
    lines.push(
      `_${plural(noPar.length, 'item')} without a pieces par: ${noPar
        .slice(0, 5)
        .map((i) => escLine(i.itemName))
        .join(', ')}${noPar.length > 5 ? ', …' : ''}_`,
    );
  for (const chunk of chunkLines(lines)) blocks.push(section(chunk));

  const worst = withPar[0];
  return {
    text: `Fill rate for ${escLine(who)}: ${pct(r.fillRate, 1)} (${count(r.delivered)} of ${count(r.par)} pieces), ${windowText}.${worst ? ` Worst: ${escLine(worst.itemName)} ${pct(worst.fillRate, 1)}.` : ''}`,
    blocks,
  };
}
