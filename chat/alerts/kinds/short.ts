/**
 * `alert short [customer] [department | unit] [min N]`: a cart count of today (org-local) that is no longer pending
 * and misses at least N pieces (default 1). Missing is Σ max(0, required − delivered) over the count's lines, as
 * `short` counts it. One occurrence per count: a cart counted twice today is two counts.
 */
import { InvalidParamsError, unitsOfPlace } from '../../../shared/index.ts';
import { shortCommand as shortCommandModule } from '../../commands/short.ts';
import { field } from '../../content/document.ts';
import { count, humanize, plural, when } from '../../content/format.ts';
import { b, command, commandWords, line, type Rich, r } from '../../content/rich.ts';
import { defineAlertKind, type Occurrence, type Token } from '../kind.ts';
import {
  alertMessage,
  commandCustomer,
  customerWords,
  isWord,
  meaningful,
  nameOf,
  onlyCustomer,
  type ParseResult,
  parsed,
  problem,
  rerun,
  scopeName,
  scopeOf,
  typed,
  wholeNumber,
  worstFirst,
} from './common.ts';

export interface ShortOptions {
  /** The fewest pieces missing that make a count worth telling (at least 1). */
  minMissing: number;
  /** The units of the department or unit named (resolved when the alert was set), with what was named. */
  unitIds?: string[];
  place?: string;
}

export interface ShortDetail {
  customerId: string;
  cartName: string | null;
  unitName: string | null;
  status: string;
  missing: number;
  /** The items missing, worst first (at most MAX_ITEMS), and how many more. */
  items: { name: string; missing: number; required: number; delivered: number }[];
  moreItems: number;
  at: string | null;
}

const MAX_MIN = 100_000;
/** Items a count's detail keeps (it is stored with the post). */
const MAX_ITEMS = 12;
/** Items a list line names. */
const LINE_ITEMS = 4;

function parseShort(tokens: readonly Token[]): ParseResult<ShortOptions> {
  const words = meaningful(tokens);
  let minMissing = 1;
  let seen = false;
  const rest: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = words[i]!;
    if (!isWord(t, 'min', 'minimum')) {
      rest.push(t);
      continue;
    }
    if (seen) return problem('Give min once, like min 5.');
    seen = true;
    const next = words[i + 1];
    const n = next && !next.quoted ? wholeNumber(next.text) : null;
    if (n === null)
      return problem(
        next
          ? `After min, give the fewest pieces missing as a whole number, like min 5 (not ${typed(next.text)}).`
          : 'After min, give the fewest pieces missing, like min 5.',
      );
    if (n < 1 || n > MAX_MIN) return problem(`min is 1 to ${count(MAX_MIN)} pieces (got ${count(n)}).`);
    minMissing = n;
    i++;
  }
  return parsed({ minMissing }, customerWords(rest, true));
}

const where = (scope: { customerIds: readonly string[]; options: ShortOptions }, names: ReadonlyMap<string, string>) =>
  `${scopeName(scope, names)}${scope.options.place ? ` › ${line(scope.options.place)}` : ''}`;

const threshold = (o: ShortOptions) => (o.minMissing > 1 ? `at least ${plural(o.minMissing, 'piece')} ` : '');

const shortCommand = (customer: string | undefined, place: string | undefined) =>
  shortCommandModule.format(customer && place ? { customer, place } : { customer });

