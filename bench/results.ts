/**
 * The figures a benchmark run produces, as written to bench/results.json: each one a value with, where it
 * applies, the baseline measured in the same run (or the limit it is held against), the ratio between them,
 * the target and whether the run met it. The README's table is generated from this file (bench/table.ts).
 */
import { writeFileSync } from 'node:fs';

export interface Figure {
  /** Stable across runs: the README and readers refer to it. */
  id: string;
  label: string;
  /** A number; a string only for the run's own description (`run.*`); null when not measured. */
  value: number | string | null;
  unit: string | null;
  baseline: number | null;
  ratio: number | null;
  /** The target in words, with the figure it applies to (value or ratio), e.g. "<= 8 requests". */
  target: string | null;
  met: boolean | null;
}

/** The run's own description, stored as figures so results.json stays one array. */
export const RUN_IDS = { date: 'run.date', machine: 'run.machine', load: 'run.load', mode: 'run.mode' } as const;

const FIELDS = ['id', 'label', 'value', 'unit', 'baseline', 'ratio', 'target', 'met'] as const;

/** Why `data` is not a results.json array, or null when it is one. */
export function resultsProblem(data: unknown): string | null {
  if (!Array.isArray(data)) return 'results.json must be an array of figures';
  const seen = new Set<string>();
  for (const [i, f] of data.entries()) {
    if (!f || typeof f !== 'object') return `figure ${i} is not an object`;
    const keys = Object.keys(f).sort();
    if (keys.join() !== [...FIELDS].sort().join())
      return `figure ${i} must have exactly the fields ${FIELDS.join(', ')}`;
    const g = f as Record<string, unknown>;
    if (typeof g.id !== 'string' || !g.id) return `figure ${i} has no id`;
    if (seen.has(g.id)) return `figure ${g.id} appears twice`;
    seen.add(g.id);
    if (typeof g.label !== 'string') return `figure ${g.id} has no label`;
    const numberOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v));
    if (!numberOrNull(g.value) && !(typeof g.value === 'string' && g.id.startsWith('run.')))
      return `figure ${g.id}: value must be a finite number or null`;
    if (!numberOrNull(g.baseline) || !numberOrNull(g.ratio))
      return `figure ${g.id}: baseline and ratio must be finite numbers or null`;
    if (g.unit !== null && typeof g.unit !== 'string') return `figure ${g.id}: unit must be a string or null`;
    if (g.target !== null && typeof g.target !== 'string') return `figure ${g.id}: target must be a string or null`;
    if (g.met !== null && typeof g.met !== 'boolean') return `figure ${g.id}: met must be true, false or null`;
    if ((g.target === null) !== (g.met === null)) return `figure ${g.id}: a target needs met, and met a target`;
  }
  return null;
}

/** `a / b` rounded for reading, or null when either side is missing or b is 0. */
export function ratioOf(a: number | null, b: number | null, digits = 2): number | null {
  if (a === null || b === null || b === 0) return null;
  return round(a / b, digits);
}

export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export type FigureInput = Pick<Figure, 'id' | 'label' | 'value'> & Partial<Omit<Figure, 'id' | 'label' | 'value'>>;

/** Collects the figures of one run, printing each as it comes. */
export class Results {
  readonly figures: Figure[] = [];

  constructor(private readonly print: (line: string) => void = console.log) {}

  add(input: FigureInput): Figure {
    const figure: Figure = {
      id: input.id,
      label: input.label,
      value: input.value,
      unit: input.unit ?? null,
      baseline: input.baseline ?? null,
      ratio: input.ratio ?? null,
      target: input.target ?? null,
      met: input.met ?? null,
    };
    const existing = this.figures.findIndex((f) => f.id === figure.id);
    if (existing >= 0) this.figures[existing] = figure;
    else this.figures.push(figure);
    const extra = [
      figure.baseline !== null ? `baseline ${figure.baseline}` : '',
      figure.ratio !== null ? `ratio ${figure.ratio}` : '',
      figure.target !== null ? `target ${figure.target}: ${figure.met ? 'met' : 'NOT MET'}` : '',
    ].filter(Boolean);
    this.print(
      `${figure.id.padEnd(36)} ${String(figure.value ?? 'n/a')} ${figure.unit ?? ''}${extra.length ? `  (${extra.join(', ')})` : ''}`,
    );
    return figure;
  }

  write(path: string): void {
    const problem = resultsProblem(this.figures);
    if (problem) throw new Error(problem);
    writeFileSync(path, `${JSON.stringify(this.figures, null, 2)}\n`);
  }
}
