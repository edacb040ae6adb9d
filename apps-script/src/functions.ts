/**
 * The custom functions. Each reads its arguments (named as in `catalog.ts`), asks the shared client for
 * whole listings through the cache, and shapes the answer for a cell: a number, a label or a table.
 * Filters the API offers are sent to it, except on daily deliveries, where department and item are applied
 * to the customer's cached rows so a grid of cells over one customer and window shares a single listing.
 */

import { lastNDays } from '../../shared/dates.ts';
import {
  type CartCount,
  COUNT_STATUSES,
  computeAr,
  computeFillRate,
  INVOICE_STATUSES,
  type LinenApiSync,
  MANIFEST_STATUSES,
  MANIFEST_TYPES,
  type NewLinenInjection,
  ORDER_STAGES,
  PO_STATUSES,
  parseTicketNumber,
  REWASH_STATUSES,
  SIGNAL_STATUSES,
  type SyncPaged,
  TICKET_STATUSES,
  ticketStatusLabel,
} from '../../shared/index.ts';
import { ticketWindow } from '../../shared/reports/lookup.ts';
import * as col from './columns.ts';
import { type Columns, grid } from './columns.ts';
import { type Context, choice, isBlank, text, window } from './context.ts';
import type { Cell } from './format.ts';
import { ArgError } from './messages.ts';

export type Args = Record<string, unknown>;
export type Impl = (ctx: Context, a: Args) => Cell | Cell[][];

const opt = (ctx: Context, v: unknown) => (isBlank(v) ? undefined : ctx.customer(v).id);

/** The customer's daily rows over the window (one cached listing), narrowed to a department and an item. */
function deliveryRows(ctx: Context, a: Args) {
  const customer = ctx.customer(a.customer);
  const w = window(ctx, a.from, a.to, true) as { from: string; to: string };
  let rows = ctx.rows('deliveries.daily', { customerId: customer.id, ...w }, (c) => c.deliveries.daily);
  if (!isBlank(a.department)) {
    const dept = ctx.department(a.department, customer);
    rows = rows.filter((r) => r.department_id === dept.id);
  }
  const q = text(a.item, 'item');
  if (q !== undefined) {
    const low = q.toLowerCase();
    const mine = rows.filter((r) => r.item_id === q || r.item_name.toLowerCase() === low);
    // No delivered row names it: an item without deliveries is fine, an unknown one is an error.
    if (!mine.length) ctx.item(q);
    rows = mine;
  }
  return { customer, window: w, rows };
}

/** A customer's units and carts (a unit or cart argument is looked up among them). */
const units = (ctx: Context, customerId: string | undefined) =>
  ctx.rows('inventory.units', { customerId }, (c) => c.inventory.units);
const carts = (ctx: Context, customerId: string | undefined, unitId?: string) =>
  ctx.rows('inventory.carts', { customerId, unitId }, (c) => c.inventory.carts);

/** The common filters of a dated listing: customer, from and to. */
const dated = (ctx: Context, a: Args) => ({ customerId: opt(ctx, a.customer), ...window(ctx, a.from, a.to, false) });

/** Balance and aging per customer and per currency. */
function receivables(ctx: Context, a: Args) {
  return computeAr(
    ctx.rows('balance.list', { customerId: opt(ctx, a.customer) }, (c) => c.balance.list),
    [],
  );
}

/** The filters `listing` sends: customer, from and to, and its enum argument. */
type Filters<V> = { customerId?: string; from?: string; to?: string; status?: V; stage?: V };

interface ListingOptions<V> {
  /** Whether the function takes from and to (default true). */
  dated?: boolean;
  /** The allowed values of the function's `status` or `stage` argument, sent as the filter of that name. */
  status?: readonly V[];
  stage?: readonly V[];
}

/**
 * A function that shows one listing as a table: filtered by customer (and from/to, and a status or stage
 * argument when the options say so). `.columns(...)` comes after the listing so the columns are typed by
 * its rows: `listing('ratings.list', (c) => c.ratings.list).columns(['note'])`.
 */
