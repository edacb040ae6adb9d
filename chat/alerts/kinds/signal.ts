/**
 * `alert signal [kind | shortfall] [low | medium | high] [customer]`: an inventory signal standing (open or
 * acknowledged: the API's default listing) at or above a severity, of a kind. `shortfall` is the shortfall kinds;
 * the kind list is open, so any snake_case word with an underscore is a kind. A signal resolved and reopened is
 * listed again, and so told again.
 */
import { type InventorySignal, SEVERITIES, SHORTFALL_KINDS } from '../../../shared/index.ts';
import { isShortfallWord, kindWord } from '../../../shared/reports/signals.ts';
import { looksLikeKind, signalsCommand as signalsCommandModule } from '../../commands/signals.ts';
import { field } from '../../content/document.ts';
import { count, humanize, plural, when } from '../../content/format.ts';
import { b, command, i, icon, line, type Rich, r } from '../../content/rich.ts';
import { SEVERITY_ICON } from '../../views/signals.ts';
import { defineAlertKind, type Occurrence, type Token } from '../kind.ts';
import {
  alertMessage,
  commandCustomer,
  customerWords,
  inScope,
  isWord,
  meaningful,
  nameOf,
  onlyCustomer,
  type ParseResult,
  parsed,
  problem,
  rerun,
  scopeName,
  typed,
  worstFirst,
} from './common.ts';

export type Severity = (typeof SEVERITIES)[number];

export interface SignalOptions {
  /** A kind in the API's snake case, or `shortfall` (the shortfall kinds); none: every kind. */
  kind?: string;
  /** The least severity told; none: every severity. */
  minSeverity?: Severity;
}

export interface SignalDetail {
  customerId: string | null;
  departmentName: string | null;
  itemName: string | null;
  severity: string;
  kind: string;
  status: string;
  summary: string;
  suggestedOrderQty: number | null;
  generatedAt: string;
}

const RANK: Record<string, number> = { low: 1, medium: 2, high: 3 };
/** Words people use for a severity the API does not have: answered with the three it has. */
const NOT_SEVERITIES = ['critical', 'crit', 'urgent', 'severe', 'major', 'minor', 'info', 'warning', 'warn', 'med'];
/** A suggested order below this orders signals of one severity (larger first). */
const ORDER_SCALE = 1_000_000;

const isSeverity = (w: string): w is Severity => (SEVERITIES as readonly string[]).includes(w);
const badSeverity = (t: Token) =>
  `${typed(t.text)} is not a severity: give low, medium or high (the least severity told), or leave it out for every one.`;

/**
 * Reads the kind and the severity from the first words, in either order (`signal shortfall high`, `signal high
 * shortfall`); the words after them are the customer. A quoted word is always the customer's.
 */
function parseSignal(tokens: readonly Token[]): ParseResult<SignalOptions> {
  const words = meaningful(tokens);
  const options: SignalOptions = {};
  const setSeverity = (s: Severity): { problem: string } | null => {
    if (options.minSeverity) return problem('Give one severity: low, medium or high (the least severity told).');
    options.minSeverity = s;
    return null;
  };
  let i = 0;
  while (i < words.length) {
    const t = words[i]!;
    if (t.quoted) break;
    const w = t.text.trim().toLowerCase();
    if (isWord(t, 'severity', 'min', 'minimum')) {
      const next = words[i + 1];
      if (!next) return problem('Give the least severity after it: low, medium or high.');
      const s = next.text.trim().toLowerCase();
      if (next.quoted || !isSeverity(s)) return problem(badSeverity(next));
      const refused = setSeverity(s);
      if (refused) return refused;
      i += 2;
      continue;
    }
    if (isSeverity(w)) {
      const refused = setSeverity(w);
      if (refused) return refused;
      i++;
      continue;
    }
    // A severity word the API does not have, standing alone where the severity goes.
    if (NOT_SEVERITIES.includes(w) && i === words.length - 1) return problem(badSeverity(t));
    // As the signals command reads a kind: the word as typed, lower case.
    if (options.kind === undefined && looksLikeKind(w)) {
      options.kind = isShortfallWord(w) ? 'shortfall' : kindWord(w);
      i++;
      continue;
    }
    break;
  }
  return parsed(options, customerWords(words.slice(i), false));
}

/** Whether a signal is of the kind asked: `shortfall` is the shortfall kinds, any other kind itself. */
export function ofKind(kind: string | undefined): (s: InventorySignal) => boolean {
  if (kind === undefined) return () => true;
  if (kind === 'shortfall') return (s) => (SHORTFALL_KINDS as readonly string[]).includes(s.kind);
  return (s) => s.kind === kind;
}

const kindText = (o: SignalOptions) =>
  o.kind === undefined ? '' : o.kind === 'shortfall' ? 'shortfall ' : `${humanize(o.kind).toLowerCase()} `;
const severityText = (o: SignalOptions) =>
  o.minSeverity ? `${o.minSeverity}${o.minSeverity === 'high' ? '' : '+'} ` : '';

const signalsCommand = (o: SignalOptions, customer: string | undefined) =>
  signalsCommandModule.format({ signalKind: o.kind, customer });

