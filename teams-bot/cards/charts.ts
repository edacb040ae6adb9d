/**
 * A neutral chart (chat/content/chart.ts) as one of the Adaptive Card charts Teams draws
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/charts-in-adaptive-cards):
 * a line as `Chart.Line`, a bar chart of one ranked series (worst first, long names) as `Chart.HorizontalBar`, of
 * one other series as `Chart.VerticalBar`, of several series as `Chart.VerticalBar.Grouped`, a pie as `Chart.Pie`
 * and a donut as `Chart.Donut`. Teams' reference states no limit on a chart's points, series or labels; what bounds
 * a chart is the card's size (render.ts) and the colours that tell series apart: each series (or slice) gets its
 * own colour of the categorical set the chart colors reference names (nine), so a chart holds nine series, the
 * rest summed as "Others" by `fitChart`. Days are charted by day as `YYYY-MM-DD`, which Teams draws as a time
 * series. Clients that draw no chart (Teams on mobile) drop it (`fallback: drop`) and show its numbers, written
 * under every chart.
 */
import type { ChartColor, IAdaptiveCard } from '@microsoft/teams.cards';
import { type Chart, type ChartLimits, chartTitle, unitLabel } from '../../chat/content/chart.ts';
import { line } from '../../chat/content/rich.ts';

type Element = NonNullable<IAdaptiveCard['body']>[number];

/** The categorical colours of the chart colors reference (https://adaptivecards.microsoft.com/?topic=chart-colors-reference). */
export const SERIES_COLORS: readonly ChartColor[] = [
  'categoricalBlue',
  'categoricalMarigold',
  'categoricalTeal',
  'categoricalPurple',
  'categoricalRed',
  'categoricalGreen',
  'categoricalLavender',
  'categoricalLightBlue',
  'categoricalLime',
];

export const TEAMS_CHART_LIMITS: ChartLimits = {
  categories: Infinity,
  series: SERIES_COLORS.length,
  segments: SERIES_COLORS.length,
};

const colorOf = (k: number) => SERIES_COLORS[k % SERIES_COLORS.length]!;

const xTitle = (c: Chart) => {
  const s = c.period ?? c.nouns.categories;
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/** The chart (already fitted to `TEAMS_CHART_LIMITS` and drawable) as a Teams chart element. */
export function chartElement(c: Chart): Element {
  const common = { title: line(chartTitle(c)), showTitle: true, fallback: 'drop' as const };
  const categories = c.categories.map((x) => line(x));
  const axes = { xAxisTitle: line(xTitle(c)), yAxisTitle: line(unitLabel(c.unit)) };
  const points = (values: readonly number[]) => categories.map((x, k) => ({ x, y: values[k]! }));
  if (c.kind === 'pie' || c.kind === 'donut') {
    const values = c.series[0]!.values;
    const data = categories.map((legend, k) => ({ legend, value: values[k]!, color: colorOf(k) }));
    return c.kind === 'pie' ? { type: 'Chart.Pie', ...common, data } : { type: 'Chart.Donut', ...common, data };
  }
  if (c.kind === 'line')
    return {
      type: 'Chart.Line',
      ...common,
      ...axes,
      data: c.series.map((s, j) => ({ legend: line(s.name), color: colorOf(j), values: points(s.values) })),
    };
  if (c.series.length > 1)
    return {
      type: 'Chart.VerticalBar.Grouped',
      ...common,
      ...axes,
      data: c.series.map((s, j) => ({ legend: line(s.name), color: colorOf(j), values: points(s.values) })),
    };
  const only = c.series[0]!;
  return c.axis === 'ranked'
    ? { type: 'Chart.HorizontalBar', ...common, ...axes, color: colorOf(0), data: points(only.values) }
    : { type: 'Chart.VerticalBar', ...common, ...axes, color: colorOf(0), data: points(only.values) };
}
