/**
 * A neutral chart (chat/content/chart.ts) as Block Kit's data visualization block, within the limits Slack's
 * reference states (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block):
 * - a title of at most 50 characters;
 * - a line, bar or area chart: 1 to 6 series, each with exactly one point for every category and at most 20 points;
 *   series names distinct; x and y axis labels of at most 50 characters;
 * - a pie: 1 to 6 segments, each value greater than 0;
 * - series names, categories and segment labels of at most 20 characters;
 * - at most two data visualization blocks in one message.
 * The reference's versions differ on the series and segments (6 in one, 12 in another): the charts keep to 6, which
 * both allow. `fitChart` degrades a chart to these limits (by week, "Others", …) and says so in its numbers;
 * strings are plain text here (never parsed as mrkdwn), cut and kept distinct.
 */
import {
  type Chart,
  type ChartLimits,
  chartTitle,
  distinctLabels,
  isPie,
  unitLabel,
} from '../../chat/content/chart.ts';
import type { DataVisualizationBlock } from './kit.ts';
import { plain } from './mrkdwn.ts';

export const SLACK_CHART_LIMITS: ChartLimits = { categories: 20, series: 6, segments: 6 };
/** Data visualization blocks in one message. */
export const MAX_CHARTS = 2;
const TITLE = 50;
const LABEL = 20;
const AXIS_LABEL = 50;

const cut = (text: string, max: number) => distinctLabels([text], max)[0]!;

/** What a category is, for the x axis: the period of days ("Week"), else the categories' noun ("Units"). */
const xLabel = (c: Chart) => {
  const s = c.period ?? c.nouns.categories;
  return s.charAt(0).toUpperCase() + s.slice(1);
};

/** The chart (already fitted to `SLACK_CHART_LIMITS` and drawable) as a data visualization block. */
export function dataVisualization(c: Chart): DataVisualizationBlock {
  const title = cut(plain(chartTitle(c)), TITLE);
  const categories = distinctLabels(
    c.categories.map((x) => plain(x)),
    LABEL,
  );
  if (isPie(c)) {
    const values = c.series[0]!.values;
    return {
      type: 'data_visualization',
      title,
      chart: { type: 'pie', segments: categories.map((label, k) => ({ label, value: values[k]! })) },
    };
  }
  const names = distinctLabels(
    c.series.map((s) => plain(s.name)),
    LABEL,
  );
  return {
    type: 'data_visualization',
    title,
    chart: {
      type: c.kind === 'line' ? 'line' : 'bar',
      series: c.series.map((s, j) => ({
        name: names[j]!,
        data: categories.map((label, k) => ({ label, value: s.values[k]! })),
      })),
      axis_config: {
        categories,
        x_label: cut(plain(xLabel(c)), AXIS_LABEL),
        y_label: cut(plain(unitLabel(c.unit)), AXIS_LABEL),
      },
    },
  };
}
