/**
 * The par met of several customers over the last days as a line each: the shortfall digest's chart of the
 * customers it covers. Each point is the day's Σ min(delivered, par) ÷ Σ par over the customer's rows with a pieces
 * par (as `fillrate` computes par met), so it combines exactly when a platform folds customers into "Others". The
 * worst customer over the days comes first (the one a platform keeps when it has fewer series). A day on which a
 * charted customer had no delivery with a par is left out (a chart needs a point of every line on every day), and
 * the chart says which.
 */
import type { DailyDeliveryRow } from '../../shared/schemas/processing.ts';
import { type Chart, ratioSeries } from '../content/chart.ts';
import { line } from '../content/rich.ts';

interface Tally {
  met: number;
  par: number;
}

export function parMetByCustomerChart(
  rows: readonly DailyDeliveryRow[],
  customers: readonly { id: string; name: string }[],
  days: readonly string[],
): Chart {
  const byCustomer = new Map<string, Map<string, Tally>>();
  const wanted = new Set(customers.map((c) => c.id));
  const inDays = new Set(days);
  for (const r of rows) {
    if (r.daily_par === null || r.daily_par <= 0 || !wanted.has(r.customer_id) || !inDays.has(r.date)) continue;
    const perDay = byCustomer.get(r.customer_id) ?? new Map<string, Tally>();
    const t = perDay.get(r.date) ?? { met: 0, par: 0 };
    t.met += Math.min(r.delivered_count, r.daily_par);
    t.par += r.daily_par;
    perDay.set(r.date, t);
    byCustomer.set(r.customer_id, perDay);
  }
  const charted = customers.filter((c) => byCustomer.has(c.id));
  const sorted = [...days].sort();
  const kept = sorted.filter((d) => charted.every((c) => byCustomer.get(c.id)!.has(d)));
  const left = sorted.filter((d) => !kept.includes(d));
  const overall = (id: string) => {
    const ts = [...byCustomer.get(id)!.values()];
    return ts.reduce((s, t) => s + t.met, 0) / ts.reduce((s, t) => s + t.par, 0);
  };
  const worstFirst = [...charted].sort((a, b) => overall(a.id) - overall(b.id) || a.name.localeCompare(b.name));
  return {
    kind: 'line',
    title: 'Par met',
    unit: { kind: 'percent' },
    axis: 'days',
    period: 'day',
    categories: kept,
    series: worstFirst.map((c) => {
      const perDay = byCustomer.get(c.id)!;
      return ratioSeries(
        line(c.name),
        kept.map((d) => perDay.get(d)!.met),
        kept.map((d) => perDay.get(d)!.par),
      );
    }),
    nouns: { categories: 'days', series: 'customers' },
    notes: left.length ? [`${left.join(', ')} left out: not every customer had a delivery with a par`] : [],
  };
}
