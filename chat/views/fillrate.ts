/**
 * `/linen fillrate <customer> [days|from to] [department]`: fill rate and par met side by side, short days,
 * worst items (by par met), per-day trend.
 */

import { daysInclusive } from '../../shared/dates.ts';
import type { FillRateBucket, FillRateReport } from '../../shared/reports/index.ts';
import { type Block, context, fields, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { code, count, escLine, pct, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';

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

export function fillRateMessage(r: FillRateReport, opts: FillRateViewOptions): Message {
  const who = `${plain(opts.customerName)}${opts.departmentName ? ` › ${plain(opts.departmentName)}` : ''}`;
  const win = windowText(r);
  const blocks: Block[] = [header(`Fill rate: ${who}`)];
  if (r.rows === 0) {
    blocks.push(section(`No deliveries in ${win}.`));
    return { text: `Fill rate for ${escLine(who)}: no deliveries in ${win}.`, blocks };
  }
  blocks.push(
    fields([
      `*Fill rate*\n${pct(r.fillRate, 1)}`,
      `*Par met*\n${pct(r.parMet, 1)}`,
      `*Short days*\n${shortText(r)}`,
      `*Delivered vs par*\n${count(r.delivered)} of ${count(r.par)} pieces (${count(r.met)} toward par)`,
      `*Window*\n${win}`,
      `*Rows without a pieces par*\n${count(r.rowsWithoutPar)} of ${count(r.rows)} (left out of both rates)`,
    ]),
  );
  blocks.push(
    context(
      'Fill rate = delivered ÷ par, so over-fill on one day hides a shortage on another. Par met = what counted toward par ÷ par: over-fill earns nothing. A short day had some item delivered below par.',
    ),
  );

  // Per-day trend of par met, oldest first.
  const byDay = [...r.byDay].reverse();
  const trend = `*Par met trend* ${code(sparkline(byDay.map((d) => d.parMet)))} (${byDay[0]!.date} → ${byDay[byDay.length - 1]!.date}, days with deliveries)`;
  blocks.push(section(trend));
  const recent = byDay
    .slice(-MAX_TREND_DAYS)
    .map((d) => `${d.date.slice(5)} ${pct(d.parMet)}${d.shortDays ? ' short' : ''}`);
  blocks.push(context(recent.join(' · ')));

  // Worst items first (by par met); items without a usable par last.
  const withPar = r.byItem
    .filter((i) => i.parMet !== null)
    .sort((a, b) => a.parMet! - b.parMet! || a.fillRate! - b.fillRate! || a.itemName.localeCompare(b.itemName));
  const noPar = r.byItem.filter((i) => i.parMet === null);
  const { shown, more } = take(withPar, MAX_ITEMS);
  const lines = [
    '*Worst items first* (par met · fill rate)',
    ...shown.map(
      (i) =>
        `${code(pct(i.parMet, 1).padStart(6, ' '))} ${escLine(i.itemName)}: fill ${pct(i.fillRate, 1)}, ${shortText(i)}, ${count(i.delivered)} of ${count(i.par)}`,
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
    text: `Fill rate for ${escLine(who)}: ${pct(r.fillRate, 1)}, par met ${pct(r.parMet, 1)}, ${shortText(r)} (${count(r.delivered)} of ${count(r.par)} pieces), ${win}.${worst ? ` Worst: ${escLine(worst.itemName)} par met ${pct(worst.parMet, 1)}.` : ''}`,
    blocks,
  };
}
