/**
 * Charts and tables drawn in plain text, for a terminal (the console shows Slack's and Teams' answers this way) and
 * for a line of an answer (the par met sparkline): a sparkline per series of a line chart, the numbers of each
 * category in aligned columns, a bar beside each number of a one-series bar chart or pie, and a table's cells in
 * columns, numbers right-aligned. Each console renderer reads its platform's chart or table back into these.
 */
import type { Align } from './table.ts';

const BARS = '▁▂▃▄▅▆▇█';

/**
 * One bar per value, scaled between the lowest and highest so that movement shows (the numbers are written beside
 * it). A value that is not known shows `·`.
 */
export function sparkline(values: readonly (number | null)[]): string {
  const known = values.filter((v): v is number => v !== null);
  const lo = Math.min(...known);
  const hi = Math.max(...known);
  const span = hi - lo;
  return values
    .map((v) => {
      if (v === null) return '·';
      const level =
        span < 0.005 * Math.max(1, Math.abs(hi)) ? (BARS.length - 1) / 2 : ((v - lo) / span) * (BARS.length - 1);
      return BARS[Math.round(level)];
    })
    .join('');
}

export interface TextChart {
  title: string;
  kind: 'line' | 'bar' | 'pie';
  /** Written after each number: `%`, `USD`, `lb`, `pieces`. */
  unit?: string | undefined;
  categories: readonly string[];
  series: readonly { name: string; values: readonly number[] }[];
}

const numberIn = (unit: string | undefined) => (v: number) => {
  const n = v.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return !unit ? n : unit === '%' ? `${n}%` : `${n} ${unit}`;
};
const width = (s: string) => [...s].length;
const pad = (s: string, n: number, align: Align) => {
  const gap = Math.max(0, n - width(s));
  if (align === 'right') return ' '.repeat(gap) + s;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + s + ' '.repeat(Math.ceil(gap / 2));
  return s + ' '.repeat(gap);
};

/** A horizontal bar of `v` out of `max`, at most `cells` wide, in eighths. */
function bar(v: number, max: number, cells = 24): string {
  if (!(v > 0) || !(max > 0)) return '';
  const eighths = Math.max(1, Math.round((v / max) * cells * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + (eighths % 8 ? '▏▎▍▌▋▊▉'[(eighths % 8) - 1] : '');
}

/** The chart as lines: its title, a sparkline per series of a line chart, then each category's numbers. */
export function chartAsText(c: TextChart): string[] {
  const number = numberIn(c.unit);
  const out = [c.title];
  if (c.kind === 'line') out.push(`  ${c.series.map((s) => `${s.name} ${sparkline(s.values)}`).join('   ')}`);
  const catWidth = Math.max(...c.categories.map(width), 0);
  const one = c.series.length === 1;
  const cols = c.series.map((s) => Math.max(one ? 0 : width(s.name), ...s.values.map((v) => width(number(v)))));
  if (!one)
    out.push(`  ${pad('', catWidth, 'left')}  ${c.series.map((s, k) => pad(s.name, cols[k]!, 'right')).join('  ')}`);
  const max = Math.max(...(c.series[0]?.values ?? []));
  c.categories.forEach((cat, k) => {
    const cells = c.series.map((s, j) => pad(number(s.values[k] ?? 0), cols[j]!, 'right')).join('  ');
    const drawn = one && c.kind !== 'line' ? `  ${bar(c.series[0]!.values[k]!, max)}` : '';
    out.push(`  ${pad(cat, catWidth, 'left')}  ${cells}${drawn}`.trimEnd());
  });
  return out;
}

/** Widest a cell is shown in a terminal before it is cut (a signal's summary). */
const MAX_CELL = 60;

/** The table as lines: the header, a rule, then the rows; each column as wide as its widest cell. */
export function tableAsText(
  headers: readonly string[],
  aligns: readonly Align[],
  rows: readonly (readonly string[])[],
): string[] {
  const cut = (s: string) => (width(s) > MAX_CELL ? `${[...s].slice(0, MAX_CELL - 1).join('')}…` : s);
  const all = [headers, ...rows].map((row) => row.map((cell) => cut(cell.replace(/\s*\n\s*/g, ' '))));
  const widths = headers.map((_, k) => Math.max(...all.map((row) => width(row[k] ?? ''))));
  const line = (row: readonly string[]) =>
    `  ${row.map((cell, k) => pad(cell, widths[k]!, aligns[k] ?? 'left')).join('  ')}`.trimEnd();
  return [line(all[0]!), `  ${widths.map((w) => '-'.repeat(w)).join('  ')}`, ...all.slice(1).map(line)];
}
