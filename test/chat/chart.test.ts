/**
 * The neutral chart (chat/content/chart.ts): fitting a chart to a platform's limits in the stated order (days by
 * week then by month, ranked categories cut and counted, series folded into "Others", a pie's empty slices not
 * drawn), always exactly (sums, and percentages as Σ numerator ÷ Σ denominator), the numbers written beside a chart
 * within one paragraph, and labels cut and kept distinct. Properties run over random charts and limits.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Chart,
  chartNumbers,
  distinctLabels,
  fitChart,
  isDrawable,
  moneySeries,
  NO_CHART_LIMITS,
  percentOf,
  ratioSeries,
} from '../../chat/content/chart.ts';
import { pct } from '../../chat/content/format.ts';
import { CONTENT_LIMITS, measure } from '../../chat/content/limits.ts';
import { plainText } from '../../chat/content/rich.ts';
import { addDays } from '../../shared/dates.ts';
import { runs } from '../support/hostile.ts';

const SLACK = { categories: 20, series: 6, segments: 6 };
const numbers = (c: Chart) => plainText(chartNumbers(c));

/** `n` days from 2026-09-01 (a Tuesday), a fill rate of delivered ÷ par each. */
function days(n: number, first = '2026-09-01') {
  const dates = Array.from({ length: n }, (_, k) => addDays(first, k));
  const delivered = dates.map((_, k) => 80 + (k % 7) * 3);
  const par = dates.map((_, k) => 100 + (k % 5));
  const chart: Chart = {
    kind: 'line',
    title: 'Fill rate',
    unit: { kind: 'percent' },
    axis: 'days',
    period: 'day',
    categories: dates,
    series: [ratioSeries('Fill rate', delivered, par)],
    nouns: { categories: 'days', series: 'rates' },
    notes: [],
  };
  return { dates, delivered, par, chart };
}

function agingChart(customers: number): Chart {
  return {
    kind: 'bar',
    title: 'Aging (USD)',
    unit: { kind: 'money', currency: 'usd' },
    axis: 'fixed',
    categories: ['Current', '1–30 days', '31–60 days', '61+ days'],
    series: Array.from({ length: customers }, (_, k) =>
      moneySeries(`Customer ${k}`, [100_001 * (k + 1), 2_503 * k, 99, 0]),
    ),
    nouns: { categories: 'aging buckets', series: 'customers' },
    notes: [],
  };
}

describe('a percentage as charted', () => {
  it('is the fraction written as the answers write it, to one decimal', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (num, den) => {
        expect(`${percentOf(num, den).toFixed(1)}%`).toBe(pct(num / den, 1));
      }),
      runs(2000),
    );
  });
});

describe('days past the categories a chart holds', () => {
  it('are charted by week (Monday to Sunday), each week Σ delivered ÷ Σ par, and the chart says so', () => {
    const { dates, delivered, par, chart } = days(30);
    const fitted = fitChart(chart, SLACK);
    expect(fitted.period).toBe('week');
    // 2026-09-01 is a Tuesday: a partial first week of six days, then weeks of seven, then the rest.
    expect(fitted.categories).toEqual(['09-01–09-06', '09-07–09-13', '09-14–09-20', '09-21–09-27', '09-28–09-30']);
    const week = (from: number, to: number) =>
      percentOf(
        delivered.slice(from, to).reduce((s, x) => s + x, 0),
        par.slice(from, to).reduce((s, x) => s + x, 0),
      );
    expect(fitted.series[0]!.values).toEqual([week(0, 6), week(6, 13), week(13, 20), week(20, 27), week(27, 30)]);
    expect(fitted.notes).toEqual(['30 days are more than the 20 points a chart holds here']);
    expect(numbers(fitted)).toMatch(/^Fill rate by week \(30 days are more than the 20 points a chart holds here\)\n/);
    expect(dates).toHaveLength(30);
  });

  it('by month where weeks are still too many', () => {
    const { chart, delivered, par } = days(200);
    const fitted = fitChart(chart, SLACK);
    expect(fitted.period).toBe('month');
    expect(fitted.categories).toEqual(['2026-09', '2026-10', '2026-11', '2026-12', '2027-01', '2027-02', '2027-03']);
    // September is the first 30 days.
    const sum = (xs: number[]) => xs.slice(0, 30).reduce((s, x) => s + x, 0);
    expect(fitted.series[0]!.values[0]).toBe(percentOf(sum(delivered), sum(par)));
  });

  it('stay days where the platform allows them, unless their numbers would not fit beside the chart', () => {
    expect(fitChart(days(60).chart, NO_CHART_LIMITS).period).toBe('day');
    const long = fitChart(days(250).chart, NO_CHART_LIMITS);
    expect(long.period).toBe('week');
    expect(long.notes).toEqual(['the numbers of 250 days would not fit beside the chart']);
    expect(measure(chartNumbers(long))).toBeLessThanOrEqual(CONTENT_LIMITS.text);
  });

  it('that do not combine (a percentage without its parts) are the latest ones, the rest counted', () => {
    const { chart } = days(25);
    const bare: Chart = { ...chart, series: chart.series.map((s) => ({ name: s.name, values: s.values })) };
    const fitted = fitChart(bare, SLACK);
    expect(fitted.categories).toEqual(chart.categories.slice(5));
    expect(fitted.notes).toEqual(['5 more days not charted']);
  });
});

