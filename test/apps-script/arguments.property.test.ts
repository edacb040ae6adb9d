/**
 * Property-based test of every custom function's arguments, through the built add-on: each function of the
 * catalog (so a new one is covered the day it is added) called with hostile values of the kinds Sheets passes
 * (text, numbers, booleans, dates, blanks, ranges), from a fixed seed (test/support/hostile.ts). Every call
 * gives a value a cell can show or one sentence to act on.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choice, day, text } from '../../shared/cells/args.ts';
import { FUNCTIONS, type ParamSpec } from '../../shared/cells/catalog.ts';
import { ArgError } from '../../shared/cells/messages.ts';
import { type Harness, startHarness } from '../support/apps-script-harness.ts';
import { artefactsIn, hostileToken, runs } from '../support/hostile.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

/** An argument as Sheets may pass it; dates are built in the execution's realm, as Sheets does. */
type Arg = { text: string } | { number: number } | { bool: boolean } | { day: number } | { range: string[][] } | null;

const realCustomer = fc.constantFrom('Mercy General Hospital', 'Mercy Health', 'Harborview Hotel', 'mercy general');
const realDay = fc.constantFrom('2026-10-01', '2026-10-31', '2026-11-04', '2025-01-01');

function argFor(p: ParamSpec): fc.Arbitrary<Arg> {
  const typed =
    p.kind === 'customer'
      ? realCustomer
      : p.kind === 'date'
        ? realDay
        : p.kind === 'ticket'
          ? fc.constantFrom('TKT-26-00417', 'TKT-25-00001')
          : fc.constantFrom('ICU', 'Bath Towel', 'par_met', 'shortfall', 'open');
  return fc.oneof(
    { weight: 3, arbitrary: hostileToken.map((text) => ({ text })) },
    { weight: 2, arbitrary: typed.map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.double().map((number) => ({ number })) },
    { weight: 1, arbitrary: fc.boolean().map((bool) => ({ bool })) },
    { weight: 1, arbitrary: fc.integer({ min: -8.64e15, max: 8.64e15 }).map((day) => ({ day })) },
    {
      weight: 1,
      arbitrary: fc.array(fc.array(hostileToken, { maxLength: 3 }), { maxLength: 3 }).map((range) => ({ range })),
    },
  );
}

/** A value a cell can show: a finite number, text, a boolean, a real date, or a table of them. */
function problemsOfValue(v: unknown, input: string): string[] {
  const cells = Array.isArray(v) ? (v as unknown[]).flat() : [v];
  if (Array.isArray(v) && (v as unknown[]).some((row) => !Array.isArray(row)))
    return ['a table with a row that is not a list'];
  const problems: string[] = [];
  for (const c of cells) {
    if (typeof c === 'number' && !Number.isFinite(c)) problems.push(`the number ${c}`);
    else if (Object.prototype.toString.call(c) === '[object Date]' && Number.isNaN((c as Date).getTime()))
      problems.push('an invalid date');
    else if (typeof c === 'string') problems.push(...artefactsIn(c, input));
    else if (
      !['number', 'boolean', 'string'].includes(typeof c) &&
      Object.prototype.toString.call(c) !== '[object Date]'
    )
      problems.push(`a ${c === null ? 'null' : typeof c} cell`);
  }
  return problems;
}

/** Calls through the built bundle cost a fresh execution each (about 50 ms): a few per function, every function;
 * the readers below take thousands. */
const RUNS_PER_FUNCTION = 3;

describe.each(FUNCTIONS.map((spec) => [spec.name, spec] as const))('%s', (name, spec) => {
  it('answers any arguments with a cell value or one sentence', () => {
    const call = fc.tuple(fc.tuple(...spec.params.map(argFor)), fc.integer({ min: 0, max: spec.params.length }));
    fc.assert(
      fc.property(call, ([args, given]) => {
        const input = JSON.stringify(args);
        const r = h.cellWith(name, (ex) =>
          args.slice(0, given).map((a) => {
            if (a === null) return '';
            if ('text' in a) return a.text;
            if ('number' in a) return a.number;
            if ('bool' in a) return a.bool;
            if ('day' in a) return ex.evaluate(`new Date(${a.day})`);
            return a.range;
          }),
        );
        if (r.error !== undefined) {
          expect(r.error, `${name}(${input})`).toMatch(/^[^\n]+[.?!)"]$/);
          expect(artefactsIn(r.error, input), `${name}(${input}): ${r.error}`).toEqual([]);
          expect(r.error).not.toMatch(/lk_live_/);
        } else {
          expect(problemsOfValue(r.value, input), `${name}(${input})`).toEqual([]);
        }
      }),
      runs(RUNS_PER_FUNCTION),
    );
  });
});

describe('the argument readers every function uses', () => {
  const sheetValue: fc.Arbitrary<unknown> = fc.oneof(
    hostileToken,
    fc.constant(''),
    fc.double(),
    fc.boolean(),
    fc.integer({ min: -8.64e15, max: 8.64e15 }).map((ms) => new Date(ms)),
    fc.constant(new Date(Number.NaN)),
    fc.array(fc.array(fc.oneof(hostileToken, fc.double()), { maxLength: 2 }), { maxLength: 2 }),
  );
  const readOrRefuse = (read: () => unknown, input: unknown) => {
    const shown = String(JSON.stringify(input));
    let v: unknown;
    let refusal: unknown;
    try {
      v = read();
    } catch (e) {
      refusal = e;
    }
    if (refusal === undefined) return v;
    expect(refusal).toBeInstanceOf(ArgError);
    expect((refusal as Error).message).toMatch(/^[^\n]+[.?!)"]$/);
    expect(artefactsIn((refusal as Error).message, shown)).toEqual([]);
    return undefined;
  };

  it('a text, a choice or a day is read, or refused in one sentence', () => {
    fc.assert(
      fc.property(sheetValue, (v) => {
        const t = readOrRefuse(() => text(v, 'department'), v);
        if (t !== undefined) expect(typeof t).toBe('string');
        readOrRefuse(() => choice(v, 'status', ['open', 'in_progress', 'resolved']), v);
        const d = readOrRefuse(() => day(v, 'from', 'America/Chicago'), v);
        if (d !== undefined) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }),
      runs(4000),
    );
  });
});
