/**
 * Reading Sheets formulas (as `Range.getFormulas()` returns them, in English syntax) far enough to find every
 * LINEN_ call and the arguments a refresh run can work out without Sheets: text, numbers, TRUE/FALSE,
 * DATE(y, m, d), omitted arguments, and references to cells, closed ranges and named ranges (whose current
 * values are read). Any other argument (an expression, an open range, another function) makes the call one the
 * refresh cannot foresee; the cell then fetches for itself when it recalculates.
 */

type Token =
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | { t: 'ref'; sheet: string | null; a1: string }
  | { t: 'name'; v: string }
  | { t: 'punct'; v: string };

const REF = /^(?:(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_.]*))!)?(\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?)/;

function tokenize(src: string): Token[] | null {
  const out: Token[] = [];
  let i = src.startsWith('=') ? 1 : 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '"') {
      let v = '';
      for (i++; ; i++) {
        if (i >= src.length) return null;
        if (src[i] === '"') {
          if (src[i + 1] !== '"') break;
          i++;
        }
        v += src[i];
      }
      i++;
      out.push({ t: 'str', v });
      continue;
    }
    const rest = src.slice(i);
    const num = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(rest);
    if (num) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
      continue;
    }
    const ref = REF.exec(rest);
    // A reference, unless it is the start of a longer name or a function call (LOG10( is a function).
    if (ref && !/^[A-Za-z0-9_(]/.test(rest.slice(ref[0].length))) {
      const sheet = ref[1] !== undefined ? ref[1].replace(/''/g, "'") : (ref[2] ?? null);
      out.push({ t: 'ref', sheet, a1: ref[3]!.replace(/\$/g, '').toUpperCase() });
      i += ref[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(rest);
    if (name) {
      out.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    if (c === "'") return null; // a quoted sheet name not followed by a reference
    out.push({ t: 'punct', v: c });
    i++;
  }
  return out;
}

/** What an argument is, when the refresh can work it out. */
export type ArgSource =
  | { kind: 'value'; value: string | number | boolean | undefined }
  | { kind: 'date'; y: number; m: number; d: number }
  | { kind: 'ref'; sheet: string | null; a1: string }
  | { kind: 'named'; name: string };

export interface LinenCall {
  /** Upper-cased, e.g. LINEN_FILLRATE. */
  name: string;
  /** Null when some argument cannot be worked out without Sheets. */
  args: ArgSource[] | null;
}

function argSource(tokens: Token[]): ArgSource | null {
  if (tokens.length === 0) return { kind: 'value', value: undefined };
  const [a, b] = tokens;
  if (tokens.length === 1) {
    if (a!.t === 'str' || a!.t === 'num') return { kind: 'value', value: a!.v };
    if (a!.t === 'ref') return { kind: 'ref', sheet: a!.sheet, a1: a!.a1 };
    if (a!.t === 'name') {
      if (/^true$/i.test(a!.v)) return { kind: 'value', value: true };
      if (/^false$/i.test(a!.v)) return { kind: 'value', value: false };
      return { kind: 'named', name: a!.v };
    }
    return null;
  }
  if (tokens.length === 2 && a!.t === 'punct' && a!.v === '-' && b!.t === 'num') return { kind: 'value', value: -b!.v };
  // DATE(y, m, d) with numbers
  const shape = tokens.map((t) =>
    t.t === 'num' ? 'n' : t.t === 'punct' ? t.v : t.t === 'name' ? t.v.toUpperCase() : '?',
  );
  if (shape.join('') === 'DATE(n,n,n)') {
    const [y, m, d] = [tokens[2], tokens[4], tokens[6]].map((t) => (t as { v: number }).v);
    return { kind: 'date', y: y!, m: m!, d: d! };
  }
  return null;
}

/** Every LINEN_ call in a formula (nested ones too), with its arguments when they can be worked out. */
export function linenCalls(formula: string): LinenCall[] {
  const tokens = tokenize(formula);
  if (!tokens) return [];
  const calls: LinenCall[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const t = tokens[i]!;
    const open = tokens[i + 1]!;
    if (t.t !== 'name' || !/^LINEN_/i.test(t.v) || open.t !== 'punct' || open.v !== '(') continue;
    const args: Token[][] = [[]];
    let depth = 0;
    let j = i + 2;
    for (; j < tokens.length; j++) {
      const x = tokens[j]!;
      if (x.t === 'punct' && (x.v === '(' || x.v === '{')) depth++;
      if (x.t === 'punct' && (x.v === ')' || x.v === '}')) {
        if (depth === 0) break;
        depth--;
      }
      if (depth === 0 && x.t === 'punct' && x.v === ',') args.push([]);
      else args[args.length - 1]!.push(x);
    }
    if (j >= tokens.length) continue; // unbalanced
    const sources = (args.length === 1 && args[0]!.length === 0 ? [] : args).map(argSource);
    calls.push({
      name: t.v.toUpperCase(),
      args: sources.every((s): s is ArgSource => s !== null) ? sources : null,
    });
  }
  return calls;
}

/** Whether a formula uses a LINEN_ function at all (what the recalculation rewrites). */
export function usesLinen(formula: string): boolean {
  return /\bLINEN_[A-Z_]+\s*\(/i.test(formula);
}
