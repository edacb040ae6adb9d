/**
 * Hostile input for the property-based tests (fast-check): what a person may type or paste, and what an API may
 * send, mixed with arbitrary strings. Every property runs from a fixed seed, so a failure replays: fast-check
 * prints the seed and the path of the shrunk counterexample.
 */
import fc from 'fast-check';

/** The one seed of every property in the suites. */
export const SEED = 20_261_123;

/** The runs for a property, from the fixed seed. */
export const runs = (numRuns: number) => ({ seed: SEED, numRuns });

export const HOSTILE: readonly string[] = [
  '',
  ' ',
  'x'.repeat(4000),
  'ab'.repeat(2000),
  '\u0000\u0007\u001b[31m\u007f',
  '\t\r\n',
  '\u202e\u200fRTL\u200e',
  '🧺👩🏽‍⚕️🇨🇦',
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U0123ABCD>',
  '<#C0123|general>',
  '<https://x|y>',
  '@channel',
  '&amp;&lt;',
  '__proto__',
  'constructor',
  'toString',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-1',
  '-0',
  '0',
  '0.5',
  '-3.75',
  '1.5',
  '999999999999999999999',
  '"',
  '""',
  '"Mercy General Hospital"',
  "'",
  '`',
  '*',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template placeholder typed as text is the point
  '${x}',
  '%s%d',
  'Mercy',
  'ICU',
  'TKT-26-00417',
  'MAN-26-027570',
  'DS-26-01622',
  'overdue',
  '14',
  '2026-10-01',
  'daily',
  'weekly',
  '#general',
  'shortfall',
];

/** One hostile token: a known troublemaker or an arbitrary string. */
export const hostileToken: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.double().map(String) },
  { weight: 1, arbitrary: fc.integer({ min: -1000, max: 1000 }).map(String) },
);

/** A few hostile tokens separated by spaces. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(hostileToken, { maxLength: 6 })
  .map((tokens) => tokens.join(' '));

/** What no answer may show: artefacts of a bug, not words for a person. */
const ARTEFACTS = ['NaN', 'Invalid Date', 'undefined', '[object Object]'];

/** The artefacts an output shows that its input did not bring, and any stack trace. */
export function artefactsIn(output: string, input: string): string[] {
  const found = ARTEFACTS.filter((a) => output.includes(a) && !input.includes(a));
  if (/\n\s+at \S+ \(|\bat \S+:\d+:\d+\)?$/m.test(output)) found.push('a stack trace');
  return found;
}
