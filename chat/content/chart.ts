/**
 * A chart as a part of an answer: its kind, title, categories and named series of numbers in one unit, built by a
 * view from a report's own numbers and knowing nothing of any platform. Each renderer fits it to its platform with
 * `fitChart` and writes the numbers it plots beside it with `chartNumbers`, so that whatever a chart plots is also
 * written out (screen readers, notifications, the console, clients that draw no chart).
 *
 * `fitChart` degrades a chart in this order, each step said in the chart's notes:
 * 1. days past the categories a platform allows: by week (Monday to Sunday), then by month;
 * 2. ranked or fixed categories past the limit: the first ones (worst first), and how many more were left out;
 * 3. series past the limit: the last ones summed as "Others", or left out where values do not add up;
 * 4. a pie's slices at or below zero are not drawn (nothing to draw); past the limit, the last ones as "Others";
 * 5. numbers that would not fit one paragraph beside the chart (CONTENT_LIMITS.text): days combined further.
 * Days combine, and series fold, exactly: amounts, counts and pounds are summed; a percentage is recomputed from its
 * numerator and denominator (Σ met ÷ Σ par), never averaged. Labels and the title are cut by each renderer to its
 * platform's lengths (`distinctLabels`), the numbers keeping them whole.
 */
import { count, money } from './format.ts';
import { CONTENT_LIMITS, measure } from './limits.ts';
import { b, i, type Rich, r } from './rich.ts';

export type ChartKind = 'line' | 'bar' | 'pie' | 'donut';

/** What the numbers are, as charted: percentages (88.1), amounts in the currency's units (1234.56), pieces, pounds. */
export type ChartUnit =
  | { readonly kind: 'percent' }
  | { readonly kind: 'money'; readonly currency: string }
  | { readonly kind: 'count'; readonly noun: string }
  | { readonly kind: 'pounds' };

/**
 * How the categories run, which says how they may be combined: consecutive org-local days (`YYYY-MM-DD`, oldest
 * first) into weeks and months; ranked ones (worst first) are kept from the top; a fixed set (aging buckets, a
 * pie's slices) is never combined.
 */
export type ChartAxis = 'days' | 'ranked' | 'fixed';

/** The numerator and denominator of each percentage (pieces that met par, and par). */
export interface Ratio {
  readonly num: readonly number[];
  readonly den: readonly number[];
}

export interface ChartSeries {
  readonly name: string;
  /** One value per category, as charted. */
  readonly values: readonly number[];
  /** For a percentage: what it is computed from, so that it combines exactly. */
  readonly ratio?: Ratio | undefined;
}

export interface Chart {
  readonly kind: ChartKind;
  /** What is charted, without its period ("Fill rate and par met"); days add " by day" (or week, month). */
  readonly title: string;
  readonly unit: ChartUnit;
  readonly axis: ChartAxis;
  /** For days: what one category is now. */
  readonly period?: 'day' | 'week' | 'month' | undefined;
  readonly categories: readonly string[];
  /** A pie's one series holds its slices. */
  readonly series: readonly ChartSeries[];
  /** The categories and the series in the plural ("units", "customers"), for what fitting says. */
  readonly nouns: { readonly categories: string; readonly series: string };
  /** What fitting changed ("By week: …", "3 more customers summed as Others"). */
  readonly notes: readonly string[];
}

/** What a platform allows one chart; `Infinity` where its reference states no limit. */
export interface ChartLimits {
  /** Points per series (a line's or bar's categories). */
  readonly categories: number;
  readonly series: number;
  /** A pie's slices. */
  readonly segments: number;
}

export const NO_CHART_LIMITS: ChartLimits = { categories: Infinity, series: Infinity, segments: Infinity };

const round = (x: number, digits: number) => Number(x.toFixed(digits));

/** A fraction as a charted percentage, written as `pct(x, 1)` writes it (0.8812 → 88.1). */
export const percentOf = (num: number, den: number): number => round((num / den) * 100, 1);

/** A percentage per category from its parts: what is charted is num ÷ den of each. */
export function ratioSeries(name: string, num: readonly number[], den: readonly number[]): ChartSeries {
  return { name, values: num.map((n, k) => percentOf(n, den[k]!)), ratio: { num, den } };
}

