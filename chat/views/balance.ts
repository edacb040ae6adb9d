/** `/linen balance [customer]`: A/R balance and aging per customer, with the open invoices. */
import { type ArCustomer, type ArReport, nameList } from '../../shared/reports/index.ts';
import type { Invoice } from '../../shared/schemas/accounting.ts';
import {
  type Block,
  button,
  context,
  divider,
  fields,
  header,
  type Message,
  section,
} from '../../slack-bot/blocks/kit.ts';
import { moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, dayOf, escLine, money, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';
import { ACTION } from './common.ts';

export const MAX_CUSTOMERS = 10;
export const MAX_INVOICES = 20;

/** What a PDF button carries: enough to list the invoice again (its signed link lasts 15 minutes). */
export interface PdfRef {
  /** invoice id */
  i: string;
  /** customer id */
  c: string;
  /** org-local issued day */
  d: string;
  /** invoice number, for messages */
  n: string;
}

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

const STATUS: Record<string, string> = { sent: 'sent', partially_paid: 'partially paid', paid: 'paid' };

export interface BalanceViewOptions {
  timeZone: string;
  now: Date;
  /** The customer asked for, when one was. */
  customerName?: string | undefined;
}

const agingFields = (a: ArCustomer['aging'], currency: string) => [
  `*Current*\n${money(a.current, currency)}`,
  `*1–30 days*\n${money(a.d1_30, currency)}`,
  `*31–60 days*\n${money(a.d31_60, currency)}`,
  `*61+ days*\n${money(a.d61_plus, currency)}`,
];

/** A group that owes nothing of its own: say so, and whose rows follow (a suggestion by name). */
function groupNote(g: NonNullable<ArReport['groupWithoutOwn']>): string {
  const name = escLine(g.customerName);
  return g.locations.length
    ? `${bold(name)} is a group with no open balance of its own. Shown with it: its locations visible to this key (found by name), each with its own balance: ${escLine(nameList(g.locations))}.`
    : `${bold(name)} is a group with no open balance of its own, and this key sees none of its locations.`;
}

/** What the customers not shown add up to, so the lines shown and this one sum to the total. */
function hiddenSum(hidden: readonly ArCustomer[]): string {
  const sums = new Map<string, number>();
  for (const c of hidden) sums.set(c.currency, (sums.get(c.currency) ?? 0) + c.balanceCents);
  return [...sums].map(([currency, cents]) => money(cents, currency)).join(' + ');
}

export function balanceMessage(report: ArReport, opts: BalanceViewOptions): Message {
  const title = opts.customerName ? `Open balance: ${plain(opts.customerName)}` : 'Open balance';
  const blocks: Block[] = [header(title)];
  const names = new Map(report.customers.map((c) => [c.customerId, c.customerName]));

  if (report.customers.length === 0) {
    blocks.push(section('No balance rows are visible to this key.'));
    return { text: 'No open balance rows are visible to this key.', blocks };
  }

  if (report.groupWithoutOwn) blocks.push(section(groupNote(report.groupWithoutOwn)));

  if (report.customers.length > 1) {
    for (const t of report.totals) {
      blocks.push(
        fields(
          agingFields(t.aging, t.currency),
          `*Total ${t.currency.toUpperCase()}: ${money(t.balanceCents, t.currency)}* across ${plural(t.customers, 'customer')}`,
        ),
      );
    }
    blocks.push(divider());
  }

  // Each line is the API's own row for that customer; a location added for its group says so.
  const cs = take(report.customers, MAX_CUSTOMERS);
  for (const c of cs.shown) {
    const whose = c.locationOf ? ` (a location of ${escLine(c.locationOf.customerName)})` : '';
    blocks.push(
      fields(
        agingFields(c.aging, c.currency),
        `${bold(escLine(c.customerName))}${whose}: *${money(c.balanceCents, c.currency)}* open, ${plural(c.openInvoices, 'open invoice')}`,
      ),
    );
  }
  if (cs.more)
    blocks.push(
      context(
        moreLine(
          cs.more,
          'customers',
          `(${hiddenSum(report.customers.slice(MAX_CUSTOMERS))} open; name one to see it)`,
        ),
      ),
    );

  const invoices = take(report.openInvoices, MAX_INVOICES);
  blocks.push(divider());
  if (report.openInvoices.length === 0) blocks.push(section('No open invoices.'));
  else blocks.push(section(`*Open invoices* (${report.openInvoices.length}), oldest due first`));
  invoices.shown.forEach((inv, idx) => {
    const due = inv.due_at ? dayOf(inv.due_at, opts.timeZone) : null;
    const overdue = inv.due_at !== null && new Date(inv.due_at).getTime() < opts.now.getTime();
    const who = names.get(inv.customer_id);
    const line1 = [
      bold(escLine(inv.invoice_number)),
      who ? escLine(who) : null,
      `issued ${dayOf(inv.issued_at, opts.timeZone)}`,
      due ? `due ${due}${overdue ? ' *(overdue)*' : ''}` : 'no payment terms',
    ]
      .filter(Boolean)
      .join(' · ');
    const line2 = `*${money(inv.balance_cents, inv.currency)}* open of ${money(inv.total_cents, inv.currency)} · ${STATUS[inv.status] ?? escLine(inv.status)}`;
    blocks.push(
      section(`${line1}\n${line2}`, button('PDF', `${ACTION.pdf}:${idx}`, JSON.stringify(pdfRef(inv, opts.timeZone)))),
    );
  });
  if (invoices.more)
    blocks.push(context(moreLine(invoices.more, 'open invoices', '(name a customer to narrow the list)')));

  const totals = report.totals
    .map((t) => `${money(t.balanceCents, t.currency)} ${t.currency.toUpperCase()}`)
    .join(' + ');
  const who = opts.customerName
    ? ` for ${escLine(opts.customerName)}`
    : ` across ${plural(report.customers.length, 'customer')}`;
  return { text: `Open balance${who}: ${totals}; ${plural(report.openInvoices.length, 'open invoice')}.`, blocks };
}