describe('ranked categories past the limit', () => {
  it('are the first (worst) ones, and how many more there are with what they add up to', () => {
    const chart: Chart = {
      kind: 'bar',
      title: 'Pieces missing by unit',
      unit: { kind: 'count', noun: 'pieces' },
      axis: 'ranked',
      categories: Array.from({ length: 25 }, (_, k) => `Unit ${k}`),
      series: [{ name: 'Missing', values: Array.from({ length: 25 }, (_, k) => 100 - k) }],
      nouns: { categories: 'units', series: 'series' },
      notes: [],
    };
    const fitted = fitChart(chart, SLACK);
    expect(fitted.categories).toEqual(chart.categories.slice(0, 20));
    expect(fitted.series[0]!.values).toEqual(chart.series[0]!.values.slice(0, 20));
    expect(fitted.notes).toEqual([`5 more units not charted (${80 + 79 + 78 + 77 + 76})`]);
  });
});

describe('series past the limit', () => {
  it('amounts: the first five and "Others", the sum of the rest in each category, to the cent', () => {
    const chart = agingChart(9);
    const fitted = fitChart(chart, SLACK);
    expect(fitted.series.map((s) => s.name)).toEqual([
      'Customer 0',
      'Customer 1',
      'Customer 2',
      'Customer 3',
      'Customer 4',
      'Others',
    ]);
    const rest = chart.series.slice(5);
    expect(fitted.series[5]!.values).toEqual(
      [0, 1, 2, 3].map((k) => Math.round(rest.reduce((s, x) => s + x.values[k]! * 100, 0)) / 100),
    );
    expect(fitted.notes).toEqual(['4 more customers summed as Others']);
    expect(numbers(fitted)).toContain('Others: Current $');
  });

  it('percentages: "Others" is Σ numerator ÷ Σ denominator of the rest, never an average', () => {
    const base = days(7).chart;
    const series = Array.from({ length: 8 }, (_, k) =>
      ratioSeries(
        `C${k}`,
        base.categories.map((_, d) => 50 + k * 5 + d),
        base.categories.map((_, d) => 100 + k * 40 + d),
      ),
    );
    const fitted = fitChart({ ...base, series }, SLACK);
    const rest = series.slice(5);
    expect(fitted.series[5]!.values).toEqual(
      base.categories.map((_, d) =>
        percentOf(
          rest.reduce((s, x) => s + x.ratio!.num[d]!, 0),
          rest.reduce((s, x) => s + x.ratio!.den[d]!, 0),
        ),
      ),
    );
  });

  it('that do not add up are the first six, the rest counted', () => {
    const base = days(7).chart;
    const series = Array.from({ length: 8 }, (_, k) => ({ name: `C${k}`, values: base.categories.map(() => 50 + k) }));
    const fitted = fitChart({ ...base, series }, SLACK);
    expect(fitted.series.map((s) => s.name)).toEqual(['C0', 'C1', 'C2', 'C3', 'C4', 'C5']);
    expect(fitted.notes).toEqual(['2 more rates not charted']);
  });
});

