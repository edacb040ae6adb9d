/** Times as the operator reads them: UTC ISO to the second, and how far from now ("in 3 h", "2 d ago"). */

const UNITS: readonly [ms: number, unit: string][] = [
  [86_400_000, 'd'],
  [3_600_000, 'h'],
  [60_000, 'min'],
  [1_000, 's'],
];

export const isoUtc = (at: Date): string => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function relative(at: Date, now: Date): string {
  const diff = at.getTime() - now.getTime();
  const abs = Math.abs(diff);
  if (abs < 1_000) return 'now';
  // The largest unit that fits, whole: 2 h 59 min is "2 h".
  const [ms, unit] = UNITS.find(([ms]) => abs >= ms)!;
  const n = Math.floor(abs / ms);
  return diff > 0 ? `in ${n} ${unit}` : `${n} ${unit} ago`;
}

export const when = (at: Date, now: Date): string => `${isoUtc(at)} (${relative(at, now)})`;
