/**
 * `$filter`, read into a small typed tree against the set's properties: comparisons of a property with a value
 * (`eq`, `ne`, `gt`, `ge`, `lt`, `le`, and `in` for a list of values), `contains`, `startswith` and `endswith` on
 * text, a boolean property alone, joined with `and` and `or`, in parentheses. Everything else OData defines is
 * answered with one sentence: 501 for what the feed does not do (`not`, arithmetic, other functions, lambdas,
 * comparing two properties), 400 for what is not a valid filter of this set (an unknown property, a value of the
 * wrong type, a syntax error). Nothing here throws anything but an ODataError.
 */
import { isIsoDay } from '../../shared/dates.ts';
import { type PrimitiveProperty, type PrimitiveType, type Property, propertyAt } from '../edm.ts';
import { badRequest, notSupported } from '../errors.ts';

export type CompareOp = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type TextFunction = 'contains' | 'startswith' | 'endswith';

/** A value as the row holds it: text, a number, a boolean, a day (`YYYY-MM-DD`), an instant (epoch ms), null. */
export type Literal =
  | { t: 'null' }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number }
  | { t: 'boolean'; v: boolean }
  | { t: 'date'; v: string }
  | { t: 'instant'; v: number };

export type Filter =
  | { k: 'and' | 'or'; a: Filter; b: Filter }
  | { k: 'cmp'; op: CompareOp; path: string[]; prop: PrimitiveProperty; value: Literal }
  | { k: 'text'; fn: TextFunction; path: string[]; prop: PrimitiveProperty; value: string }
  | { k: 'const'; value: boolean };

const MAX_LENGTH = 8_000;
const MAX_DEPTH = 40;
const COMPARE = new Set<string>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const TEXT_FUNCTIONS = new Set<string>(['contains', 'startswith', 'endswith']);
/** OData's other functions: known, so a filter using one is told the feed does not apply it (501), not that it is wrong. */
const OTHER_FUNCTIONS = new Set<string>([
  'concat',
  'indexof',
  'length',
  'substring',
  'tolower',
  'toupper',
  'trim',
  'matchespattern',
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'fractionalseconds',
  'totalseconds',
  'date',
  'time',
  'totaloffsetminutes',
  'mindatetime',
  'maxdatetime',
  'now',
  'round',
  'floor',
  'ceiling',
  'cast',
  'isof',
  'hassubset',
  'hassubsequence',
]);
const ARITHMETIC = new Set<string>(['add', 'sub', 'mul', 'div', 'divby', 'mod', 'has']);

type Token =
  | { t: 'punct'; v: '(' | ')' | ',' | '/' }
  | { t: 'ident'; v: string }
  | { t: 'string'; v: string }
  | { t: 'number'; v: number; text: string }
  | { t: 'date'; v: string }
  | { t: 'instant'; v: number; text: string }
  | { t: 'end' };

const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,12})?)?(Z|[+-]\d{2}:\d{2}))?(?![\w.:-])/i;
const NUMBER = /^[+-]?(\d+(\.\d+)?([eE][+-]?\d+)?|INF)[mMdDfFlL]?(?![\w.])/;
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

const quote = (s: string) => (s.length > 60 ? `${s.slice(0, 57)}...` : s);

function instantOf(text: string, day: string, hh: string, mm: string, ss?: string): number | undefined {
  const ms = Date.parse(text);
  if (!isIsoDay(day) || Number(hh) > 23 || Number(mm) > 59 || Number(ss ?? 0) > 59 || Number.isNaN(ms))
    return undefined;
  return ms;
}

