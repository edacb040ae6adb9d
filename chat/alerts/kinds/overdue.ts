/**
 * `alert overdue [NNd] [customer]`: an open invoice (a balance left) is NN days or more overdue (default 60). Days
 * overdue are org-local days since the due day, as `invoices` counts them: an invoice due today is not overdue, one
 * without payment terms never is. An invoice is told once, on the day it reaches NN days.
 */

import { dayInZone } from '../../../shared/dates.ts';
import { startOfDayInZone } from '../../../shared/day-start.ts';
import { addDays, daysOverdue } from '../../../shared/index.ts';
import { invoicesCommand } from '../../commands/invoices.ts';
import { field } from '../../content/document.ts';
import { count, money, plural } from '../../content/format.ts';
import { b, command, line, r } from '../../content/rich.ts';
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

export interface OverdueOptions {
  /** Days overdue that make an invoice worth telling. */
  days: number;
}

export interface OverdueDetail {
  invoiceId: string;
  number: string;
  customerId: string;
  balanceCents: number;
  currency: string;
  daysOverdue: number;
  /** The org-local due day. */
  dueDay: string;
}

export const DEFAULT_OVERDUE_DAYS = 60;
const MAX_DAYS = 365;

const DAYS = /^(\d{1,9})\s*d(?:ays?)?$/i;
/** Meant as a number of days, but not a whole one (`-5d`, `1.5d`, `1e3d`). */
const DAYS_LIKE = /^[-+]?\.?\d[\d.,e+-]*\s*d(?:ays?)?$/i;

function parseOverdue(tokens: readonly Token[]): ParseResult<OverdueOptions> {
  const words = meaningful(tokens);
  let days: number | undefined;
  const rest: Token[] = [];
  for (let i = 0; i < words.length; i++) {
    const t = words[i]!;
    const text = t.text.trim();
    let n: number | null = null;
    if (!t.quoted) {
      const m = DAYS.exec(text);
      if (m) n = Number(m[1]);
      else if (wholeNumber(text) !== null && isWord(words[i + 1], 'd', 'day', 'days')) {
        n = wholeNumber(text);
        i++;
      } else if (i === 0 && wholeNumber(text) !== null) n = wholeNumber(text);
      else if (DAYS_LIKE.test(text))
        return problem(`Give the days overdue as a whole number of days, like 60d (not ${typed(text)}).`);
    }
    if (n === null) {
      rest.push(t);
      continue;
    }
    if (days !== undefined) return problem('Give the days overdue once, like 60d.');
    if (n < 1 || n > MAX_DAYS) return problem(`The days overdue are 1d to ${MAX_DAYS}d (got ${count(n)}d).`);
    days = n;
  }
  return parsed({ days: days ?? DEFAULT_OVERDUE_DAYS }, customerWords(rest, false));
}

const overdueCommand = (customer: string | undefined) => invoicesCommand.format({ customer, overdue: true });

/** `$1,200.00 and CA$300.00`: sums per currency, never added across them. */
function amounts(items: readonly { balanceCents: number; currency: string }[]): string {
  const by = new Map<string, number>();
  for (const i of items) by.set(i.currency, (by.get(i.currency) ?? 0) + i.balanceCents);
  return [...by]
    .sort(([a], [z]) => a.localeCompare(z))
    .map(([cur, cents]) => money(cents, cur))
    .join(' and ');
}

export const overdueKind = defineAlertKind<'overdue', OverdueOptions, OverdueDetail>({
  name: 'overdue',
  words: ['overdue'],
  access: 'accounting',
  help: {
    usage: 'alert overdue [NNd] [customer]',
    description: `An open invoice reaches NN days overdue (default ${DEFAULT_OVERDUE_DAYS}d; org-local days since the due day, as invoices counts them).`,
    examples: ['alert overdue', 'alert overdue 30d Harborview Hotel'],
  },
  parse: parseOverdue,
  describe: (scope, names) => `invoices ${scope.options.days} days or more overdue at ${scopeName(scope, names)}`,
  reads: ['customers', 'openInvoices'],
  async occurrences(scope, reads, time) {
    const [invoices, covers] = await Promise.all([reads.openInvoices(), scopeOf(scope, reads)]);
    const least = scope.options.days;
    const out: Occurrence<OverdueDetail>[] = [];
    for (const inv of invoices) {
      if (inv.balance_cents <= 0 || inv.due_at === null || !covers(inv.customer_id)) continue;
      const days = daysOverdue(inv, time.today, scope.timeZone);
      if (days === null || days < least) continue;
      const dueDay = dayInZone(new Date(inv.due_at), scope.timeZone);
      out.push({
        id: `invoice:${inv.id}`,
        // The org-local day it reached the alert's days overdue began.
        at: startOfDayInZone(addDays(dueDay, least), scope.timeZone).toISOString(),
        weight: inv.balance_cents,
        detail: {
          invoiceId: inv.id,
          number: inv.invoice_number,
          customerId: inv.customer_id,
          balanceCents: inv.balance_cents,
          currency: inv.currency,
          daysOverdue: days,
          dueDay,
        },
      });
    }
    return out;
  },
  message(scope, occurrences, ctx) {
    const names = ctx.customerNames;
    const n = occurrences.length;
    const days = count(scope.options.days);
    const worst = worstFirst(occurrences)[0]!.detail;
    const who = (d: OverdueDetail) => line(nameOf(names, d.customerId));
    const open = (d: OverdueDetail) => money(d.balanceCents, d.currency);
    const customer = commandCustomer(
      scope,
      occurrences.map((o) => o.detail.customerId),
      names,
    );
    return alertMessage({
      title: `${plural(n, 'invoice')} ${days}+ days overdue at ${scopeName(scope, names)}`,
      lead: r`${b(plural(n, 'invoice'))} ${n === 1 ? 'is' : 'are'} now ${days} days or more overdue, ${b(
        amounts(occurrences.map((o) => o.detail)),
      )} open; the largest: ${b(line(worst.number))} of ${who(worst)}, ${open(worst)}, ${plural(worst.daysOverdue, 'day')} overdue.`,
      summary: `${plural(n, 'invoice')} ${days}+ days overdue at ${scopeName(scope, names)}: ${amounts(
        occurrences.map((o) => o.detail),
      )} open; largest ${line(worst.number)} (${open(worst)}).`,
      occurrences,
      line: (d) =>
        r`${b(line(d.number))} · ${who(d)} · ${b(open(d))} open · ${b(`${plural(d.daysOverdue, 'day')} overdue`)} (due ${d.dueDay})`,
      fields: (d) => [
        field('Invoice', [b(line(d.number))]),
        field('Customer', [who(d)]),
        field('Open', [b(`${open(d)} ${d.currency.toUpperCase()}`)]),
        field('Overdue', [plural(d.daysOverdue, 'day')]),
        field('Due', [d.dueDay]),
      ],
      noun: 'invoices',
      notes: [
        [
          `Days overdue are org-local days (${ctx.timeZone}) since the due day; an invoice due today is not yet overdue. The largest amount open first.`,
        ],
      ],
      actions: [rerun('Show overdue invoices', overdueCommand(customer))],
      test: ctx.test,
    });
  },
  nowLine(scope, n, names) {
    const cmd = command(overdueCommand(onlyCustomer(scope, names)));
    const days = count(scope.options.days);
    return n === 0
      ? r`No invoice is ${days} days or more overdue right now; ${cmd} lists the overdue ones.`
      : r`${plural(n, 'invoice')} ${n === 1 ? 'is' : 'are'} ${days} days or more overdue right now: ${cmd} lists them.`;
  },
});
