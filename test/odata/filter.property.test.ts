/**
 * `$filter` over hostile input (fast-check): any text, and soups of the pieces filters are made of, always give
 * a filter or one sentence (400 or 501), never another failure, in process and over HTTP (never a 500). And
 * folding never changes an answer: random filters on Invoices (customer, status, amounts, instants, nulls, and,
 * or) give exactly the rows a reference evaluation of the whole listing gives.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ODataError } from '../../odata/errors.ts';
import { parseFilter } from '../../odata/query/filter.ts';
import { entitySet } from '../../odata/sets.ts';
import { createLinenClient } from '../../shared/node.ts';
import type { Invoice } from '../../shared/schemas/accounting.ts';
import { DEMO_KEY, type ODataHarness, startODataHarness, TZ } from '../support/odata-harness.ts';

const invoices = entitySet('Invoices')!;
const balances = entitySet('Balances')!;

const PIECES = [
  'status',
  'customer_id',
  'total',
  'issued_at',
  'due_at',
  'aging',
  'aging/d61_plus',
  'nope',
  'eq',
  'ne',
  'gt',
  'ge',
  'lt',
  'le',
  'and',
  'or',
  'not',
  'in',
  'add',
  'has',
  'any',
  'null',
  'true',
  'false',
  'NaN',
  'INF',
  '-INF',
  "'paid'",
  "'it''s'",
  "'unclosed",
  '12',
  '-0.5',
  '1e309',
  '12.5M',
  '2026-10-01',
  '2026-02-30',
  '0026-01-01',
  '2026-10-01T00:00:00Z',
  '2026-10-01T25:00:00+02:00',
  '(',
  ')',
  ',',
  '/',
  '$it',
  '@p',
  'contains',
  'startswith',
  'tolower',
  'year',
  'geo.distance',
  ' ',
  '\u0000',
  '%',
  '"',
  '\u00e9',
  '\ud83d\ude00',
];

const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((parts) => parts.join(' '));
const tight = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((parts) => parts.join(''));
const anyText = fc.string({ unit: 'binary', maxLength: 200 });
const deep = fc.integer({ min: 1, max: 120 }).map((n) => `${'('.repeat(n)}status eq 'paid'${')'.repeat(n)}`);

function outcome(text: string, set = invoices): 'ok' | 400 | 501 {
  try {
    parseFilter(text, set.properties, set.name);
    return 'ok';
  } catch (err) {
    if (!(err instanceof ODataError)) throw err;
    expect([400, 501]).toContain(err.status);
    expect(err.message).toMatch(/^\S[^\n]*\.$/);
    return err.status as 400 | 501;
  }
}

describe('$filter over hostile input, in process', () => {
  it('any text: a filter or one sentence', () => {
    fc.assert(
      fc.property(anyText, (t) => void outcome(t)),
      { numRuns: 2_000 },
    );
  });
  it('soups of filter pieces, spaced and run together, and deep parentheses: a filter or one sentence', () => {
    fc.assert(
      fc.property(fc.oneof(soup, tight, deep), (t) => void outcome(t)),
      { numRuns: 3_000 },
    );
  });
  it('a long or of values stays a filter (no stack to exhaust)', () => {
    const long = Array.from({ length: 400 }, (_, i) => `total eq ${i}`).join(' or ');
    expect(outcome(long)).toBe('ok');
    expect(outcome(`status in (${Array.from({ length: 500 }, (_, i) => `'s${i}'`).join(',')})`)).toBe('ok');
  });
});

let h: ODataHarness;
let all: Invoice[];

beforeAll(async () => {
  h = await startODataHarness();
  const api = createLinenClient({ apiKey: DEMO_KEY, baseUrl: h.sandbox.baseUrl, timeZone: TZ, pacing: false });
  all = await api.invoices.list().all();
  await api.close();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe('$filter over hostile input, over HTTP', () => {
  it('answers 200, 400 or 501 with an OData error sentence, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(soup, anyText), async (t) => {
        const r = await h.get(`/odata/Balances?$top=1&$filter=${encodeURIComponent(t)}`);
        expect([200, 400, 501]).toContain(r.status);
        if (r.status !== 200) {
          const body = (await r.json()) as { error: { code: string; message: string } };
          expect(body.error.message).toMatch(/^\S[^\n]*\.$/);
          expect(outcome(t, balances)).toBe(r.status);
        }
      }),
      { numRuns: 120 },
    );
  });
});

// Random valid filters on Invoices and an evaluation of them written apart from the feed's.
type Cond = { text: string; test: (i: Invoice) => boolean };

const OPS = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const;
const cmp = (op: (typeof OPS)[number], a: number | string, b: number | string) =>
  op === 'eq'
    ? a === b
    : op === 'ne'
      ? a !== b
      : op === 'gt'
        ? a > b
        : op === 'ge'
          ? a >= b
          : op === 'lt'
            ? a < b
            : a <= b;

function conditions(customerIds: string[], issuedTimes: number[]): fc.Arbitrary<Cond> {
  const status = fc
    .record({ op: fc.constantFrom('eq', 'ne'), v: fc.constantFrom('sent', 'partially_paid', 'paid', 'draft') })
    .map(
      ({ op, v }): Cond => ({
        text: `status ${op} '${v}'`,
        test: (i) => (op === 'eq' ? i.status === v : i.status !== v),
      }),
    );
  const customer = fc.record({ op: fc.constantFrom('eq', 'ne'), v: fc.constantFrom(...customerIds, 'c_unknown') }).map(
    ({ op, v }): Cond => ({
      text: `customer_id ${op} '${v}'`,
      test: (i) => (op === 'eq' ? i.customer_id === v : i.customer_id !== v),
    }),
  );
  const total = fc.record({ op: fc.constantFrom(...OPS), cents: fc.integer({ min: 0, max: 3_000_000 }) }).map(
    ({ op, cents }): Cond => ({
      text: `total ${op} ${(cents / 100).toFixed(2)}`,
      test: (i) => cmp(op, i.total_cents, cents),
    }),
  );
  // Instants near the invoices' own, so a window's edge falls on days with invoices on both sides of it.
  const issued = fc
    .record({
      op: fc.constantFrom(...OPS),
      near: fc.constantFrom(...issuedTimes),
      shift: fc.integer({ min: -30 * 3_600_000, max: 30 * 3_600_000 }),
    })
    .map(({ op, near, shift }): Cond => {
      const at = near + shift;
      return {
        text: `issued_at ${op} ${new Date(at).toISOString()}`,
        test: (i) => cmp(op, Date.parse(i.issued_at), at),
      };
    });
  const due = fc.constantFrom<Cond>(
    { text: 'due_at eq null', test: (i) => i.due_at === null },
    { text: 'due_at ne null', test: (i) => i.due_at !== null },
    {
      text: 'due_at lt 2026-11-01T00:00:00Z',
      test: (i) => i.due_at !== null && Date.parse(i.due_at) < Date.parse('2026-11-01T00:00:00Z'),
    },
    { text: 'department_id eq null', test: (i) => i.department_id === null },
  );
  const leaf = fc.oneof(status, customer, total, issued, due);
  return fc.letrec<{ cond: Cond }>((tie) => ({
    cond: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({ a: tie('cond'), b: tie('cond'), op: fc.constantFrom('and', 'or') }).map(
        ({ a, b, op }): Cond => ({
          text: `(${a.text}) ${op} (${b.text})`,
          test: op === 'and' ? (i) => a.test(i) && b.test(i) : (i) => a.test(i) || b.test(i),
        }),
      ),
    ),
  })).cond;
}

describe('folding never changes the answer', () => {
  it('random filters on Invoices give the rows a reference evaluation of the whole listing gives', async () => {
    const customerIds = [...new Set(all.map((i) => i.customer_id))];
    await fc.assert(
      fc.asyncProperty(
        conditions(
          customerIds,
          all.map((i) => Date.parse(i.issued_at)),
        ),
        async (cond) => {
          const r = await h.get(`/odata/Invoices/$count?$filter=${encodeURIComponent(cond.text)}`);
          const ids = await h.get(`/odata/Invoices?$select=id&$filter=${encodeURIComponent(cond.text)}`, {
            headers: { prefer: 'odata.maxpagesize=5000' },
          });
          expect(r.status, cond.text).toBe(200);
          const expected = all.filter(cond.test).map((i) => i.id);
          expect(Number(await r.text()), cond.text).toBe(expected.length);
          const body = (await ids.json()) as { value: { id: string }[] };
          expect(body.value.map((v) => v.id).sort(), cond.text).toEqual([...expected].sort());
        },
      ),
      { numRuns: 80 },
    );
  });
});
