/**
 * Reading the words after a kind's word: what each kind takes, every refusal as one sentence saying what was
 * expected, and (fast-check, from the suites' fixed seed) whatever a person may type: never a throw, always options
 * that survive being stored as JSON or one sentence.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Token } from '../../../chat/alerts/kind.ts';
import { ALERT_KINDS } from '../../../chat/alerts/kinds/index.ts';
import { artefactsIn, HOSTILE, hostileToken, runs } from '../../support/hostile.ts';
import { words } from './fixtures.ts';

/** A control character (a line break, a tab, an escape): a sentence is one plain line. */
const hasControl = (s: string) => [...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f);
const kind = (name: string) => ALERT_KINDS.find((k) => k.name === name)!;
const parse = (name: string, text: string) => kind(name).parse(words(text));

describe('what each kind reads', () => {
  it.each([
    ['short', '', { options: { minMissing: 1 } }],
    ['short', 'Mercy General Hospital', { options: { minMissing: 1 }, customer: 'Mercy General Hospital' }],
    [
      'short',
      '"Mercy General Hospital" ICU min 5',
      { options: { minMissing: 5 }, customer: 'Mercy General Hospital', place: 'ICU' },
    ],
    ['short', 'MIN 12 Harborview Hotel', { options: { minMissing: 12 }, customer: 'Harborview Hotel' }],
    [
      'short',
      '"Mercy General Hospital" Med-Surg 4 West',
      { options: { minMissing: 1 }, customer: 'Mercy General Hospital', place: 'Med-Surg 4 West' },
    ],
    ['signal', '', { options: {} }],
    ['signal', 'shortfall high', { options: { kind: 'shortfall', minSeverity: 'high' } }],
    ['signal', 'Shortfalls', { options: { kind: 'shortfall' } }],
    [
      'signal',
      'medium circulation_breach Mercy General Hospital',
      { options: { kind: 'circulation_breach', minSeverity: 'medium' }, customer: 'Mercy General Hospital' },
    ],
    ['signal', 'par_drift severity low', { options: { kind: 'par_drift', minSeverity: 'low' } }],
    ['signal', '"High Point Hotel"', { options: {}, customer: 'High Point Hotel' }],
    ['signal', 'Critical Care Hospital', { options: {}, customer: 'Critical Care Hospital' }],
    ['ticket', '', { options: {} }],
    ['ticket', "St. Luke's Medical Center", { options: {}, customer: "St. Luke's Medical Center" }],
    ['overdue', '', { options: { days: 60 } }],
    ['overdue', '30d Harborview Hotel', { options: { days: 30 }, customer: 'Harborview Hotel' }],
    ['overdue', 'Harborview Hotel 90 days', { options: { days: 90 }, customer: 'Harborview Hotel' }],
    ['overdue', '45 Mercy', { options: { days: 45 }, customer: 'Mercy' }],
    ['overdue', '"2nd Street Clinic"', { options: { days: 60 }, customer: '2nd Street Clinic' }],
    ['budget', '', { options: { percent: 20 } }],
    ['budget', '10% Mercy General Hospital', { options: { percent: 10 }, customer: 'Mercy General Hospital' }],
    ['budget', 'Mercy 12.5 %', { options: { percent: 12.5 }, customer: 'Mercy' }],
    ['budget', '35', { options: { percent: 35 } }],
    ['parmet', 'below 90%', { options: { belowPercent: 90 } }],
    [
      'parmet',
      'below 85% "Mercy General Hospital" ICU',
      { options: { belowPercent: 85 }, customer: 'Mercy General Hospital', place: 'ICU' },
    ],
    ['parmet', 'Harborview Hotel under 92.5%', { options: { belowPercent: 92.5 }, customer: 'Harborview Hotel' }],
    ['parmet', 'below 80', { options: { belowPercent: 80 } }],
  ])('%s %s', (name, text, want) => {
    expect(parse(name, text)).toEqual(want);
  });
});

