/** Accounting: balances and aging, invoices, payments and purchase orders. */

import { today } from '../../../shared/dates.ts';
import { computePoStatus, daysOverdue, groupLocations, INVOICE_STATUSES, PO_STATUSES } from '../../../shared/index.ts';
import { computeBalances } from '../../../shared/reports/ar.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import { type Context, choice } from '../context.ts';
import { type Args, groupIds, type Impl, listing, opt, optCustomer } from './common.ts';

/**
 * Balance and aging per customer and per currency. A group's own row is $0 (it is billed per location): asked
 * for a group, every customer's rows are read and the group's and its locations' kept.
 */
function receivables(ctx: Context, a: Args) {
  const customer = optCustomer(ctx, a.customer);
  const group = customer?.is_group ? customer : undefined;
  let rows = ctx.rows('balance.list', { customerId: group ? undefined : customer?.id }, (c) => c.balance.list);
  if (group) {
    const ids = new Set([group.id, ...groupLocations(group, ctx.customers()).map((c) => c.id)]);
    rows = rows.filter((r) => ids.has(r.customer_id));
  }
  return { ar: computeBalances(rows, ctx.customers()), customer };
}

export const ACCOUNTING_IMPLS: Record<string, Impl> = {
  LINEN_PO_STATUS(ctx, a) {
    const status = choice(a.status, 'status', PO_STATUSES) ?? 'active';
    const tz = ctx.settings.orgTimeZone;
    const covered = groupIds(ctx, a);
    const customerId = covered ? undefined : opt(ctx, a.customer);
    const listed = ctx.rows('purchaseOrders.list', { customerId, status }, (c) => c.purchaseOrders.list);
    const rows = covered ? listed.filter((p) => covered.has(p.customer_id)) : listed;
    return grid(ctx, computePoStatus(rows, today(tz), tz), [
      col.value('po_number', 'PO number'),
      col.label('status'),
      col.customer('customer_id'),
      col.dollars('total_cents'),
      col.dollars('spent_cents'),
      col.dollars('remaining_cents'),
      col.value('remainingShare', 'Remaining share'),
      col.value('spentShare', 'Spent share'),
      col.time('expires_at'),
      col.value('daysToExpiry', 'Days to expiry'),
      col.currency('currency'),
    ]);
  },

  LINEN_BALANCE(ctx, a) {
    const totals = receivables(ctx, a).ar.totals;
    if (totals.length < 2) return (totals[0]?.balanceCents ?? 0) / 100;
    return grid(ctx, totals, [col.currency('currency'), col.dollars('balanceCents', 'Balance')]);
  },

  LINEN_AGING(ctx, a) {
    const { ar, customer } = receivables(ctx, a);
    const lines = ar.customers.flatMap((c) =>
      c.billedPerLocation
        ? c.billedPerLocation.totals.map((t) => ({
            name: `${c.customerName} (billed per location: ${c.billedPerLocation!.locations.map((l) => l.customerName).join(', ')})`,
            currency: t.currency,
            aging: t.aging,
            balance: t.balanceCents,
          }))
        : [{ name: c.customerName, currency: c.currency, aging: c.aging, balance: c.balanceCents }],
    );
    if (ar.customers.length > 1) {
      for (const t of ar.totals)
        lines.push({
          name: customer ? `Total, ${customer.name}` : 'All customers',
          currency: t.currency,
          aging: t.aging,
          balance: t.balanceCents,
        });
    }
    return grid(ctx, lines, [
      col.value('name', 'Customer'),
      col.currency('currency'),
      col.dollars('aging.current'),
      col.dollars('aging.d1_30', '1-30 days'),
      col.dollars('aging.d31_60', '31-60 days'),
      col.dollars('aging.d61_plus', '61+ days'),
      col.dollars('balance'),
    ]);
  },

  LINEN_INVOICES: listing('invoices.list', (c) => c.invoices.list, { status: INVOICE_STATUSES, groups: true }).columns([
    'invoice_number',
    col.label('status'),
    col.customer('customer_id'),
    ['Department', (r, ctx) => (r.department_id ? ctx.departmentName(r.department_id) : 'All departments')],
    col.time('issued_at'),
    col.time('due_at'),
    ['Days overdue', (r, ctx) => daysOverdue(r, today(ctx.zones.org), ctx.zones.org)],
    col.time('paid_at'),
    col.dollars('subtotal_cents'),
    col.dollars('surcharges_cents'),
    col.dollars('tax_cents'),
    col.dollars('total_cents'),
    col.dollars('balance_cents'),
    col.currency('currency'),
  ]),

  LINEN_PAYMENTS: listing('payments.list', (c) => c.payments.list).columns([
    col.time('received_at'),
    col.customer('customer_id'),
    col.label('kind'),
    col.label('status'),
    col.dollars('amount_cents'),
    col.currency('currency'),
    col.time('returned_at'),
    col.computed('Invoices', (r) => r.allocations.map((x) => x.invoice_number ?? '(another customer)').join(', ')),
  ]),

  LINEN_PURCHASE_ORDERS: listing('purchaseOrders.list', (c) => c.purchaseOrders.list, {
    status: PO_STATUSES,
    groups: true,
  }).columns([
    col.value('po_number', 'PO number'),
    col.label('status'),
    col.customer('customer_id'),
    col.time('started_at'),
    col.time('expires_at'),
    col.dollars('total_cents'),
    col.dollars('spent_cents'),
    col.dollars('remaining_cents'),
    col.currency('currency'),
  ]),
};