export const signalKind = defineAlertKind<'signal', SignalOptions, SignalDetail>({
  name: 'signal',
  words: ['signal', 'signals'],
  access: 'operations',
  help: {
    usage: 'alert signal [kind | shortfall] [low | medium | high] [customer]',
    description:
      'An inventory signal appears (or reopens) at or above a severity (default: any), open or acknowledged; "shortfall" means shortfall streaks and circulation breaches.',
    examples: ['alert signal shortfall high', 'alert signal circulation_breach Mercy General Hospital', 'alert signal'],
  },
  parse: parseSignal,
  describe: (scope, names) =>
    `${severityText(scope.options)}${kindText(scope.options)}signals at ${scopeName(scope, names)}`,
  reads: ['customers', 'signals'],
  async occurrences(scope, reads) {
    const [signals, customers] = await Promise.all([reads.signals(), reads.customers()]);
    const covers = inScope(scope, customers);
    const departments = new Map(customers.flatMap((c) => c.departments.map((d) => [d.id, d.name] as const)));
    const least = scope.options.minSeverity ? RANK[scope.options.minSeverity]! : 0;
    const kind = ofKind(scope.options.kind);
    const out: Occurrence<SignalDetail>[] = [];
    for (const s of signals) {
      if (!covers(s.customer_id) || !kind(s) || (RANK[s.severity] ?? 0) < least) continue;
      out.push({
        id: `signal:${s.id}`,
        at: s.generated_at,
        weight: (RANK[s.severity] ?? 0) * ORDER_SCALE + Math.min(ORDER_SCALE - 1, s.suggested_order_qty ?? 0),
        detail: {
          customerId: s.customer_id,
          departmentName: s.department_id ? (departments.get(s.department_id) ?? null) : null,
          itemName: s.item_name,
          severity: s.severity,
          kind: s.kind,
          status: s.status,
          summary: s.summary,
          suggestedOrderQty: s.suggested_order_qty,
          generatedAt: s.generated_at,
        },
      });
    }
    return out;
  },
  message(scope, occurrences, ctx) {
    const names = ctx.customerNames;
    const n = occurrences.length;
    const severityOf = (d: SignalDetail): Rich => {
      const ic = SEVERITY_ICON[d.severity];
      return ic ? r`${icon(ic)} ${b(humanize(line(d.severity)))}` : [b(humanize(line(d.severity)))];
    };
    const place = (d: SignalDetail) =>
      `${line(nameOf(names, d.customerId))}${d.departmentName ? ` › ${line(d.departmentName)}` : ''}`;
    const order = (d: SignalDetail): Rich =>
      d.suggestedOrderQty !== null ? [' · suggested order ', b(count(d.suggestedOrderQty))] : [];
    const bySeverity = ['high', 'medium', 'low']
      .map((s) => [s, occurrences.filter((o) => o.detail.severity === s).length] as const)
      .filter(([, k]) => k > 0)
      .map(([s, k]) => `${count(k)} ${s}`);
    const worst = worstFirst(occurrences)[0]!.detail;
    const customer = commandCustomer(
      scope,
      occurrences.map((o) => o.detail.customerId),
      names,
    );
    return alertMessage({
      title: `${plural(n, `${kindText(scope.options)}signal`)} at ${scopeName(scope, names)}`,
      lead: r`${b(plural(n, 'signal'))} ${n === 1 ? 'is' : 'are'} now standing${bySeverity.length ? ` (${bySeverity.join(', ')})` : ''}; the worst, at ${place(worst)}: ${line(worst.summary)}.`,
      summary: `${plural(n, 'new inventory signal')} at ${scopeName(scope, names)}; worst: ${humanize(worst.severity)} ${humanize(worst.kind).toLowerCase()} at ${place(worst)}: ${line(worst.summary)}`,
      occurrences,
      line: (d) =>
        r`${severityOf(d)} · ${humanize(line(d.kind))} · ${place(d)}${d.itemName ? ` · ${line(d.itemName)}` : ''}: ${line(d.summary)}${order(d)}${
          d.status === 'acknowledged' ? [' ', i('(acknowledged)')] : ''
        }`,
      fields: (d) => [
        field('Severity', severityOf(d)),
        field('Kind', [humanize(line(d.kind))]),
        field('Where', [place(d)]),
        field('Item', [d.itemName ? line(d.itemName) : 'all items']),
        field('Suggested order', [d.suggestedOrderQty !== null ? plural(d.suggestedOrderQty, 'piece') : '—']),
        field('Generated', [when(d.generatedAt, ctx.timeZone)]),
      ],
      after: (d) => [line(d.summary)],
      noun: 'signals',
      notes: [[`Open and acknowledged signals, the most severe first. Times in ${ctx.timeZone}.`]],
      actions: [rerun('Show the signals', signalsCommand(scope.options, customer))],
      test: ctx.test,
    });
  },
  nowLine(scope, n, names) {
    const cmd = command(signalsCommand(scope.options, onlyCustomer(scope, names)));
    const what = `${severityText(scope.options)}${kindText(scope.options)}`;
    return n === 0
      ? r`No ${what}signal is open right now; ${cmd} lists the signals.`
      : r`${plural(n, `${what}signal`)} ${n === 1 ? 'is' : 'are'} open right now: ${cmd} lists them.`;
  },
});