function listing<T extends Record<string, unknown>, V extends string = never>(
  name: string,
  list: (client: LinenApiSync) => (filters: Filters<V>) => SyncPaged<T>,
  o: ListingOptions<V> = {},
) {
  return {
    columns:
      (columns: Columns<T>): Impl =>
      (ctx, a) => {
        const filters: Filters<V> = o.dated === false ? { customerId: opt(ctx, a.customer) } : dated(ctx, a);
        if (o.status) filters.status = choice(a.status, 'status', o.status);
        if (o.stage) filters.stage = choice(a.stage, 'stage', o.stage);
        return grid(ctx, ctx.rows(name, filters, list), columns);
      },
  };
}

export const IMPLS: Record<string, Impl> = {
  LINEN_FILLRATE(ctx, a) {
    const { customer, window: w, rows } = deliveryRows(ctx, a);
    return computeFillRate(rows, { customerId: customer.id, window: w }).fillRate ?? '';
  },

  LINEN_DELIVERIES(ctx, a) {
    return grid(ctx, deliveryRows(ctx, a).rows, [
      col.day('date'),
      'customer_name',
      'department_name',
      'item_name',
      'delivered_count',
      'daily_par',
      'fill_rate',
    ]);
  },

  LINEN_BALANCE(ctx, a) {
    const totals = receivables(ctx, a).totals;
    if (totals.length < 2) return (totals[0]?.balanceCents ?? 0) / 100;
    return grid(ctx, totals, [col.currency('currency'), col.dollars('balanceCents', 'Balance')]);
  },

  LINEN_AGING(ctx, a) {
    const ar = receivables(ctx, a);
    const lines = ar.customers.map((c) => ({
      name: c.customerName,
      currency: c.currency,
      aging: c.aging,
      balance: c.balanceCents,
    }));
    if (ar.customers.length > 1) {
      for (const t of ar.totals)
        lines.push({ name: 'All customers', currency: t.currency, aging: t.aging, balance: t.balanceCents });
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

  LINEN_TICKET(ctx, a) {
    const one = (input: unknown, inRange: boolean): Cell => {
      if (isBlank(input)) {
        if (inRange) return '';
        throw new ArgError('ticket_number is required, e.g. "TKT-26-00417".');
      }
      const { number, year } = parseTicketNumber(String(input));
      const tickets = ctx.rows('qualityTickets.list', { ...ticketWindow(year) }, (c) => c.qualityTickets.list);
      const found = tickets.find((t) => t.ticket_number === number);
      if (found) return ticketStatusLabel(found);
      if (inRange) return 'Not found';
      throw new ArgError(`No ticket ${number} is visible to this key.`);
    };
    const v = a.ticket_number;
    if (Array.isArray(v)) return v.map((row: unknown[]) => row.map((c) => one(c, true)));
    return one(v, false);
  },

  LINEN_SIGNALS(ctx, a) {
    const params = {
      kind: text(a.kind, 'kind')
        ?.toLowerCase()
        .replace(/[\s-]+/g, '_'),
      status: choice(a.status, 'status', SIGNAL_STATUSES),
      customerId: opt(ctx, a.customer),
    };
    return grid(
      ctx,
      ctx.rows('inventory.signals', params, (c) => c.inventory.signals),
      [
        col.label('severity'),
        col.label('kind'),
        col.label('status'),
        col.customer('customer_id'),
        col.department('department_id'),
        col.computed('Item', (r) => r.item_name ?? (r.item_id ? r.item_id : 'All items')),
        'summary',
        'suggested_order_qty',
        col.day('window_start'),
        col.day('window_end'),
        col.time('generated_at'),
      ],
    );
  },

  LINEN_CUSTOMERS(ctx) {
    return grid(ctx, ctx.customers(), [
      'id',
      'name',
      'is_group',
      col.computed('Departments', (c) => c.departments.map((d) => d.name).join(', ')),
      col.time('created_at'),
    ]);
  },

  LINEN_DEPARTMENTS(ctx, a) {
    const customer = ctx.customer(a.customer);
    // The customer goes in the path: GET /customers/{id}/departments.
    const rows = ctx.rows(
      'customers.departments',
      { customerId: customer.id },
      (c) => (p) => c.customers.departments(p.customerId),
    );
    return grid(ctx, rows, ['id', col.customer('customer_id'), 'name', 'cost_center_code']);
  },

  LINEN_ITEMS: listing('items.list', (c) => c.items.list, { dated: false }).columns([
    'id',
    col.value('sku', 'SKU'),
    'name',
    'category',
    'unit_of_measure',
    'weight_lb',
  ]),

  LINEN_MANIFESTS(ctx, a) {
    const customer = isBlank(a.customer) ? undefined : ctx.customer(a.customer);
    const params = {
      customerId: customer?.id,
      ...window(ctx, a.from, a.to, false),
      departmentId: isBlank(a.department) ? undefined : ctx.department(a.department, customer).id,
      type: choice(a.type, 'type', MANIFEST_TYPES),
      status: choice(a.status, 'status', MANIFEST_STATUSES),
    };
    return grid(
      ctx,
      ctx.rows('manifests.list', params, (c) => c.manifests.list),
      [
        'manifest_number',
        col.label('type'),
        col.label('status'),
        col.customer('customer_id'),
        'department_name',
        col.time('created_at', 'Collected'),
        col.time('delivered_at'),
        col.value('soil_weight_lb', 'Soil (lb)'),
        col.value('clean_weight_lb', 'Clean (lb)'),
        col.value('clean_piece_count', 'Clean pieces'),
        'variance_pct',
        col.value('variance_within_tolerance', 'Within tolerance'),
        col.dollars('amount_cents', 'Amount ($)'),
      ],
    );
  },

  LINEN_INVENTORY: listing('inventory.totals', (c) => c.inventory.totals, { dated: false }).columns([
    'item_name',
    'total_owned',
    'at_customer',
    'at_facility',
    'in_transit',
    'retired',
  ]),

  LINEN_PAR(ctx, a) {
    const customer = isBlank(a.customer) ? undefined : ctx.customer(a.customer);
    const params = {
      customerId: customer?.id,
      departmentId: isBlank(a.department) ? undefined : ctx.department(a.department, customer).id,
    };
    return grid(
      ctx,
      ctx.rows('inventory.par', params, (c) => c.inventory.par),
      [
        col.customer('customer_id'),
        col.computed('Department', (r) => r.department_name ?? 'Customer-wide'),
        'item_name',
        col.value('par_quantity', 'Par'),
        col.label('par_unit'),
        'reorder_threshold',
      ],
    );
  },

  LINEN_UNITS: listing('inventory.units', (c) => c.inventory.units, { dated: false }).columns([
    'id',
    col.customer('customer_id'),
    'name',
    'building',
    'floor',
    'unit_type',
    'cost_center',
    col.value('cart_count', 'Carts'),
    'is_active',
  ]),

  LINEN_CARTS(ctx, a) {
    const customerId = opt(ctx, a.customer);
    const unitId = isBlank(a.unit) ? undefined : ctx.pick(units(ctx, customerId), a.unit, 'unit').id;
    return grid(ctx, carts(ctx, customerId, unitId), [
      'id',
      col.customer('customer_id'),
      'unit_name',
      'name',
      col.label('kind'),
      col.label('stocking_method', 'Stocking'),
      col.computed('Count days', (c) => c.count_days.join(', ')),
      'is_active',
      col.computed('Par lines', (c) => c.par.map((p) => `${p.item_name}: ${p.par_quantity}`).join('; ')),
    ]);
  },

  LINEN_COUNTS(ctx, a) {
    const customerId = opt(ctx, a.customer);
    let w = window(ctx, a.from, a.to, false);
    // The API's default (the last 7 days) made explicit, so the cached listing names its window.
    const today = lastNDays(1, ctx.settings.orgTimeZone).to;
    if (!w.from && !w.to) w = lastNDays(7, ctx.settings.orgTimeZone);
    else if (!w.from) w = { from: w.to, to: w.to };
    else if (!w.to) w = { from: w.from, to: w.from > today ? w.from : today };
    const unitId = isBlank(a.unit) ? undefined : ctx.pick(units(ctx, customerId), a.unit, 'unit').id;
    const cartId = isBlank(a.cart) ? undefined : ctx.pick(carts(ctx, customerId), a.cart, 'cart').id;
    const params = { customerId, ...w, unitId, cartId, status: choice(a.status, 'status', COUNT_STATUSES) };
    type Line = CartCount & { l: Partial<CartCount['lines'][number]> };
    const lines = ctx
      .rows('inventory.counts', params, (c) => c.inventory.counts)
      .flatMap((c): Line[] => (c.lines.length ? c.lines.map((l) => ({ ...c, l })) : [{ ...c, l: {} }]));
    return grid(ctx, lines, [
      col.day('date'),
      col.customer('customer_id'),
      'unit_name',
      'cart_name',
      col.label('status'),
      'unscheduled',
      col.time('counted_at'),
      col.time('verified_at'),
      'l.item_name',
      'l.par',
      'l.on_hand',
      'l.required',
      'l.delivered',
      'l.extra',
      'l.returned',
    ]);
  },

  LINEN_INVENTORY_STATUS(ctx, a) {
    const params = { customerId: opt(ctx, a.customer), itemId: isBlank(a.item) ? undefined : ctx.item(a.item).id };
    return grid(
      ctx,
      ctx.rows('inventory.balances', params, (c) => c.inventory.balances),
      ['item_name', col.label('status'), 'quantity'],
    );
  },

  LINEN_NEW_LINEN(ctx, a) {
    type Line = NewLinenInjection & { i: Partial<NewLinenInjection['items'][number]> };
    const lines = ctx
      .rows('newLinen.list', dated(ctx, a), (c) => c.newLinen.list)
      .flatMap((m): Line[] => (m.items.length ? m.items.map((i) => ({ ...m, i })) : [{ ...m, i: {} }]));
    return grid(ctx, lines, [
      col.day('date'),
      'manifest_number',
      col.customer('customer_id'),
      col.department('department_id'),
      'i.item_name',
      col.value('i.piece_count', 'Pieces'),
      col.value('soil_weight_lb', 'Soil (lb)'),
      col.value('injected_weight_lb', 'Injected (lb)'),
    ]);
  },

  LINEN_REWASH: listing('rewash.list', (c) => c.rewash.list, { status: REWASH_STATUSES }).columns([
    col.time('discovered_at'),
    col.label('status'),
    col.customer('customer_id'),
    col.department('department_id'),
    col.value('parent_manifest.manifest_number', 'Parent manifest'),
    col.value('held_weight_lb', 'Held (lb)'),
    'soil_rewash_lb',
    'error_rewash_lb',
    col.value('consumed_by_manifest.manifest_number', 'Consumed by'),
    col.time('consumed_by_manifest.delivered_at', 'Consumed on'),
  ]),

  LINEN_INVOICES: listing('invoices.list', (c) => c.invoices.list, { status: INVOICE_STATUSES }).columns([
    'invoice_number',
    col.label('status'),
    col.customer('customer_id'),
    col.time('issued_at'),
    col.time('due_at'),
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

  LINEN_PURCHASE_ORDERS: listing('purchaseOrders.list', (c) => c.purchaseOrders.list, { status: PO_STATUSES }).columns([
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

  LINEN_ORDERS: listing('orders.list', (c) => c.orders.list, { stage: ORDER_STAGES }).columns([
    'order_number',
    col.label('stage'),
    col.customer('customer_id'),
    col.time('placed_at'),
    col.time('requested_delivery_date', 'Requested'),
    col.time('confirmed_delivery_date', 'Confirmed'),
    col.time('delivered_at'),
    'orderer_name',
    'wearer_name',
    'wearer_department',
    col.value('line_count', 'Lines'),
    col.dollars('subtotal_cents', 'Subtotal ($)'),
    col.dollars('total_cents', 'Total ($)'),
    col.value('po_number', 'PO'),
  ]),

  LINEN_TICKETS: listing('qualityTickets.list', (c) => c.qualityTickets.list, { status: TICKET_STATUSES }).columns([
    'ticket_number',
    col.computed('Status', ticketStatusLabel),
    'kind_label',
    'subject',
    col.time('created_at'),
    col.time('acknowledged_at'),
    col.time('resolved_at'),
    col.time('last_correspondence_at'),
    col.value('resolution_note', 'Resolution'),
  ]),

  LINEN_RATINGS: listing('ratings.list', (c) => c.ratings.list).columns([
    col.time('created_at', 'Rated'),
    col.customer('customer_id'),
    'manifest_number',
    'on_time',
    col.value('quality_rating', 'Quality (1-5)'),
    'note',
  ]),
};