describe('every refusal is one sentence saying what was expected', () => {
  it.each([
    ['short', 'min', /^After min, give the fewest pieces missing, like min 5\.$/],
    ['short', 'Mercy min five', /like min 5 \(not “five”\)\.$/],
    ['short', 'min 0', /^min is 1 to 100,000 pieces \(got 0\)\.$/],
    ['short', 'min 2.5', /whole number/],
    ['short', 'min 3 min 4', /^Give min once/],
    ['signal', 'shortfall critical', /^“critical” is not a severity: give low, medium or high/],
    ['signal', 'severity urgent Mercy', /^“urgent” is not a severity/],
    ['signal', 'severity', /^Give the least severity after it: low, medium or high\.$/],
    ['signal', 'high low', /^Give one severity/],
    ['ticket', 'TKT-26-00417', /give a customer .*not a ticket number like “TKT-26-00417”\.$/],
    ['overdue', '0d', /^The days overdue are 1d to 365d \(got 0d\)\.$/],
    ['overdue', '400d Mercy', /\(got 400d\)\.$/],
    ['overdue', '-5d', /whole number of days, like 60d \(not “-5d”\)\.$/],
    ['overdue', '1.5d', /not “1\.5d”/],
    ['overdue', '30d 60d', /^Give the days overdue once/],
    ['budget', '0%', /more than 0% and at most 100% \(got 0%\)\.$/],
    ['budget', '150%', /\(got 150%\)\.$/],
    ['budget', '-5%', /as a percentage, like 20% \(not “-5%”\)\.$/],
    ['budget', '10% 20%', /^Give the share of the budget left once/],
    ['parmet', '', /^Say below what par met to alert, like alert parmet below 90% Mercy General Hospital\.$/],
    ['parmet', 'Mercy General Hospital 90%', /^Say below what par met/],
    ['parmet', 'below', /^Give a percentage after below/],
    ['parmet', 'below ninety', /\(not “ninety”\)\.$/],
    ['parmet', 'below 0%', /more than 0% and at most 100% \(got 0%\)/],
    ['parmet', 'below 120%', /\(got 120%\)/],
    ['parmet', 'below 90% below 80%', /^Give one percentage/],
    ['parmet', 'below 90% Mercy 80%', /^Give one percentage, after below/],
  ])('%s %s', (name, text, sentence) => {
    const got = parse(name, text);
    expect(got).toEqual({ problem: expect.stringMatching(sentence) });
  });

  it('a hostile word is quoted back on one line, cut short', () => {
    const got = parse('overdue', `${'9'.repeat(80)}.5d`) as { problem: string };
    expect(got.problem).toMatch(/“9{39}…”/);
    const odd = parse('short', 'min \u0000\u0007x\ny') as { problem: string };
    expect(hasControl(odd.problem)).toBe(false);
  });
});

const token: fc.Arbitrary<Token> = fc.record({ text: hostileToken, quoted: fc.boolean() });
/** Hostile words mixed with each kind's own words, so the properties reach the options as well as the refusals. */
const KEYWORDS = ['min', 'below', 'under', 'severity', 'high', 'low', 'shortfall', 'par_drift', '%', 'd', 'days'];
const tokens = fc.array(
  fc.oneof(
    { weight: 3, arbitrary: token },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(...KEYWORDS, '5', '60d', '20%', '90%', '0', '101%', ...HOSTILE.slice(0, 10))
        .map((text) => ({ text, quoted: false })),
    },
  ),
  { maxLength: 7 },
);

/** A plain JSON value: what the store keeps of the options. */
const roundTrips = (v: unknown) => expect(JSON.parse(JSON.stringify(v))).toEqual(v);

describe.each(ALERT_KINDS.map((k) => [k.name, k] as const))('%s over hostile words', (_name, k) => {
  it('never throws: options that survive JSON, or one sentence', () => {
    fc.assert(
      fc.property(tokens, (ts) => {
        const got = k.parse(ts);
        if ('problem' in got) {
          expect(typeof got.problem).toBe('string');
          expect(got.problem.length).toBeGreaterThan(10);
          expect(got.problem.length).toBeLessThan(300);
          expect(got.problem).toMatch(/\.$/);
          expect(hasControl(got.problem)).toBe(false);
          expect(artefactsIn(got.problem, ts.map((t) => t.text).join(' '))).toEqual([]);
          return;
        }
        roundTrips(got.options);
        for (const v of [got.customer, got.place]) if (v !== undefined) expect(v.trim()).not.toBe('');
        if (got.place !== undefined) expect(got.customer).toBeDefined();
      }),
      runs(400),
    );
  });

  it('its options are always within their ranges', () => {
    fc.assert(
      fc.property(tokens, (ts) => {
        const got = k.parse(ts);
        if ('problem' in got) return;
        const o = got.options as Record<string, unknown>;
        if ('minMissing' in o) expect(Number.isInteger(o.minMissing) && (o.minMissing as number) >= 1).toBe(true);
        if ('days' in o)
          expect(Number.isInteger(o.days) && (o.days as number) >= 1 && (o.days as number) <= 365).toBe(true);
        for (const key of ['percent', 'belowPercent'])
          if (key in o) expect((o[key] as number) > 0 && (o[key] as number) <= 100).toBe(true);
        if ('minSeverity' in o) expect(['low', 'medium', 'high']).toContain(o.minSeverity);
        if ('kind' in o) expect(o.kind).toMatch(/^(shortfall|[a-z]+(_[a-z]+)+)$/);
      }),
      runs(400),
    );
  });
});
