/**
 * `/linen invoices [customer] [overdue]`: open invoices with their department and days overdue, most overdue
 * first, each with a PDF button; `overdue` keeps the overdue ones.
 */
import { AGING_BUCKETS, AGING_LABELS, type AgedInvoice } from '../../shared/reports/index.ts';
import { type Content, field, fields, note, type Part, text, title } from '../content/document.ts';
import { dayOf, money, moreLine, plural, take } from '../content/format.ts';
import { b, icon, joinRich, line, type Rich, r } from '../content/rich.ts';
import { pdfRef, STATUS } from './balance.ts';

export const MAX_LISTED_INVOICES = 20;

export interface InvoicesViewOptions {
  timeZone: string;
  customerNames: ReadonlyMap<string, string>;
  departmentNames: ReadonlyMap<string, string>;
  customerName?: string | undefined;
  overdueOnly: boolean;
}

export const overdueText = (days: number | null): Rich =>
  days === null ? ['no payment terms'] : days > 0 ? [b(`${plural(days, 'day')} overdue`)] : ['not yet due'];

export function invoicesView(invoices: readonly AgedInvoice[], opts: InvoicesViewOptions): Content {
  const what = opts.overdueOnly ? 'Overdue invoices' : 'Open invoices';
  const parts: Part[] = [title(opts.customerName ? `${what}: ${line(opts.customerName)}` : what)];
  const shownAll = opts.overdueOnly ? invoices.filter((inv) => (inv.daysOverdue ?? 0) > 0) : invoices;
  if (shownAll.length === 0) {
    const none = opts.overdueOnly ? 'No overdue invoices.' : 'No open invoices.';
    parts.push(text([icon('ok'), ' ', none]));
    return { summary: [none], parts };
  }
  for (const currency of [...new Set(shownAll.map((inv) => inv.currency))].sort()) {
    const mine = shownAll.filter((inv) => inv.currency === currency);
    const sum = (bucket: string) =>
      money(
        mine.filter((inv) => inv.bucket === bucket).reduce((t, inv) => t + inv.balance_cents, 0),
        currency,
      );
    parts.push(
      fields(
        AGING_BUCKETS.map((bucket) =>
          field(
            AGING_LABELS[bucket].replace(/^./, (c) => c.toUpperCase()),
            [sum(bucket)],
          ),
        ),
        r`${b(
          `${money(
            mine.reduce((t, inv) => t + inv.balance_cents, 0),
            currency,
          )} ${currency.toUpperCase()}`,
        )} open in ${plural(mine.length, 'invoice')}`,
      ),
    );
  }
  const { shown, more } = take(shownAll, MAX_LISTED_INVOICES);
  // One customer asked for names none per line, unless it is a group covering several.
  const several = !opts.customerName || new Set(shownAll.map((inv) => inv.customer_id)).size > 1;
  for (const inv of shown) {
    const who = [
      several ? opts.customerNames.get(inv.customer_id) : null,
      inv.department_id ? (opts.departmentNames.get(inv.department_id) ?? inv.department_id) : 'all departments',
    ]
      .filter(Boolean)
      .map((name) => line(name))
      .join(' › ');
    const due = inv.due_at ? `due ${dayOf(inv.due_at, opts.timeZone)}` : null;
    const line1 = joinRich([b(line(inv.invoice_number)), who, due, overdueText(inv.daysOverdue)], ' · ');
    const line2 = r`${b(money(inv.balance_cents, inv.currency))} open of ${money(inv.total_cents, inv.currency)} · ${STATUS[inv.status] ?? line(inv.status)} · issued ${dayOf(inv.issued_at, opts.timeZone)}`;
    parts.push(text(r`${line1}\n${line2}`, { kind: 'pdf', invoice: pdfRef(inv, opts.timeZone) }));
  }
  if (more) parts.push(note([moreLine(more, 'invoices', '(name a customer to narrow the list)')]));
  parts.push(
    note([
      'Days overdue are org-local days since the due day; an invoice due today is not yet overdue. Consolidated invoices show "all departments".',
    ]),
  );
  const worst = shownAll[0]!;
  return {
    summary: [
      `${what}: ${shownAll.length}. Most overdue: ${line(worst.invoice_number)}${(worst.daysOverdue ?? 0) > 0 ? `, ${worst.daysOverdue} days overdue` : ''}.`,
    ],
    parts,
  };
}