export const shortKind = defineAlertKind<'short', ShortOptions, ShortDetail>({
  name: 'short',
  words: ['short', 'shortage', 'shortages'],
  access: 'operations',
  help: {
    usage: 'alert short [customer] [department | unit] [min N]',
    description:
      "A cart count of today closes short: no longer pending, and at least N pieces missing (default 1; missing = required − delivered, as short counts it). Quote a customer's name when a department or unit follows.",
    examples: ['alert short', 'alert short Mercy General Hospital min 20', 'alert short "Mercy General Hospital" ICU'],
  },
  parse: parseShort,
  async resolve(p, customer, reads) {
    if (p.place === undefined) return p.options;
    if (!customer)
      return problem(
        'Give the customer of the department or unit first, like alert short "Mercy General Hospital" ICU.',
      );
    const [departments, units] = await Promise.all([reads.departments(customer.id), reads.units()]);
    try {
      const found = unitsOfPlace(
        p.place,
        customer,
        departments,
        units.filter((u) => u.customer_id === customer.id),
      );
      return { ...p.options, unitIds: found.units.map((u) => u.id), place: found.label };
    } catch (err) {
      if (err instanceof InvalidParamsError) return problem(err.message);
      throw err;
    }
  },
  describe: (scope, names) => `carts closing ${threshold(scope.options)}short at ${where(scope, names)}`,
  reads: ['customers', 'cartCounts'],
  async occurrences(scope, reads, time) {
    const [counts, covers] = await Promise.all([reads.cartCounts(time.today), scopeOf(scope, reads)]);
    const units = scope.options.unitIds ? new Set(scope.options.unitIds) : null;
    const out: Occurrence<ShortDetail>[] = [];
    for (const c of counts) {
      // A pending count has nothing counted yet; a count of another day is not today's news.
      if (c.date !== time.today || c.status === 'pending' || !covers(c.customer_id)) continue;
      if (units && (c.unit_id === null || !units.has(c.unit_id))) continue;
      const items = c.lines
        .map((l) => ({
          name: l.item_name,
          missing: Math.max(0, l.required - l.delivered),
          required: l.required,
          delivered: l.delivered,
        }))
        .filter((l) => l.missing > 0)
        .sort((a, z) => z.missing - a.missing || a.name.localeCompare(z.name));
      const missing = items.reduce((s, l) => s + l.missing, 0);
      if (missing < scope.options.minMissing) continue;
      const at = c.verified_at ?? c.counted_at;
      out.push({
        id: `count:${c.id}`,
        at,
        weight: missing,
        detail: {
          customerId: c.customer_id,
          cartName: c.cart_name,
          unitName: c.unit_name,
          status: c.status,
          missing,
          items: items.slice(0, MAX_ITEMS),
          moreItems: Math.max(0, items.length - MAX_ITEMS),
          at,
        },
      });
    }
    return out;
  },
  message(scope, occurrences, ctx) {
    const names = ctx.customerNames;
    const total = occurrences.reduce((s, o) => s + o.detail.missing, 0);
    const n = occurrences.length;
    const cart = (d: ShortDetail) => line(d.cartName ?? 'A cart');
    const place = (d: ShortDetail) => `${line(nameOf(names, d.customerId))} › ${line(d.unitName ?? 'no unit')}`;
    const counted = (d: ShortDetail) =>
      `${humanize(d.status).toLowerCase()}${d.at ? `, ${when(d.at, ctx.timeZone)}` : ''}`;
    const itemText = (i: ShortDetail['items'][number]) => `${count(i.missing)} ${line(i.name)}`;
    const worst = worstFirst(occurrences)[0]!.detail;
    const customer = commandCustomer(
      scope,
      occurrences.map((o) => o.detail.customerId),
      names,
    );
    const cmd = shortCommand(scope.options.place ? onlyCustomer(scope, names) : customer, scope.options.place);
    return alertMessage({
      title: `${plural(n, 'cart')} short at ${where(scope, names)}`,
      lead: r`${b(plural(n, 'cart'))} counted today ${n === 1 ? 'is' : 'are'} short ${b(plural(total, 'piece'))}${
        scope.options.minMissing > 1 ? ` (each at least ${count(scope.options.minMissing)})` : ''
      }; the worst: ${cart(worst)} at ${place(worst)}, ${b(count(worst.missing))} missing.`,
      summary: `${plural(n, 'cart')} short at ${where(scope, names)}: ${plural(total, 'piece')} missing; worst ${line(worst.cartName ?? 'a cart')} (${count(worst.missing)}).`,
      occurrences,
      line: (d) => {
        const listed = d.items.slice(0, LINE_ITEMS).map(itemText);
        const more = d.items.length + d.moreItems - listed.length;
        return r`${b(count(d.missing))} missing · ${cart(d)} at ${place(d)} (${counted(d)}): ${listed.join(', ')}${
          more > 0 ? `, +${plural(more, 'more item')}` : ''
        }`;
      },
      fields: (d) => [
        field('Missing', [b(plural(d.missing, 'piece'))]),
        field('Cart', [cart(d)]),
        field('Where', [place(d)]),
        field('Count', [counted(d)]),
      ],
      after: (d) => {
        const lines: Rich[] = d.items.map((i) => [
          `${itemText(i)}: ${count(i.delivered)} of ${count(i.required)} required delivered`,
        ]);
        if (d.moreItems) lines.push([`+${plural(d.moreItems, 'more item')}`]);
        return r`${b('Items missing')}, worst first\n${lines.flatMap((l, i) => (i ? ['\n', ...l] : l))}`;
      },
      noun: 'carts',
      notes: [
        r`Missing = required at the count − delivered since, never below 0, as ${commandWords('short')} counts it. Times in ${ctx.timeZone}.`,
      ],
      actions: [rerun('Show what is short', cmd)],
      test: ctx.test,
    });
  },
  nowLine(scope, n, names) {
    const cmd = command(shortCommand(onlyCustomer(scope, names), scope.options.place));
    const what = `${threshold(scope.options)}short`;
    return n === 0
      ? r`No cart counted today is ${what} right now; ${cmd} lists what is missing.`
      : r`${plural(n, 'cart')} ${n === 1 ? 'is' : 'are'} ${what} right now: ${cmd} lists them.`;
  },
});
