/** Accounting: balances and aging, invoices, payments and purchase orders. */

import { today } from '../../dates.ts';
import { computePoStatus, daysOverdue, groupLocations, INVOICE_STATUSES, PO_STATUSES } from '../../index.ts';
import { computeBalances } from '../../reports/ar.ts';
import { choice } from '../args.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import type { CellContext } from '../context.ts';
import { type Args, type Impl, listing, locationIds, opt, optCustomer } from './common.ts';

/**
 * Balance and aging per customer and per currency: the API's rows for the customer asked (every customer without
 * one). With `locations`, a group that owes nothing of its own gets its suggested locations' rows added, labelled.
 */
function* receivables(ctx: CellContext, a: Args, locations = false) {
  const customer = yield* optCustomer(ctx, a.customer);
  const list = (customerId?: string) => ctx.rows('balance.list', { customerId }, (x) => x.balance.list);
  const own = yield* list(customer?.id);
  if (!locations || !customer?.is_group || own.some((b) => b.balance_cents !== 0))
    return { ar: computeBalances(own), customer, added: false };
  const ids = new Set(groupLocations(customer, yield* ctx.customers()).map((c) => c.id));
  const rows = [...own, ...(yield* list()).filter((r) => ids.has(r.customer_id))];
  return {
    ar: computeBalances(rows, undefined, { customerId: customer.id, customerName: customer.name }),
    customer,
    added: ids.size > 0,
  };
}

export const ACCOUNTING_IMPLS: Record<string, Impl> = {
  *LINEN_PO_STATUS(ctx, a) {
    const status = choice(a.status, 'status', PO_STATUSES) ?? 'active';
    const tz = ctx.zones.org;
    const list = (customerId?: string) =>
      ctx.rows('purchaseOrders.list', { customerId, status }, (x) => x.purchaseOrders.list);
    let rows = yield* list(yield* opt(ctx, a.customer));
    const locations = rows.length ? null : yield* locationIds(ctx, a);
    if (locations) rows = (yield* list()).filter((p) => locations.has(p.customer_id));
    return yield* grid(ctx, computePoStatus(rows, today(tz), tz), [
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

  *LINEN_BALANCE(ctx, a) {
    const totals = (yield* receivables(ctx, a)).ar.totals;
    if (totals.length < 2) return (totals[0]?.balanceCents ?? 0) / 100;
    return yield* grid(ctx, totals, [col.currency('currency'), col.dollars('balanceCents', 'Balance')]);
  },

  *LINEN_AGING(ctx, a) {
    const { ar, customer, added } = yield* receivables(ctx, a, true);
    // Each line is the API's own row; the total is their sum, and says whose lines it adds.
    const lines = ar.customers.map((c) => ({
      name: c.locationOf ? `${c.customerName} (location of ${c.locationOf.customerName})` : c.customerName,
      currency: c.currency,
      aging: c.aging,
      balance: c.balanceCents,
    }));
    if (ar.customers.length > 1) {
      for (const t of ar.totals)
        lines.push({
          name: customer ? `Total, ${customer.name}${added ? ' and its locations' : ''}` : 'All customers',
          currency: t.currency,
          aging: t.aging,
          balance: t.balanceCents,
        });
    }
    return yield* grid(ctx, lines, [
      col.value('name', 'Customer'),
      col.currency('currency'),
      col.dollars('aging.current'),
      col.dollars('aging.d1_30', '1-30 days'),
      col.dollars('aging.d31_60', '31-60 days'),
      col.dollars('aging.d61_plus', '61+ days'),
      col.dollars('balance'),
    ]);
  },

  LINEN_INVOICES: listing('invoices.list', (x) => x.invoices.list, { status: INVOICE_STATUSES, groups: true }).columns([
    'invoice_number',
    col.label('status'),
    col.customer('customer_id'),
    [
      'Department',
      (r, ctx) => (r.department_id ? ctx.departmentName(r.department_id) : 'All departments'),
      (r) => r.department_id,
    ],
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

  LINEN_PAYMENTS: listing('payments.list', (x) => x.payments.list).columns([
    col.time('received_at'),
    col.customer('customer_id'),
    col.label('kind'),
    col.label('status'),
    col.dollars('amount_cents'),
    col.currency('currency'),
    col.time('returned_at'),
    col.computed('Invoices', (r) => r.allocations.map((x) => x.invoice_number ?? '(another customer)').join(', ')),
  ]),

  LINEN_PURCHASE_ORDERS: listing('purchaseOrders.list', (x) => x.purchaseOrders.list, {
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
