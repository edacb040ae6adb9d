/**
 * Property-based tests of the functions' arguments as Excel passes them, through the built runtime page: each
 * function of the catalog (a new one is covered the day it is added) called with hostile values of the kinds a
 * cell holds (text, numbers and serial dates, booleans, empty cells as 0 or null, ranges), from a fixed seed
 * (test/support/hostile.ts). Every call gives a value a cell can show or a `CustomFunctions.Error` (#VALUE! or
 * #N/A) with one sentence; and a date cell reads as the same day as its `YYYY-MM-DD` text.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { excelArgs } from '../../excel-addin/src/call.ts';
import { day } from '../../shared/cells/args.ts';
import { FUNCTIONS, type ParamSpec } from '../../shared/cells/catalog.ts';
import { type ExcelHarness, startExcelHarness } from '../support/excel-harness.ts';
import type { ExcelRuntime } from '../support/excel-runtime.ts';
import { artefactsIn, hostileToken, runs } from '../support/hostile.ts';

let h: ExcelHarness;
let rt: ExcelRuntime;
beforeAll(async () => {
  h = await startExcelHarness();
  rt = h.runtime();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const realCustomer = fc.constantFrom('Mercy General Hospital', 'Mercy Health', 'Harborview Hotel', 'mercy general');
/** Serial numbers of days the sandbox has data for, and some it does not. */
const realSerial = fc.constantFrom(46296, 46326, 46330, 45658);

/** A value as Excel passes it to a parameter of `p`'s type (text parameters get text; any takes what the cell holds). */
function argFor(p: ParamSpec): fc.Arbitrary<unknown> {
  const cellValue = fc.oneof(
    { weight: 3, arbitrary: hostileToken },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.boolean() },
    { weight: 1, arbitrary: fc.constantFrom(0, null) },
  );
  if (p.kind === 'date') return fc.oneof({ weight: 2, arbitrary: realSerial }, { weight: 3, arbitrary: cellValue });
  if (p.kind === 'ticket')
    return fc.array(fc.array(fc.oneof(fc.constant('TKT-26-00417'), cellValue), { minLength: 1, maxLength: 2 }), {
      minLength: 1,
      maxLength: 3,
    });
  // A text parameter: Excel converts what the cell holds to text.
  return fc.oneof(
    { weight: 2, arbitrary: p.kind === 'customer' ? realCustomer : fc.constantFrom('ICU', 'Bath Towel', 'open') },
    { weight: 3, arbitrary: hostileToken },
    { weight: 1, arbitrary: fc.constantFrom('', null) },
  );
}

const isFormatted = (c: unknown) =>
  typeof c === 'object' && c !== null && typeof (c as { basicValue?: unknown }).basicValue === 'number';

/** A cell Excel can show: a finite number, text, a boolean, a formatted number, or a table of them. */
function problemsOfValue(v: unknown, input: string): string[] {
  if (Array.isArray(v) && v.some((row) => !Array.isArray(row))) return ['a table with a row that is not a list'];
  const cells = Array.isArray(v) ? (v as unknown[][]).flat() : [v];
  const problems: string[] = [];
  for (const c of cells) {
    if (typeof c === 'number' && !Number.isFinite(c)) problems.push(`the number ${c}`);
    else if (typeof c === 'string') problems.push(...artefactsIn(c, input));
    else if (!['number', 'boolean', 'string'].includes(typeof c) && !isFormatted(c))
      problems.push(`a ${c === null ? 'null' : typeof c} cell`);
  }
  return problems;
}

describe.each(FUNCTIONS.map((spec) => [spec.name, spec] as const))('%s', (name, spec) => {
  it('answers any arguments with a cell value or a #VALUE! or #N/A with one sentence', async () => {
    const id = name.replace(/^LINEN_/, '');
    await fc.assert(
      fc.asyncProperty(fc.tuple(...spec.params.map(argFor)), async (args) => {
        const input = JSON.stringify(args);
        const r = await rt.call(id, ...args);
        if ('error' in r) {
          expect(['#VALUE!', '#N/A'], `${id}(${input})`).toContain(r.error.code);
          expect(r.error.message, `${id}(${input})`).toMatch(/^[^\n]+[.?!)"]$/);
          expect(artefactsIn(r.error.message!, input), `${id}(${input}): ${r.error.message}`).toEqual([]);
          expect(r.error.message).not.toMatch(/lk_live_/);
        } else {
          expect(problemsOfValue(r.value, input), `${id}(${input})`).toEqual([]);
        }
      }),
      runs(20),
    );
  });
});

describe('dates as Excel passes them', () => {
  it('a date cell (its serial number, at any time of day) is the same day as the day written YYYY-MM-DD', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-03-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.double({ min: 0, max: 0.99999, noNaN: true }),
        (d, time) => {
          const iso = d.toISOString().slice(0, 10);
          const serial =
            (Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) - Date.UTC(1899, 11, 30)) / 86_400_000;
          expect(day(serial + time, 'from', 'America/Chicago')).toBe(iso);
          expect(day(iso, 'from', 'America/Chicago')).toBe(iso);
        },
      ),
      runs(4000),
    );
  });

  it('an empty date cell is blank whether Excel passes it as 0 (Windows) or null (the web)', () => {
    const fillRate = FUNCTIONS.find((f) => f.name === 'LINEN_FILLRATE')!;
    expect(excelArgs(fillRate, ['Mercy', 0, null, 'ICU', 0])).toEqual(['Mercy', null, null, 'ICU', 0, undefined]);
  });
});