/** Amounts in integer cents, charted in the currency's units. */
export function moneySeries(name: string, cents: readonly number[]): ChartSeries {
  return { name, values: cents.map((c) => c / 100) };
}

export const isPie = (c: Chart): boolean => c.kind === 'pie' || c.kind === 'donut';

/** The chart's title with its period: "Fill rate and par met by week". */
export const chartTitle = (c: Chart): string => (c.period ? `${c.title} by ${c.period}` : c.title);

/** A short name of the unit, for an axis: `%`, `USD`, `pieces`, `lb`. */
export function unitLabel(unit: ChartUnit): string {
  switch (unit.kind) {
    case 'percent':
      return '%';
    case 'money':
      return unit.currency.toUpperCase();
    case 'count':
      return unit.noun;
    case 'pounds':
      return 'lb';
  }
}

/** Pounds to a tenth, as `toLocaleString` writes them, one format for every value. */
const POUNDS = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A charted value as the answer writes it: `88.1%`, `$1,234.56`, `1,204`, `12.5 lb`. */
export function formatValue(unit: ChartUnit, v: number): string {
  switch (unit.kind) {
    case 'percent':
      return `${v.toFixed(1)}%`;
    case 'money':
      return money(Math.round(v * 100), unit.currency);
    case 'count':
      return count(v);
    case 'pounds':
      return `${POUNDS.format(v)} lb`;
  }
}

/** The sum of charted values in the unit's precision (cents, tenths of a pound, whole pieces); null for rates. */
function sumOf(unit: ChartUnit, values: readonly number[]): number | null {
  const total = values.reduce((t, v) => t + v, 0);
  if (unit.kind === 'money') return round(total, 2);
  if (unit.kind === 'pounds') return round(total, 1);
  if (unit.kind === 'count') return Math.round(total);
  return null;
}

/**
 * A series whose categories are combined into groups (each a list of category indexes), or several series folded
 * into one (`groups` of one index, `series` several): sums, or Σ numerator ÷ Σ denominator. Null where the values
 * do not combine (a percentage without its parts).
 */
function combine(
  unit: ChartUnit,
  name: string,
  series: readonly ChartSeries[],
  groups: readonly (readonly number[])[],
): ChartSeries | null {
  if (unit.kind === 'percent') {
    if (!series.every((s) => s.ratio)) return null;
    const sum = (pick: (ra: Ratio) => readonly number[], g: readonly number[]) =>
      series.reduce((t, s) => t + g.reduce((u, k) => u + pick(s.ratio!)[k]!, 0), 0);
    const num = groups.map((g) => sum((ra) => ra.num, g));
    const den = groups.map((g) => sum((ra) => ra.den, g));
    return ratioSeries(name, num, den);
  }
  const values = groups.map(
    (g) =>
      sumOf(
        unit,
        series.flatMap((s) => g.map((k) => s.values[k]!)),
      )!,
  );
  return { name, values };
}

const DAY_MS = 86_400_000;
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The Monday of an org-local day's week (`YYYY-MM-DD`), by arithmetic on the day's number: parsing a date string
 * for each day of a chart cost more than the rest of its fitting.
 */