function tokenize(input: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const ch = input[i]!;
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      i++;
      continue;
    }
    if (ch === '(' || ch === ')' || ch === ',' || ch === '/') {
      out.push({ t: 'punct', v: ch });
      i++;
      continue;
    }
    if (ch === "'") {
      let v = '';
      let j = i + 1;
      for (;;) {
        if (j >= input.length)
          throw badRequest('A text value in $filter is missing its closing quote.', 'invalid_filter');
        if (input[j] === "'") {
          if (input[j + 1] === "'") {
            v += "'";
            j += 2;
            continue;
          }
          break;
        }
        v += input[j];
        j++;
      }
      out.push({ t: 'string', v });
      i = j + 1;
      continue;
    }
    const rest = input.slice(i);
    const dt = /^\d/.test(ch) ? DATE_TIME.exec(rest) : null;
    if (dt) {
      if (dt[2] === undefined) {
        if (!isIsoDay(dt[1]!)) throw badRequest(`${dt[1]} is not a real day.`, 'invalid_filter');
        out.push({ t: 'date', v: dt[1]! });
      } else {
        const ms = instantOf(dt[0], dt[1]!, dt[3]!, dt[4]!, dt[5]);
        if (ms === undefined) throw badRequest(`${dt[0]} is not a real instant.`, 'invalid_filter');
        out.push({ t: 'instant', v: ms, text: dt[0] });
      }
      i += dt[0].length;
      continue;
    }
    const num = /^[\d+-]/.test(ch) || rest.startsWith('INF') ? NUMBER.exec(rest) : null;
    if (num) {
      const text = num[0].replace(/[mMdDfFlL]$/, '');
      const v = text.endsWith('INF') ? (text.startsWith('-') ? -Infinity : Infinity) : Number(text);
      out.push({ t: 'number', v, text });
      i += num[0].length;
      continue;
    }
    const id = IDENT.exec(rest);
    if (id) {
      out.push({ t: 'ident', v: id[0] });
      i += id[0].length;
      continue;
    }
    if (ch === '@')
      throw notSupported('The feed does not take parameter aliases (@name) in $filter; write the value in place.');
    if (ch === '$') throw notSupported('The feed does not take $it or $root in $filter; name the property itself.');
    throw badRequest(`$filter has a character the feed cannot read: ${JSON.stringify(ch)}.`, 'invalid_filter');
  }
  out.push({ t: 'end' });
  return out;
}

const TYPE_WORDS: Record<PrimitiveType, string> = {
  'Edm.String': 'text',
  'Edm.Boolean': 'true or false',
  'Edm.Int32': 'a whole number',
  'Edm.Double': 'a number',
  'Edm.Decimal': 'an amount',
  'Edm.Date': 'a day',
  'Edm.DateTimeOffset': 'an instant',
};
const TYPE_EXAMPLES: Record<PrimitiveType, string> = {
  'Edm.String': "'text'",
  'Edm.Boolean': 'true',
  'Edm.Int32': '12',
  'Edm.Double': '0.95',
  'Edm.Decimal': '125.50',
  'Edm.Date': '2026-10-01',
  'Edm.DateTimeOffset': '2026-10-01T00:00:00Z',
};

type Operand = { o: 'prop'; path: string[]; prop: Property } | { o: 'lit'; lit: Literal; token: Token };

class Parser {
  readonly #tokens: Token[];
  readonly #properties: readonly Property[];
  readonly #setName: string;
  #pos = 0;
  #depth = 0;

  constructor(tokens: Token[], properties: readonly Property[], setName: string) {
    this.#tokens = tokens;
    this.#properties = properties;
    this.#setName = setName;
  }

