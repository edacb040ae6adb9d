/**
 * The par met of several customers over the last days (chat/views/par-met-chart.ts), the shortfall digest's
 * chart: each point Σ min(delivered, par) ÷ Σ par of the customer's rows that day, the worst customer first, days a
 * customer had no delivery with a par left out and named, and customers past a platform's series folded into
 * "Others" exactly.
 */
import { describe, expect, it } from 'vitest';
import { fitChart, percentOf } from '../../chat/content/chart.ts';
import { parMetByCustomerChart } from '../../chat/views/par-met-chart.ts';
import type { DailyDeliveryRow } from '../../shared/schemas/processing.ts';

const DAYS = ['2026-11-13', '2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19'];

const row = (customer: number, date: string, delivered: number, par: number | null): DailyDeliveryRow => ({
  date,
  customer_id: `c${customer}`,
  customer_name: `Customer ${customer}`,
  department_id: null,
  department_name: null,
  item_id: `it${delivered % 3}`,
  item_name: 'Bath Towel',
  delivered_count: delivered,
  daily_par: par,
  fill_rate: null,
});

const customers = Array.from({ length: 8 }, (_, k) => ({ id: `c${k}`, name: `Customer ${k}` }));

/** Two rows a day of each customer: one over par, one under it; the larger `k`, the worse. */
const rows = customers.flatMap((_, k) =>
  DAYS.flatMap((d, j) => [row(k, d, 60 + j, 50), row(k, d, 40 - k - j, 45), row(k, d, 7, null)]),
);

describe("the digest's par met chart", () => {
  it('is each day Σ min(delivered, par) ÷ Σ par, the worst customer first', () => {
    const chart = parMetByCustomerChart(rows, customers, DAYS);
    expect(chart.title).toBe('Par met');
    expect(chart.categories).toEqual(DAYS);
    expect(chart.series.map((s) => s.name)).toEqual(customers.map((c) => c.name).reverse());
    const worst = chart.series[0]!;
    expect(worst.values).toEqual(DAYS.map((_, j) => percentOf(50 + (40 - 7 - j), 95)));
  });

  it('leaves out a day a customer had no delivery with a par, and names it', () => {
    const gap = rows.filter((r) => !(r.customer_id === 'c2' && r.date === '2026-11-15'));
    const chart = parMetByCustomerChart(gap, customers, DAYS);
    expect(chart.categories).toEqual(DAYS.filter((d) => d !== '2026-11-15'));
    expect(chart.notes).toEqual(['2026-11-15 left out: not every customer had a delivery with a par']);
  });

  it('folds the customers past a platform’s series into "Others", recomputed from their rows', () => {
    const chart = parMetByCustomerChart(rows, customers, DAYS);
    const fitted = fitChart(chart, { categories: 20, series: 6, segments: 6 });
    expect(fitted.series.map((s) => s.name)).toEqual([
      'Customer 7',
      'Customer 6',
      'Customer 5',
      'Customer 4',
      'Customer 3',
      'Others',
    ]);
    // Others: customers 2, 1 and 0, their met and par summed each day.
    expect(fitted.series[5]!.values).toEqual(
      DAYS.map((_, j) =>
        percentOf(
          [2, 1, 0].reduce((s, k) => s + 50 + (40 - k - j), 0),
          3 * 95,
        ),
      ),
    );
  });
});
