/** Reading LINEN_ calls out of formulas, as the refresh does to learn what each cell will fetch. */
import { describe, expect, it } from 'vitest';
import { linenCalls, usesLinen } from '../../apps-script/src/formulas.ts';

describe('linenCalls', () => {
  it('reads text, numbers, booleans, omitted arguments, DATE(y, m, d) and references', () => {
    expect(
      linenCalls('=LINEN_FILLRATE("Mercy ""General""", DATE(2026, 10, 1), $B$3, C$5, \'Params sheet\'!A1, -2, TRUE, )'),
    ).toEqual([
      {
        name: 'LINEN_FILLRATE',
        args: [
          { kind: 'value', value: 'Mercy "General"' },
          { kind: 'date', y: 2026, m: 10, d: 1 },
          { kind: 'ref', sheet: null, a1: 'B3' },
          { kind: 'ref', sheet: null, a1: 'C5' },
          { kind: 'ref', sheet: 'Params sheet', a1: 'A1' },
          { kind: 'value', value: -2 },
          { kind: 'value', value: true },
          { kind: 'value', value: undefined },
        ],
      },
    ]);
  });

  it('finds calls nested in other functions, and named ranges and closed ranges as arguments', () => {
    expect(linenCalls('=IFERROR(linen_balance(Customer)*100, "") & LINEN_TICKET(Sheet2!A2:A40)')).toEqual([
      { name: 'LINEN_BALANCE', args: [{ kind: 'named', name: 'Customer' }] },
      { name: 'LINEN_TICKET', args: [{ kind: 'ref', sheet: 'Sheet2', a1: 'A2:A40' }] },
    ]);
    expect(linenCalls('=LINEN_CUSTOMERS()')).toEqual([{ name: 'LINEN_CUSTOMERS', args: [] }]);
  });

  it('marks a call whose arguments need Sheets (an expression, an open range, another function) as unforeseeable', () => {
    for (const f of [
      '=LINEN_FILLRATE(A1, TODAY()-7, TODAY())',
      '=LINEN_TICKET(A2:A)',
      '=LINEN_BALANCE(A1&" Hospital")',
      '=LINEN_BALANCE(LINEN_CUSTOMERS())',
    ]) {
      expect(linenCalls(f)[0]!.args, f).toBeNull();
    }
  });

  it('never throws on any text, and finds nothing where no LINEN_ function is called', () => {
    const odd = [
      '',
      '=',
      '"',
      "='",
      '=LINEN_X(',
      '=LINEN_X("a',
      '=LINEN_X(((',
      '=))LINEN_A(1,2',
      "='It''s'!A1",
      '=A1:',
      '={1,2;3,4}',
    ];
    for (const s of odd) {
      const calls = linenCalls(s);
      if (!usesLinen(s)) expect(calls, s).toEqual([]);
    }
    expect(linenCalls('=SUM(A1:B2)')).toEqual([]);
    expect(linenCalls('="LINEN_BALANCE(A1)"')).toEqual([]);
  });
});