const mondayOf = (day: string): string => {
  const days = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / DAY_MS;
  // 1970-01-01 was a Thursday: day 0 is 3 days after a Monday.
  const d = new Date((days - ((days + 3) % 7)) * DAY_MS);
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`;
};

/** Days by week or by month; null when the chart is not of days or its values do not combine. */
function daysBy(c: Chart, by: 'week' | 'month'): Chart | null {
  if (c.axis !== 'days' || c.period !== 'day') return null;
  const keyOf = by === 'week' ? mondayOf : (day: string) => day.slice(0, 7);
  const groups = new Map<string, number[]>();
  c.categories.forEach((day, k) => {
    const key = keyOf(day);
    const group = groups.get(key);
    if (group) group.push(k);
    else groups.set(key, [k]);
  });
  const idx = [...groups.values()];
  const series = c.series.map((s) => combine(c.unit, s.name, [s], idx));
  if (series.some((s) => s === null)) return null;
  // A week is named by the first and last days charted in it (`11-09–11-15`), a month as `2026-11`.
  const categories =
    by === 'week'
      ? idx.map((g) => {
          const a = c.categories[g[0]!]!;
          const z = c.categories[g[g.length - 1]!]!;
          return a === z ? a : `${a.slice(5)}–${z.slice(5)}`;
        })
      : [...groups.keys()];
  return { ...c, period: by, categories, series: series as ChartSeries[] };
}

/** The chart of days by each wider period in turn, each combined only when asked for (a week that fits is enough). */
function* widenings(c: Chart): Generator<Chart> {
  const week = daysBy(c, 'week');
  if (week) yield week;
  const month = daysBy(c, 'month');
  if (month) yield month;
}

/** The first widening that `fits`, else the widest there is (none: null). */
function widenUntil(c: Chart, fits: (w: Chart) => boolean): { chart: Chart; fits: boolean } | null {
  let widest: Chart | null = null;
  for (const w of widenings(c)) {
    if (fits(w)) return { chart: w, fits: true };
    widest = w;
  }
  return widest && { chart: widest, fits: false };
}

const plural = (n: number, noun: string) => `${count(n)} ${noun}`;

/** Days widened until they fit `max` categories; past months, the latest months. */
function fitDays(c: Chart, max: number, why: (days: number) => string): Chart {
  if (c.categories.length <= max) return c;
  const wider = widenUntil(c, (w) => w.categories.length <= max);
  if (wider?.fits) return { ...wider.chart, notes: [...c.notes, why(c.categories.length)] };
  const widest = wider?.chart;
  return widest
    ? cutCategories({ ...widest, notes: [...c.notes, why(c.categories.length)] }, max, 'last')
    : cutCategories(c, max, 'last');
}

/** The first (or, for days, the latest) `max` categories, saying how many more were left out. */
function cutCategories(c: Chart, max: number, keep: 'first' | 'last'): Chart {
  const n = c.categories.length;
  if (n <= max) return c;
  const from = keep === 'first' ? 0 : n - max;
  const slice = <T>(xs: readonly T[]) => xs.slice(from, from + max);
  const left = keep === 'first' ? c.categories.length - max : from;
  // What the categories left out add up to, where values add up.
  const rest =
    keep === 'first' ? (xs: readonly number[]) => xs.slice(max) : (xs: readonly number[]) => xs.slice(0, from);
  const sums = c.series
    .map((s) => {
      const total = sumOf(c.unit, rest(s.values));
      return total === null ? null : formatValue(c.unit, total);
    })
    .filter((x) => x !== null);
  const what = `${plural(left, `more ${c.nouns.categories}`)} not charted${sums.length === 1 ? ` (${sums[0]})` : ''}`;
  return {
    ...c,
    categories: slice(c.categories),
    series: c.series.map((s) => ({
      name: s.name,
      values: slice(s.values),
      ...(s.ratio ? { ratio: { num: slice(s.ratio.num), den: slice(s.ratio.den) } } : {}),
    })),
    notes: [...c.notes, what],
  };
}

/** The first `max − 1` series, and the rest as "Others" (or left out where they do not add up). */
function foldSeries(c: Chart, max: number): Chart {
  if (c.series.length <= max) return c;
  const keep = c.series.slice(0, max - 1);
  const rest = c.series.slice(max - 1);
  const others = combine(
    c.unit,
    'Others',
    rest,
    c.categories.map((_, k) => [k]),
  );
  if (others)
    return {
      ...c,
      series: [...keep, others],
      notes: [...c.notes, `${plural(rest.length, `more ${c.nouns.series}`)} summed as Others`],
    };
  return {
    ...c,
    series: c.series.slice(0, max),
    notes: [...c.notes, `${plural(c.series.length - max, `more ${c.nouns.series}`)} not charted`],
  };
}

/** A pie's slices above zero, the last ones past `max` summed as "Others". */
function fitPie(c: Chart, max: number): Chart {
  const s = c.series[0];
  if (!s) return c;
  const none = c.categories.filter((_, k) => !(s.values[k]! > 0));
  const kept = c.categories.map((_, k) => k).filter((k) => s.values[k]! > 0);
  let categories = kept.map((k) => c.categories[k]!);
  let values = kept.map((k) => s.values[k]!);
  const notes = [...c.notes];
  if (none.length)
    notes.push(
      `not drawn: ${none.map((cat) => `${cat} ${formatValue(c.unit, s.values[c.categories.indexOf(cat)]!)}`).join(', ')}`,
    );
  if (categories.length > max) {
    const rest = values.slice(max - 1);
    const total = sumOf(c.unit, rest);
    if (total !== null) {
      notes.push(`${plural(rest.length, `more ${c.nouns.categories}`)} summed as Others`);
      categories = [...categories.slice(0, max - 1), 'Others'];
      values = [...values.slice(0, max - 1), total];
    } else {
      notes.push(`${plural(categories.length - max, `more ${c.nouns.categories}`)} not charted`);
      categories = categories.slice(0, max);
      values = values.slice(0, max);
    }
  }
  return { ...c, categories, series: [{ name: s.name, values }], notes };
}

/**
 * The chart within `limits` and with numbers that fit one paragraph: the degradation in the order above, each step
 * noted. A renderer draws what comes back (when `isDrawable`) and writes its `chartNumbers` beside it.
 */
export function fitChart(chart: Chart, limits: ChartLimits): Chart {
  let c = chart;
  if (isPie(c)) c = fitPie(c, limits.segments);
  else {
    c =
      c.axis === 'days'
        ? fitDays(
            c,
            limits.categories,
            (days) => `${days} days are more than the ${limits.categories} points a chart holds here`,
          )
        : cutCategories(c, limits.categories, 'first');
    c = foldSeries(c, limits.series);
  }
  // The numbers must fit beside the chart: days are widened until they do (and say why).
  if (measure(chartNumbers(c)) > CONTENT_LIMITS.text && c.period === 'day') {
    const why = `the numbers of ${c.categories.length} days would not fit beside the chart`;
    const wider = widenUntil(c, (w) => measure(chartNumbers(w)) <= CONTENT_LIMITS.text);
    if (wider) c = { ...wider.chart, notes: [why, ...c.notes] };
  }
  return c;
}

/** Whether there is anything to draw: some category, and some series. */
export const isDrawable = (c: Chart): boolean =>
  c.categories.length > 0 && c.series.length > 0 && c.series.every((s) => s.values.length === c.categories.length);

/**
 * What the chart plots, compactly: its title (and what fitting changed), then each series as `category value · …`
 * (a pie's slices on one line). The numbers are the chart's own, formatted as the answer writes them.
 */
export function chartNumbers(c: Chart): Rich {
  const head = r`${b(chartTitle(c))}${c.notes.length ? [' (', i(c.notes.join('; ')), ')'] : ''}`;
  const row = (s: ChartSeries) =>
    c.categories.map((cat, k) => `${cat} ${formatValue(c.unit, s.values[k] ?? 0)}`).join(' · ');
  const lines: Rich[] = isPie(c) ? c.series.map((s) => [row(s)]) : c.series.map((s) => [`${s.name}: ${row(s)}`]);
  const out: Rich[number][] = [...head];
  for (const l of lines) out.push('\n', ...l);
  return out;
}

/**
 * Labels cut to `max` characters (an ellipsis at the cut) and kept distinct (a number at the end of a repeat), for
 * platforms that limit a label's length and match points to categories by label.
 */
export function distinctLabels(labels: readonly string[], max: number): string[] {
  const cut = (s: string, n: number) => {
    // No longer than `n` in UTF-16 units is no longer in characters: most labels, kept without splitting them.
    if (s.length <= n) return s;
    const chars = [...s];
    return chars.length <= n ? s : `${chars.slice(0, Math.max(1, n - 1)).join('')}…`;
  };
  const seen = new Set<string>();
  return labels.map((raw) => {
    const base = cut(raw.trim() || '—', max);
    let label = base;
    for (let n = 2; seen.has(label); n++) label = `${cut(base, max - String(n).length - 1)} ${n}`;
    seen.add(label);
    return label;
  });
}
