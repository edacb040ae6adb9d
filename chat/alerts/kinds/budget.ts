/**
 * `alert budget [NN%] [customer]`: an active purchase order has less than NN% of its budget left (default 20%;
 * remaining ÷ total). An order with a total of 0 has no share to speak of and is left out. An order is told once,
 * when it crosses the line.
 */
import { dayInZone } from '../../../shared/dates.ts';
import { poCommand as poCommandModule } from '../../commands/po.ts';
import { field } from '../../content/document.ts';
import { money, pct, plural } from '../../content/format.ts';
import { b, command, line, r } from '../../content/rich.ts';
import { defineAlertKind, type Occurrence, type Token } from '../kind.ts';
import {
  alertMessage,
  commandCustomer,
  customerWords,
  looksLikePercent,
  meaningful,
  nameOf,
  onlyCustomer,
  type ParseResult,
  parsed,
  percentAt,
  problem,
  rerun,
  scopeName,
  scopeOf,
  typed,
  worstFirst,
} from './common.ts';

export interface BudgetOptions {
  /** Told under this percentage of the budget left (0 < percent ≤ 100). */
  percent: number;
}

export interface BudgetDetail {
  poId: string;
  number: string;
  customerId: string;
  remainingCents: number;
  totalCents: number;
  currency: string;
  /** remaining ÷ total. */
  shareLeft: number;
  /** The org-local expiry day. */
  expiresDay: string;
}

export const DEFAULT_BUDGET_PERCENT = 20;

function parseBudget(tokens: readonly Token[]): ParseResult<BudgetOptions> {
  const words = meaningful(tokens);
  let percent: number | undefined;
  const rest: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    // A number alone first is the percentage too (`budget 20 Mercy`).
    const p = percentAt(words, i, i === 0);
    if (!p) {
      if (looksLikePercent(words[i]!))
        return problem(`Give the share of the budget left as a percentage, like 20% (not ${typed(words[i]!.text)}).`);
      rest.push(words[i]!);
      continue;
    }
    if (percent !== undefined) return problem('Give the share of the budget left once, like 20%.');
    if (!(p.value > 0 && p.value <= 100))
      return problem(`The share of the budget left is more than 0% and at most 100% (got ${p.typed}).`);
    percent = p.value;
    i += p.used - 1;
  }
  return parsed({ percent: percent ?? DEFAULT_BUDGET_PERCENT }, customerWords(rest, false));
}

const poCommand = (customer: string | undefined) => poCommandModule.format({ customer });

export const budgetKind = defineAlertKind<'budget', BudgetOptions, BudgetDetail>({
  name: 'budget',
  words: ['budget', 'budgets'],
  access: 'accounting',
  help: {
    usage: 'alert budget [NN%] [customer]',
    description: `An active purchase order has less than NN% of its budget left (default ${DEFAULT_BUDGET_PERCENT}%).`,
    examples: ['alert budget', 'alert budget 10% Mercy General Hospital'],
  },
  parse: parseBudget,
  describe: (scope, names) =>
    `purchase orders under ${scope.options.percent}% of their budget left at ${scopeName(scope, names)}`,
  reads: ['customers', 'activePurchaseOrders'],
  async occurrences(scope, reads) {
    const [orders, covers] = await Promise.all([reads.activePurchaseOrders(), scopeOf(scope, reads)]);
    const under = scope.options.percent / 100;
    const out: Occurrence<BudgetDetail>[] = [];
    for (const po of orders) {
      // The listing is of active orders; a total of 0 has no share left to speak of.
      if (po.status !== 'active' || po.total_cents <= 0 || !covers(po.customer_id)) continue;
      const shareLeft = po.remaining_cents / po.total_cents;
      if (!(shareLeft < under)) continue;
      out.push({
        id: `po:${po.id}`,
        at: null,
        weight: 1 - shareLeft,
        detail: {
          poId: po.id,
          number: po.po_number,
          customerId: po.customer_id,
          remainingCents: po.remaining_cents,
          totalCents: po.total_cents,
          currency: po.currency,
          shareLeft,
          expiresDay: dayInZone(new Date(po.expires_at), scope.timeZone),
        },
      });
    }
    return out;
  },
  message(scope, occurrences, ctx) {
    const names = ctx.customerNames;
    const n = occurrences.length;
    const under = `${scope.options.percent}%`;
    const worst = worstFirst(occurrences)[0]!.detail;
    const who = (d: BudgetDetail) => line(nameOf(names, d.customerId));
    const left = (d: BudgetDetail) => `${money(d.remainingCents, d.currency)} left`;
    const customer = commandCustomer(
      scope,
      occurrences.map((o) => o.detail.customerId),
      names,
    );
    return alertMessage({
      title: `${plural(n, 'purchase order')} under ${under} of budget left at ${scopeName(scope, names)}`,
      lead: r`${b(plural(n, 'purchase order'))} ${n === 1 ? 'has' : 'have'} less than ${under} of ${n === 1 ? 'its' : 'their'} budget left; the least: ${b(line(worst.number))} of ${who(worst)}, ${b(left(worst))} of ${money(worst.totalCents, worst.currency)} (${pct(worst.shareLeft)}).`,
      summary: `${plural(n, 'purchase order')} under ${under} of budget left at ${scopeName(scope, names)}; least: ${line(worst.number)} ${left(worst)} (${pct(worst.shareLeft)}).`,
      occurrences,
      line: (d) =>
        r`${b(line(d.number))} · ${who(d)} · ${b(left(d))} of ${money(d.totalCents, d.currency)} (${pct(d.shareLeft)} left) · expires ${d.expiresDay}`,
      fields: (d) => [
        field('Purchase order', [b(line(d.number))]),
        field('Customer', [who(d)]),
        field('Left', [b(`${money(d.remainingCents, d.currency)} ${d.currency.toUpperCase()}`)]),
        field('Budget', [money(d.totalCents, d.currency)]),
        field('Share left', [pct(d.shareLeft, 1)]),
        field('Expires', [d.expiresDay]),
      ],
      noun: 'purchase orders',
      notes: [[`Share left = remaining ÷ total; the least left first. Days are org-local (${ctx.timeZone}).`]],
      actions: [rerun('Show purchase orders', poCommand(customer))],
      test: ctx.test,
    });
  },
  nowLine(scope, n, names) {
    const cmd = command(poCommand(onlyCustomer(scope, names)));
    const under = `${scope.options.percent}%`;
    return n === 0
      ? r`No active purchase order has less than ${under} of its budget left right now; ${cmd} lists them.`
      : r`${plural(n, 'purchase order')} ${n === 1 ? 'has' : 'have'} less than ${under} of ${n === 1 ? 'its' : 'their'} budget left right now: ${cmd} lists them.`;
  },
});