  #peek(): Token {
    return this.#tokens[this.#pos]!;
  }
  #next(): Token {
    const t = this.#tokens[this.#pos]!;
    if (t.t !== 'end') this.#pos++;
    return t;
  }
  #isWord(word: string): boolean {
    const t = this.#peek();
    return t.t === 'ident' && t.v === word;
  }
  #expectPunct(v: string, what: string): void {
    const t = this.#next();
    if (t.t !== 'punct' || t.v !== v) throw badRequest(`$filter expected ${what} ${describe(t)}.`, 'invalid_filter');
  }

  parse(): Filter {
    const f = this.#or();
    const t = this.#peek();
    if (t.t !== 'end') {
      if (t.t === 'ident' && ARITHMETIC.has(t.v))
        throw notSupported(`The feed does not compute with ${t.v} in $filter; compare a property with a value.`);
      throw badRequest(
        `$filter has more after a complete condition, ${describe(t)}; join conditions with and / or.`,
        'invalid_filter',
      );
    }
    return f;
  }

  #or(): Filter {
    let a = this.#and();
    while (this.#isWord('or')) {
      this.#next();
      a = { k: 'or', a, b: this.#and() };
    }
    return a;
  }

  #and(): Filter {
    let a = this.#condition();
    while (this.#isWord('and')) {
      this.#next();
      a = { k: 'and', a, b: this.#condition() };
    }
    return a;
  }

  #condition(): Filter {
    if (this.#isWord('not'))
      throw notSupported('The feed does not apply not in $filter; use ne, or the opposite comparison.');
    const t = this.#peek();
    if (t.t === 'punct' && t.v === '(') {
      if (++this.#depth > MAX_DEPTH) throw badRequest('$filter nests parentheses too deeply.', 'invalid_filter');
      this.#next();
      const inner = this.#or();
      this.#expectPunct(')', 'a closing parenthesis');
      this.#depth--;
      return inner;
    }
    const left = this.#operand();
    const op = this.#peek();
    if (left.fn && !(op.t === 'ident' && COMPARE.has(op.v))) return left.fn;
    if (op.t === 'ident' && COMPARE.has(op.v)) {
      this.#next();
      const right = this.#operand();
      return this.#comparison(op.v as CompareOp, left, right);
    }
    if (op.t === 'ident' && op.v === 'in') {
      this.#next();
      return this.#in(left);
    }
    if (op.t === 'ident' && ARITHMETIC.has(op.v))
      throw notSupported(`The feed does not compute with ${op.v} in $filter; compare a property with a value.`);
    if (left.o === 'lit' && left.lit.t === 'boolean') return { k: 'const', value: left.lit.v };
    if (left.o === 'prop' && left.prop.kind === 'primitive' && left.prop.type === 'Edm.Boolean')
      return { k: 'cmp', op: 'eq', path: left.path, prop: left.prop, value: { t: 'boolean', v: true } };
    throw badRequest(
      `$filter expected a comparison such as ${left.o === 'prop' ? left.path.join('/') : 'name'} eq ${left.o === 'prop' && left.prop.kind === 'primitive' ? TYPE_EXAMPLES[left.prop.type] : "'text'"}, ${describe(op)}.`,
      'invalid_filter',
    );
  }

  /** A value, a property path, or a text function (a condition of its own). */
  #operand(): Operand & { fn?: Filter } {
    const t = this.#next();
    if (t.t === 'string') return { o: 'lit', lit: { t: 'string', v: t.v }, token: t };
    if (t.t === 'number') return { o: 'lit', lit: { t: 'number', v: t.v }, token: t };
    if (t.t === 'date') return { o: 'lit', lit: { t: 'date', v: t.v }, token: t };
    if (t.t === 'instant') return { o: 'lit', lit: { t: 'instant', v: t.v }, token: t };
    if (t.t !== 'ident') throw badRequest(`$filter expected a property or a value ${describe(t)}.`, 'invalid_filter');
    if (t.v === 'null') return { o: 'lit', lit: { t: 'null' }, token: t };
    if (t.v === 'true' || t.v === 'false') return { o: 'lit', lit: { t: 'boolean', v: t.v === 'true' }, token: t };
    if (t.v === 'NaN') return { o: 'lit', lit: { t: 'number', v: Number.NaN }, token: t };
    const open = this.#peek();
    if (open.t === 'punct' && open.v === '(') return this.#call(t.v);
    const path = [t.v];
    for (;;) {
      const slash = this.#peek();
      if (slash.t !== 'punct' || slash.v !== '/') break;
      this.#next();
      const seg = this.#next();
      if (seg.t !== 'ident')
        throw badRequest(`$filter expected a property name after "/" ${describe(seg)}.`, 'invalid_filter');
      if (seg.v === 'any' || seg.v === 'all')
        throw notSupported(
          `The feed does not apply ${seg.v}() in $filter: no property of ${this.#setName} is a list of records.`,
        );
      path.push(seg.v);
    }
    const prop = propertyAt(this.#properties, path);
    if (!prop) {
      const names = this.#properties.map((p) => p.name).join(', ');
      throw badRequest(
        `${this.#setName} has no property ${quote(path.join('/'))}; its properties are ${names}.`,
        'unknown_property',
      );
    }
    return { o: 'prop', path, prop };
  }

  #call(name: string): Operand & { fn: Filter } {
    if (!TEXT_FUNCTIONS.has(name)) {
      if (OTHER_FUNCTIONS.has(name) || name.startsWith('geo'))
        throw notSupported(
          `The feed does not apply ${name}() in $filter; it applies contains, startswith and endswith.`,
        );
      throw badRequest(`$filter names a function OData does not have: ${quote(name)}().`, 'invalid_filter');
    }
    if (++this.#depth > MAX_DEPTH) throw badRequest('$filter nests parentheses too deeply.', 'invalid_filter');
    this.#expectPunct('(', 'an opening parenthesis');
    const a = this.#operand();
    this.#expectPunct(',', `a comma between the two arguments of ${name}()`);
    const b = this.#operand();
    this.#expectPunct(')', `a closing parenthesis after the arguments of ${name}()`);
    this.#depth--;
    if (a.o !== 'prop' || b.o !== 'lit')
      throw notSupported(`The feed applies ${name}() to a property and a text value, as in ${name}(name,'Mercy').`);
    if (a.prop.kind !== 'primitive' || a.prop.type !== 'Edm.String')
      throw badRequest(
        `${name}() needs a text property; ${a.path.join('/')} is ${kindWords(a.prop)}.`,
        'invalid_filter',
      );
    if (b.lit.t !== 'string')
      throw badRequest(`${name}() needs a text value in quotes, as in ${name}(name,'Mercy').`, 'invalid_filter');
    const fn: Filter = { k: 'text', fn: name as TextFunction, path: a.path, prop: a.prop, value: b.lit.v };
    return { ...a, fn };
  }

  #in(left: Operand): Filter {
    this.#expectPunct('(', 'a list of values in parentheses after in');
    const values: Operand[] = [];
    for (;;) {
      values.push(this.#operand());
      const t = this.#next();
      if (t.t === 'punct' && t.v === ')') break;
      if (t.t !== 'punct' || t.v !== ',')
        throw badRequest(`$filter expected a comma or ")" in the list after in ${describe(t)}.`, 'invalid_filter');
    }
    let out: Filter | undefined;
    for (const v of values) {
      const eq = this.#comparison('eq', left, v);
      out = out ? { k: 'or', a: out, b: eq } : eq;
    }
    return out!;
  }

  #comparison(op: CompareOp, left: Operand & { fn?: Filter }, right: Operand & { fn?: Filter }): Filter {
    if (left.fn || right.fn) {
      // `contains(name,'x') eq true` is the condition itself; `eq false` would need not.
      const [fn, other] = left.fn ? [left.fn, right] : [right.fn!, left];
      if (other.o === 'lit' && other.lit.t === 'boolean' && (op === 'eq' ? other.lit.v : op === 'ne' && !other.lit.v))
        return fn;
      throw notSupported(
        "The feed applies a text function as a condition of its own (contains(name,'x')), not compared with false.",
      );
    }
    if (left.o === 'lit' && right.o === 'prop') return this.#comparison(FLIPPED[op], right, left);
    if (left.o === 'prop' && right.o === 'prop')
      throw notSupported('The feed compares a property with a value, not with another property.');
    if (left.o === 'lit' && right.o === 'lit')
      throw notSupported('The feed compares a property with a value; this comparison has no property.');
    const l = left as Extract<Operand, { o: 'prop' }>;
    const r = right as Extract<Operand, { o: 'lit' }>;
    const name = l.path.join('/');
    if (l.prop.kind !== 'primitive')
      throw badRequest(
        `${name} is ${kindWords(l.prop)}: filter on one of its fields${l.prop.kind === 'complex' ? `, such as ${name}/${l.prop.properties[0]?.name}` : ''}.`,
        'invalid_filter',
      );
    const value = typed(l.prop, r.lit, name);
    if (l.prop.type === 'Edm.Boolean' && op !== 'eq' && op !== 'ne' && value.t !== 'null')
      throw badRequest(`${name} is true or false: compare it with eq or ne.`, 'invalid_filter');
    return { k: 'cmp', op, path: l.path, prop: l.prop, value };
  }
}

