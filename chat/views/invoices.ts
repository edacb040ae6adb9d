/**
 * `/linen invoices [customer] [overdue]`: open invoices with their department and days overdue, most overdue
 * first, as a table and as lines each with a PDF button; `overdue` keeps the overdue ones.
 */
import { AGING_BUCKETS, AGING_LABELS, type AgedInvoice } from '../../shared/reports/index.ts';
import { type Content, field, fields, note, type Part, table, text, title } from '../content/document.ts';
import { count, dayOf, money, moreLine, plural, take } from '../content/format.ts';
import { b, icon, joinRich, line, type Rich, r } from '../content/rich.ts';
import type { Table } from '../content/table.ts';
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

/** The invoices listed, as a table: number, customer (when several), due day, days overdue, open amount. */
function invoicesTable(invoices: readonly AgedInvoice[], opts: InvoicesViewOptions, several: boolean): Table {
  const what = opts.overdueOnly ? 'Overdue invoices' : 'Open invoices';
  return {
    title: what,
    noun: opts.overdueOnly ? 'overdue invoices' : 'invoices',
    columns: [
      { header: 'Invoice', type: 'text' },
      ...(several ? [{ header: 'Customer', type: 'text' as const }] : []),
      { header: 'Due', type: 'date' },
      { header: 'Days overdue', type: 'number' },
      { header: 'Open', type: 'money' },
    ],
    rows: invoices.map((inv) => [
      line(inv.invoice_number),
      ...(several ? [line(opts.customerNames.get(inv.customer_id) ?? inv.customer_id)] : []),
      inv.due_at ? dayOf(inv.due_at, opts.timeZone) : 'no terms',
      inv.daysOverdue === null ? 'no terms' : count(inv.daysOverdue),
      money(inv.balance_cents, inv.currency),
    ]),
    actions: invoices.map((inv) => ({ kind: 'pdf' as const, invoice: pdfRef(inv, opts.timeZone) })),
    command: `invoices ${opts.customerName ? line(opts.customerName) : '<customer>'}${opts.overdueOnly ? ' overdue' : ''}`,
  };
}

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
  const lines: Part[] = [];
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
    lines.push(text(r`${line1}\n${line2}`, { kind: 'pdf', invoice: pdfRef(inv, opts.timeZone) }));
  }
  parts.push(table(invoicesTable(shown, opts, several), lines));
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
