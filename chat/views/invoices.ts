/**
 * `/linen invoices [customer] [overdue]`: open invoices with their department and days overdue, most overdue
 * first, each with a PDF button; `overdue` keeps the overdue ones.
 */
import { AGING_BUCKETS, AGING_LABELS, type AgedInvoice } from '../../shared/reports/index.ts';
import { type Block, button, context, fields, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, dayOf, escLine, money, plain, plural } from '../../slack-bot/blocks/mrkdwn.ts';
import { pdfRef } from './balance.ts';
import { ACTION } from './common.ts';

export const MAX_LISTED_INVOICES = 20;

const STATUS: Record<string, string> = { sent: 'sent', partially_paid: 'partially paid', paid: 'paid' };

export interface InvoicesViewOptions {
  timeZone: string;
  customerNames: ReadonlyMap<string, string>;
  departmentNames: ReadonlyMap<string, string>;
  customerName?: string | undefined;
  overdueOnly: boolean;
}

export const overdueText = (days: number | null) =>
  days === null ? 'no payment terms' : days > 0 ? `*${plural(days, 'day')} overdue*` : 'not yet due';

export function invoicesMessage(invoices: readonly AgedInvoice[], opts: InvoicesViewOptions): Message {
  const what = opts.overdueOnly ? 'Overdue invoices' : 'Open invoices';
  const blocks: Block[] = [header(opts.customerName ? `${what}: ${plain(opts.customerName)}` : what)];
  const shownAll = opts.overdueOnly ? invoices.filter((i) => (i.daysOverdue ?? 0) > 0) : invoices;
  if (shownAll.length === 0) {
    const text = opts.overdueOnly ? 'No overdue invoices.' : 'No open invoices.';
    blocks.push(section(`:white_check_mark: ${text}`));
    return { text, blocks };
  }
  for (const currency of [...new Set(shownAll.map((i) => i.currency))].sort()) {
    const mine = shownAll.filter((i) => i.currency === currency);
    const sum = (bucket: string) =>
      money(
        mine.filter((i) => i.bucket === bucket).reduce((s, i) => s + i.balance_cents, 0),
        currency,
      );
    blocks.push(
      fields(
        AGING_BUCKETS.map((b) => `*${AGING_LABELS[b].replace(/^./, (c) => c.toUpperCase())}*\n${sum(b)}`),
        `*${money(
          mine.reduce((s, i) => s + i.balance_cents, 0),
          currency,
        )} ${currency.toUpperCase()}* open in ${plural(mine.length, 'invoice')}`,
      ),
    );
  }
  const { shown, more } = take(shownAll, MAX_LISTED_INVOICES);
  // One customer asked for names none per line, unless it is a group covering several.
  const several = !opts.customerName || new Set(shownAll.map((i) => i.customer_id)).size > 1;
  shown.forEach((inv, idx) => {
    const who = [
      several ? opts.customerNames.get(inv.customer_id) : null,
      inv.department_id ? (opts.departmentNames.get(inv.department_id) ?? inv.department_id) : 'all departments',
    ]
      .filter(Boolean)
      .map((s) => escLine(s))
      .join(' › ');
    const due = inv.due_at ? `due ${dayOf(inv.due_at, opts.timeZone)}` : null;
    const line1 = [bold(escLine(inv.invoice_number)), who, due, overdueText(inv.daysOverdue)]
      .filter(Boolean)
      .join(' · ');
    const line2 = `*${money(inv.balance_cents, inv.currency)}* open of ${money(inv.total_cents, inv.currency)} · ${STATUS[inv.status] ?? escLine(inv.status)} · issued ${dayOf(inv.issued_at, opts.timeZone)}`;
    blocks.push(
      section(`${line1}\n${line2}`, button('PDF', `${ACTION.pdf}:${idx}`, JSON.stringify(pdfRef(inv, opts.timeZone)))),
    );
  });
  if (more) blocks.push(context(moreLine(more, 'invoices', '(name a customer to narrow the list)')));
  blocks.push(
    context(
      'Days overdue are org-local days since the due day; an invoice due today is not yet overdue. Consolidated invoices show "all departments".',
    ),
  );
  const worst = shownAll[0]!;
  return {
    text: `${what}: ${shownAll.length}. Most overdue: ${escLine(worst.invoice_number)}${(worst.daysOverdue ?? 0) > 0 ? `, ${worst.daysOverdue} days overdue` : ''}.`,
    blocks,
  };
}
