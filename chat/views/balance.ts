/**
 * `/linen balance [customer]`: A/R balance and aging per customer (a bar chart of the aging buckets a currency, one
 * series a customer), with the open invoices.
 */
import { type ArCustomer, type ArReport, nameList } from '../../shared/reports/index.ts';
import type { Invoice } from '../../shared/schemas/accounting.ts';
import { type Chart, moneySeries } from '../content/chart.ts';
import {
  type Content,
  chart,
  divider,
  type Field,
  field,
  fields,
  note,
  type Part,
  type PdfRef,
  text,
  title,
} from '../content/document.ts';
import { dayOf, money, moreLine, plural, take } from '../content/format.ts';
import { b, joinRich, line, type Rich, r } from '../content/rich.ts';

export type { PdfRef } from '../content/document.ts';

export const MAX_CUSTOMERS = 10;
export const MAX_INVOICES = 20;

export function pdfRef(inv: Invoice, timeZone: string): PdfRef {
  return { i: inv.id, c: inv.customer_id, d: dayOf(inv.issued_at, timeZone), n: inv.invoice_number };
}

export function parsePdfRef(value: string | undefined): PdfRef | null {
  try {
    const v = JSON.parse(value ?? '') as Partial<PdfRef>;
    if (typeof v.i === 'string' && typeof v.c === 'string' && typeof v.d === 'string' && typeof v.n === 'string')
      return v as PdfRef;
  } catch {
    /* not ours */
  }
  return null;
}

export const STATUS: Record<string, string> = { sent: 'sent', partially_paid: 'partially paid', paid: 'paid' };

export interface BalanceViewOptions {
  timeZone: string;
  now: Date;
  /** The customer asked for, when one was. */
  customerName?: string | undefined;
}

const agingFields = (a: ArCustomer['aging'], currency: string): Field[] => [
  field('Current', [money(a.current, currency)]),
  field('1–30 days', [money(a.d1_30, currency)]),
  field('31–60 days', [money(a.d31_60, currency)]),
  field('61+ days', [money(a.d61_plus, currency)]),
];

/** The aging buckets charted, as the fields name them. */
const BUCKET_LABELS = ['Current', '1–30 days', '31–60 days', '61+ days'];

/** The aging buckets of the customers of one currency (largest balance first): one series a customer, in its units. */
export function agingChart(customers: readonly ArCustomer[], currency: string): Chart {
  return {
    kind: 'bar',
    title: `Aging by customer (${currency.toUpperCase()})`,
    unit: { kind: 'money', currency },
    axis: 'fixed',
    categories: BUCKET_LABELS,
    series: customers.map((c) =>
      moneySeries(line(c.customerName), [c.aging.current, c.aging.d1_30, c.aging.d31_60, c.aging.d61_plus]),
    ),
    nouns: { categories: 'aging buckets', series: 'customers' },
    notes: [],
  };
}

/** A group that owes nothing of its own: say so, and whose rows follow (a suggestion by name). */
function groupNote(g: NonNullable<ArReport['groupWithoutOwn']>): Rich {
  const name = b(line(g.customerName));
  return g.locations.length
    ? r`${name} is a group with no open balance of its own. Shown with it: its locations visible to this key (found by name), each with its own balance: ${line(nameList(g.locations))}.`
    : r`${name} is a group with no open balance of its own, and this key sees none of its locations.`;
}

/** What the customers not shown add up to, so the lines shown and this one sum to the total. */
function hiddenSum(hidden: readonly ArCustomer[]): string {
  const sums = new Map<string, number>();
  for (const c of hidden) sums.set(c.currency, (sums.get(c.currency) ?? 0) + c.balanceCents);
  return [...sums].map(([currency, cents]) => money(cents, currency)).join(' + ');
}

export function balanceView(report: ArReport, opts: BalanceViewOptions): Content {
  const parts: Part[] = [title(opts.customerName ? `Open balance: ${line(opts.customerName)}` : 'Open balance')];
  const names = new Map(report.customers.map((c) => [c.customerId, c.customerName]));

  if (report.customers.length === 0) {
    parts.push(text(['No balance rows are visible to this key.']));
    return { summary: ['No open balance rows are visible to this key.'], parts };
  }

  if (report.groupWithoutOwn) parts.push(text(groupNote(report.groupWithoutOwn)));

  if (report.customers.length > 1) {
    for (const t of report.totals) {
      parts.push(
        fields(
          agingFields(t.aging, t.currency),
          r`${b(`Total ${t.currency.toUpperCase()}: ${money(t.balanceCents, t.currency)}`)} across ${plural(t.customers, 'customer')}`,
        ),
      );
    }
    parts.push(divider());
  }

  for (const t of report.totals)
    parts.push(
      chart(
        agingChart(
          report.customers.filter((c) => c.currency === t.currency),
          t.currency,
        ),
      ),
    );

  // Each line is the API's own row for that customer; a location added for its group says so.
  const cs = take(report.customers, MAX_CUSTOMERS);
  for (const c of cs.shown) {
    const whose = c.locationOf ? ` (a location of ${line(c.locationOf.customerName)})` : '';
    parts.push(
      fields(
        agingFields(c.aging, c.currency),
        r`${b(line(c.customerName))}${whose}: ${b(money(c.balanceCents, c.currency))} open, ${plural(c.openInvoices, 'open invoice')}`,
      ),
    );
  }
  if (cs.more)
    parts.push(
      note([
        moreLine(
          cs.more,
          'customers',
          `(${hiddenSum(report.customers.slice(MAX_CUSTOMERS))} open; name one to see it)`,
        ),
      ]),
    );

  const invoices = take(report.openInvoices, MAX_INVOICES);
  parts.push(divider());
  if (report.openInvoices.length === 0) parts.push(text(['No open invoices.']));
  else parts.push(text(r`${b('Open invoices')} (${String(report.openInvoices.length)}), oldest due first`));
  for (const inv of invoices.shown) {
    const due = inv.due_at ? dayOf(inv.due_at, opts.timeZone) : null;
    const overdue = inv.due_at !== null && new Date(inv.due_at).getTime() < opts.now.getTime();
    const who = names.get(inv.customer_id);
    const line1 = joinRich(
      [
        b(line(inv.invoice_number)),
        who ? line(who) : null,
        `issued ${dayOf(inv.issued_at, opts.timeZone)}`,
        due ? r`due ${due}${overdue ? [' ', b('(overdue)')] : ''}` : 'no payment terms',
      ].filter(Boolean),
      ' · ',
    );
    const line2 = r`${b(money(inv.balance_cents, inv.currency))} open of ${money(inv.total_cents, inv.currency)} · ${STATUS[inv.status] ?? line(inv.status)}`;
    parts.push(text(r`${line1}\n${line2}`, { kind: 'pdf', invoice: pdfRef(inv, opts.timeZone) }));
  }
  if (invoices.more)
    parts.push(note([moreLine(invoices.more, 'open invoices', '(name a customer to narrow the list)')]));

  const totals = report.totals
    .map((t) => `${money(t.balanceCents, t.currency)} ${t.currency.toUpperCase()}`)
    .join(' + ');
  const who = opts.customerName
    ? ` for ${line(opts.customerName)}`
    : ` across ${plural(report.customers.length, 'customer')}`;
  return {
    summary: [`Open balance${who}: ${totals}; ${plural(report.openInvoices.length, 'open invoice')}.`],
    parts,
  };
}