const FLIPPED: Record<CompareOp, CompareOp> = { eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' };

function kindWords(p: Property): string {
  if (p.kind === 'complex') return 'a group of fields';
  if (p.kind === 'collection') return 'a list';
  return TYPE_WORDS[p.type];
}

function describe(t: Token): string {
  switch (t.t) {
    case 'end':
      return 'but it ends there';
    case 'punct':
      return `but found "${t.v}"`;
    case 'string':
      return `but found '${quote(t.v)}'`;
    case 'number':
      return `but found ${quote(t.text)}`;
    case 'date':
      return `but found ${t.v}`;
    case 'instant':
      return `but found ${quote(t.text)}`;
    default:
      return `but found ${quote(t.v)}`;
  }
}

/** The literal as a value of the property's type, or a sentence saying which value the property takes. */
function typed(prop: PrimitiveProperty, lit: Literal, name: string): Literal {
  if (lit.t === 'null') return lit;
  const wrong = () =>
    badRequest(
      `${name} is ${TYPE_WORDS[prop.type]}: compare it with one such as ${TYPE_EXAMPLES[prop.type]}.`,
      'invalid_filter',
    );
  switch (prop.type) {
    case 'Edm.String':
      if (lit.t !== 'string') throw wrong();
      return lit;
    case 'Edm.Boolean':
      if (lit.t !== 'boolean') throw wrong();
      return lit;
    case 'Edm.Date':
      if (lit.t !== 'date') throw wrong();
      return lit;
    case 'Edm.DateTimeOffset':
      if (lit.t !== 'instant') throw wrong();
      return lit;
    case 'Edm.Int32':
      if (lit.t !== 'number' || !Number.isInteger(lit.v)) throw wrong();
      return lit;
    default:
      if (lit.t !== 'number' || Number.isNaN(lit.v)) throw wrong();
      return lit;
  }
}

/** `$filter` of `setName` over its properties. */
export function parseFilter(text: string, properties: readonly Property[], setName: string): Filter {
  if (text.length > MAX_LENGTH)
    throw badRequest(`$filter is longer than ${MAX_LENGTH} characters; shorten it.`, 'invalid_filter');
  if (text.trim() === '') throw badRequest('$filter is empty; leave it out to read every row.', 'invalid_filter');
  return new Parser(tokenize(text), properties, setName).parse();
}