describe("a pie's slices", () => {
  const pie = (values: number[]): Chart => ({
    kind: 'donut',
    title: 'Rewash by fault',
    unit: { kind: 'pounds' },
    axis: 'fixed',
    categories: values.map((_, k) => `Slice ${k}`),
    series: [{ name: 'Rewash', values }],
    nouns: { categories: 'faults', series: 'series' },
    notes: [],
  });

  it('at zero are not drawn, and the numbers say so', () => {
    const fitted = fitChart(pie([8, 0]), SLACK);
    expect(fitted.categories).toEqual(['Slice 0']);
    expect(numbers(fitted)).toContain('not drawn: Slice 1 0.0 lb');
    expect(isDrawable(fitChart(pie([0, 0]), SLACK))).toBe(false);
  });

  it('past the limit: the first five and "Others", the sum of the rest', () => {
    const fitted = fitChart(pie([1, 2, 3, 4, 5, 6.5, 7.25]), SLACK);
    expect(fitted.categories).toEqual(['Slice 0', 'Slice 1', 'Slice 2', 'Slice 3', 'Slice 4', 'Others']);
    expect(fitted.series[0]!.values.at(-1)).toBe(13.8);
  });
});

describe('the numbers beside a chart', () => {
  it('are each series, category by category, as the answer writes them', () => {
    const fitted = fitChart(agingChart(2), SLACK);
    expect(numbers(fitted)).toBe(
      [
        'Aging (USD)',
        'Customer 0: Current $1,000.01 · 1–30 days $0.00 · 31–60 days $0.99 · 61+ days $0.00',
        'Customer 1: Current $2,000.02 · 1–30 days $25.03 · 31–60 days $0.99 · 61+ days $0.00',
      ].join('\n'),
    );
  });
});

describe('labels', () => {
  it('are cut to the length a platform allows and kept distinct', () => {
    const labels = distinctLabels(
      ['Mercy General Hospital', 'Mercy General Hospital', 'Mercy General Hospice', '', 'ICU'],
      20,
    );
    expect(labels).toEqual(['Mercy General Hospi…', 'Mercy General Hos… 2', 'Mercy General Hos… 3', '—', 'ICU']);
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 30 }),
        fc.integer({ min: 5, max: 30 }),
        (xs, max) => {
          const out = distinctLabels(xs, max);
          expect(new Set(out).size).toBe(out.length);
          for (const l of out) expect([...l].length).toBeLessThanOrEqual(max);
        },
      ),
      runs(500),
    );
  });
});

describe('any chart, any limits', () => {
  it('fits: no more categories, series or slices than allowed, a point of every series in every category', () => {
    const limits = fc.record({
      categories: fc.integer({ min: 1, max: 25 }),
      series: fc.integer({ min: 1, max: 10 }),
      segments: fc.integer({ min: 1, max: 10 }),
    });
    const chart = fc.oneof(
      fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 8 })).map(([n, s]): Chart => {
        const base = days(n).chart;
        return {
          ...base,
          series: Array.from({ length: s }, (_, k) =>
            ratioSeries(
              `S${k}`,
              base.categories.map((_, d) => (d * 7 + k) % 90),
              base.categories.map((_, d) => 90 + ((d + k) % 11)),
            ),
          ),
        };
      }),
      fc.integer({ min: 1, max: 20 }).map(agingChart),
    );
    fc.assert(
      fc.property(chart, limits, (c, l) => {
        const fitted = fitChart(c, l);
        expect(fitted.series.length).toBeLessThanOrEqual(l.series);
        for (const s of fitted.series) expect(s.values).toHaveLength(fitted.categories.length);
        if (c.axis === 'days') {
          // Days keep every day up to a month's worth of weeks; then the latest are kept and counted.
          expect(fitted.categories.length).toBeLessThanOrEqual(l.categories);
          expect(measure(chartNumbers(fitted))).toBeLessThanOrEqual(CONTENT_LIMITS.text);
        } else if (c.categories.length <= l.categories) {
          // Folding series keeps every cent: the chart adds up to what was given.
          const total = (x: Chart) =>
            x.series.reduce((s, y) => s + y.values.reduce((t, v) => t + Math.round(v * 100), 0), 0);
          expect(total(fitted)).toBe(total(c));
        }
      }),
      runs(300),
    );
  });
});
