/**
 * The custom functions. Each reads its arguments (named as in `catalog.ts`), asks the shared client for
 * whole listings through the cache, and shapes the answer for a cell: a number, a label or a table.
 * Filters the API offers are sent to it, except on daily deliveries, where department and item are applied
 * to the customer's cached rows so a grid of cells over one customer and window shares a single listing.
 */

import { lastCompleteDays, lastNDays, today } from '../../shared/dates.ts';
import {
  COUNT_STATUSES,
  checkNotGroup,
  computePoStatus,
  computeRewashRate,
  computeShort,
  coveredCustomers,
  daysOverdue,
  groupLocations,
  INVOICE_STATUSES,
  type LinenApiSync,
  MANIFEST_STATUSES,
  MANIFEST_TYPES,
  newestFirst,
  ORDER_STAGES,
  type OrderDetail,
  PO_STATUSES,
  parseTicketNumber,
  REWASH_STATUSES,
  SIGNAL_STATUSES,
  type SyncPaged,
  signalsOfKind,
  TICKET_STATUSES,
  tagTickets,
  ticketStatusLabel,
  unitsOfPlace,
} from '../../shared/index.ts';
import { computeBalances } from '../../shared/reports/ar.ts';
import { fillRateTotals } from '../../shared/reports/fill-rate.ts';
import {
  MANIFEST_NUMBER,
  manifestWindow,
  ORDER_NUMBER,
  orderWindow,
  parseDisplayNumber,
  ticketWindow,
  UNDELIVERED_STATUSES,
} from '../../shared/reports/lookup.ts';
import * as col from './columns.ts';
import { type Columns, grid } from './columns.ts';
import { type Context, choice, isBlank, text, window } from './context.ts';
import { deliveryRows } from './deliveries.ts';
import type { Cell } from './format.ts';
import { ArgError } from './messages.ts';

export type Args = Record<string, unknown>;
export type Impl = (ctx: Context, a: Args) => Cell | Cell[][];

/** An optional customer argument: the customer, or undefined when blank. */
const optCustomer = (ctx: Context, v: unknown) => (isBlank(v) ? undefined : ctx.customer(v));
const opt = (ctx: Context, v: unknown) => optCustomer(ctx, v)?.id;

/** A customer's departments (the customer goes in the path: GET /customers/{id}/departments). */
const departments = (ctx: Context, customerId: string) =>
  ctx.rows('customers.departments', { customerId }, (c) => (p) => c.customers.departments(p.customerId));

/** A customer's units and carts (a unit or cart argument is looked up among them). */
const units = (ctx: Context, customerId: string | undefined) =>
  ctx.rows('inventory.units', { customerId }, (c) => c.inventory.units);
const carts = (ctx: Context, customerId: string | undefined, unitId?: string) =>
  ctx.rows('inventory.carts', { customerId, unitId }, (c) => c.inventory.carts);

/** The common filters of a dated listing: customer, from and to. */
const dated = (ctx: Context, a: Args) => ({ customerId: opt(ctx, a.customer), ...window(ctx, a.from, a.to, false) });

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

/** The fill rate or par met of a customer's window (and department and item). */
function fillMeasure(ctx: Context, a: Args, measure: 'fill' | 'par_met'): Cell {
  const r = fillRateTotals(deliveryRows(ctx, a));
  return (measure === 'par_met' ? r.parMet : r.fillRate) ?? '';
}

/** A display-number argument (a manifest or order number), normalized. */
function displayNumber(input: unknown, name: string, format: typeof MANIFEST_NUMBER) {
  const t = text(input, name);
  if (t === undefined) throw new ArgError(`${name} is required, e.g. "${format.example}".`);
  return parseDisplayNumber(t, format);
}

/** The filters `listing` sends: customer, from and to, and its enum argument. */
type Filters<V> = { customerId?: string; from?: string; to?: string; status?: V; stage?: V };

interface ListingOptions<V> {
  /** Whether the function takes from and to (default true). */
  dated?: boolean;
  /** The allowed values of the function's `status` or `stage` argument, sent as the filter of that name. */
  status?: readonly V[];
  stage?: readonly V[];
  /** A group customer covers its locations: every customer's rows are listed and theirs kept. */
  groups?: boolean;
}

/** For a group customer, the ids its answers cover (itself and its locations); null for any other. */
function groupIds(ctx: Context, a: Args): Set<string> | null {
  const customer = optCustomer(ctx, a.customer);
  if (!customer?.is_group) return null;
  return new Set(coveredCustomers(customer, ctx.customers()).map((c) => c.id));
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
        const covered = o.groups ? groupIds(ctx, a) : null;
        if (covered) delete filters.customerId;
        const rows = ctx.rows(name, filters, list);
        return grid(ctx, covered ? rows.filter((r) => covered.has(r.customer_id as string)) : rows, columns);
      },
  };
}

/**
 * One row per element of each row's list (a manifest's bins, a count's lines, an injection's items): the
 * element under `key` beside the row's own fields. A row whose list is empty stays, with an empty element.
 */
function perElement<T, E, K extends string>(rows: readonly T[], list: (row: T) => readonly E[], key: K) {
  type Row = T & { [P in K]: Partial<E> };
  return rows.flatMap((r) => {
    const elements: readonly Partial<E>[] = list(r);
    return (elements.length ? elements : [{}]).map((e) => ({ ...r, [key]: e }) as Row);
  });
}

/** An order as rows: its lines, each line's charges, the subtotal, the order's charges and the total. */
function orderRows(o: OrderDetail) {
  const base = { order: o.order_number, stage: o.stage, customer: o.customer_id };
  const row = (r: {
    line?: number | string;
    sku?: string;
    description: string;
    size?: string | null;
    color?: string | null;
    quantity?: number;
    unitPrice?: number;
    amount: number;
  }) => ({
    ...base,
    line: '' as number | string,
    sku: '',
    size: '' as string | null,
    color: '' as string | null,
    quantity: '' as number | string,
    unitPrice: '' as number | string,
    ...r,
  });
  const charge = (c: OrderDetail['charges'][number]) =>
    row({
      line: 'charge',
      description: c.description,
      quantity: c.quantity,
      unitPrice: c.unit_price_mills / 1000,
      amount: c.amount_cents,
    });
  return [
    ...[...o.lines]
      .sort((x, y) => x.line_number - y.line_number)
      .flatMap((l) => [
        row({
          line: l.line_number,
          sku: l.sku,
          description: l.description,
          size: l.size,
          color: l.color,
          quantity: l.quantity,
          unitPrice: l.unit_price_cents / 100,
          amount: l.quantity * l.unit_price_cents,
        }),
        ...l.charges.map(charge),
      ]),
    row({ line: 'subtotal', description: 'Subtotal', amount: o.subtotal_cents }),
    ...o.charges.map(charge),
    row({ line: 'total', description: 'Total', amount: o.total_cents }),
  ];
}

export const IMPLS: Record<string, Impl> = {
  LINEN_FILLRATE(ctx, a) {
    return fillMeasure(ctx, a, choice(a.measure, 'measure', ['fill', 'par_met'] as const) ?? 'fill');
  },

  LINEN_PARMET(ctx, a) {
    return fillMeasure(ctx, a, 'par_met');
  },

  LINEN_SHORT(ctx, a) {
    const customer = optCustomer(ctx, a.customer);
    if (customer) checkNotGroup(customer, ctx.customers());
    let unitIds: Set<string> | undefined;
    if (!isBlank(a.department)) {
      if (!customer) throw new ArgError('Give the customer of the department or unit.');
      const depts = departments(ctx, customer.id);
      const place = unitsOfPlace(text(a.department, 'department')!, customer, depts, units(ctx, customer.id));
      unitIds = new Set(place.units.map((u) => u.id));
    }
    // The API's default window (its last 7 days, today included); the cache entry names the day it was read on.
    const customerId = customer?.id;
    const day = today(ctx.settings.orgTimeZone);
    const counts = ctx.cached('inventory.counts.recent', { customerId, day }, (c) =>
      c.inventory.counts({ customerId }).all(),
    );
    return grid(ctx, computeShort(counts, unitIds).lines, [
      col.customer('customerId', 'Customer'),
      col.value('unitName', 'Unit'),
      col.value('itemName', 'Item'),
      'required',
      'delivered',
      'missing',
      'carts',
      col.day('countedOn', 'Counted'),
      col.computed('Count status', (l) => l.statuses.map((x) => x.replace(/_/g, ' ')).join(', ')),
    ]);
  },

  LINEN_REWASH_RATE(ctx, a) {
    const customer = ctx.customer(a.customer);
    checkNotGroup(customer, ctx.customers());
    const given = window(ctx, a.from, a.to, false);
    if ((given.from === undefined) !== (given.to === undefined))
      throw new ArgError('Give both from and to, or neither for the last 30 whole days.');
    const w =
      given.from && given.to ? { from: given.from, to: given.to } : lastCompleteDays(30, ctx.settings.orgTimeZone);
    const fault = choice(a.fault, 'fault', ['all', 'soil', 'processing_error'] as const) ?? 'all';
    const r = computeRewashRate(
      ctx.rows('rewash.list', { customerId: customer.id, ...w }, (c) => c.rewash.list),
      ctx.rows('manifests.list', { customerId: customer.id, ...w, type: 'normal' as const }, (c) => c.manifests.list),
      w,
    );
    if (fault !== 'all' && r.splitHidden)
      throw new ArgError(
        'Your laundry hides the split between soil fault and processing error from customers, so the rewash cannot be split by fault.',
      );
    return (fault === 'soil' ? r.soilFaultRate : fault === 'processing_error' ? r.errorFaultRate : r.rate) ?? '';
  },

  LINEN_MANIFEST(ctx, a) {
    const { number, year } = displayNumber(a.manifest_number, 'manifest_number', MANIFEST_NUMBER);
    const customerId = opt(ctx, a.customer);
    // Numbers are unique only per plant: every match, found in the delivered days of the number's year, then
    // among manifests not delivered yet. Only the matches are cached, not the year's listing.
    const found = ctx.cached('manifests.byNumber', { number, customerId }, (c) => {
      const byNumber = (m: { manifest_number: string }) => m.manifest_number === number;
      let hits = c.manifests
        .list({ customerId, ...manifestWindow(year) })
        .all()
        .filter(byNumber);
      for (const status of UNDELIVERED_STATUSES)
        if (!hits.length) hits = c.manifests.list({ customerId, status }).all().filter(byNumber);
      return hits.map((m) => c.manifests.get(m.id));
    });
    if (!found.length) throw new ArgError(`No manifest ${number} is visible to this key.`);
    const rows = perElement(found, (m) => m.bins, 'b');
    return grid(ctx, rows, [
      'manifest_number',
      col.customer('customer_id'),
      'department_name',
      col.label('status'),
      col.time('delivered_at'),
      col.value('signature.signed_by_name', 'Signed by'),
      col.value('signature.signed_by_title', 'Signer title'),
      col.time('signature.delivered_at', 'Signed at'),
      col.label('b.side'),
      col.label('b.content'),
      col.value('b.bin_ticket_number', 'Bin ticket'),
      col.value('b.gross_lb', 'Gross (lb)'),
      col.value('b.tare_lb', 'Tare (lb)'),
      col.value('b.net_lb', 'Net (lb)'),
      col.computed('Items', (r) =>
        (r.b.items ?? [])
          .map(
            (i) =>
              `${i.item_name} ${i.piece_count}${i.disposition === 'clean' ? '' : ` (${i.disposition.replace(/_/g, ' ')})`}`,
          )
          .join('; '),
      ),
      col.value('held_rewash.held_weight_lb', 'Held rewash (lb)'),
      col.label('held_rewash.status', 'Held status'),
      col.value('held_rewash.soil_rewash_lb', 'Soil rewash (lb)'),
      col.value('held_rewash.error_rewash_lb', 'Error rewash (lb)'),
      col.computed('Rewash of', (r) => r.rewash_links.parent_manifest?.manifest_number),
      col.computed('Rewash children', (r) => r.rewash_links.rewash_children.map((x) => x.manifest_number).join(', ')),
    ]);
  },

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

  LINEN_ORDER(ctx, a) {
    const { number, year } = displayNumber(a.order_number, 'order_number', ORDER_NUMBER);
    const found = ctx.cached('orders.byNumber', { number }, (c) => {
      const byNumber = (o: { order_number: string }) => o.order_number === number;
      let hits = c.orders.list(orderWindow(year)).all().filter(byNumber);
      if (!hits.length) hits = c.orders.list({ stage: 'draft' }).all().filter(byNumber);
      return hits.map((o) => c.orders.get(o.id));
    });
    if (!found.length) throw new ArgError(`No order ${number} is visible to this key.`);
    return grid(ctx, found.flatMap(orderRows), [
      'order',
      col.label('stage'),
      col.customer('customer'),
      'line',
      col.value('sku', 'SKU'),
      'description',
      'size',
      'color',
      'quantity',
      col.value('unitPrice', 'Unit price ($)'),
      col.dollars('amount', 'Amount ($)'),
    ]);
  },

  LINEN_DELIVERIES(ctx, a) {
    return grid(ctx, deliveryRows(ctx, a), [
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
    const params = { status: choice(a.status, 'status', SIGNAL_STATUSES), customerId: opt(ctx, a.customer) };
    // One listing of every kind, filtered here: "shortfall" is several kinds, and the list of kinds is open.
    const kind = text(a.kind, 'kind');
    const list = (p: typeof params) => ctx.rows('inventory.signals', p, (c) => c.inventory.signals);
    const listed = list(params);
    // With a status, the kinds the API reports are also read off the standing signals (the list is open).
    const seen = () => (params.status ? list({ ...params, status: undefined }) : []);
    return grid(ctx, kind === undefined ? listed : signalsOfKind(listed, kind, seen()), [
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
    ]);
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
    return grid(ctx, departments(ctx, ctx.customer(a.customer).id), [
      'id',
      col.customer('customer_id'),
      'name',
      'cost_center_code',
    ]);
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
    const customer = optCustomer(ctx, a.customer);
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
    const customer = optCustomer(ctx, a.customer);
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
    const counts = ctx.rows('inventory.counts', params, (c) => c.inventory.counts);
    const lines = perElement(counts, (c) => c.lines, 'l');
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
    const injections = ctx.rows('newLinen.list', dated(ctx, a), (c) => c.newLinen.list);
    const lines = perElement(injections, (m) => m.items, 'i');
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

  LINEN_TICKETS(ctx, a) {
    const customer = optCustomer(ctx, a.customer);
    const w = window(ctx, a.from, a.to, false);
    const status = choice(a.status, 'status', TICKET_STATUSES);
    // A ticket does not say whose it is: one listing per customer, each ticket tagged with it.
    const tickets = (customer ? coveredCustomers(customer, ctx.customers()) : ctx.customers())
      .flatMap((c) =>
        tagTickets(
          c.id,
          ctx.rows('qualityTickets.list', { customerId: c.id, ...w, status }, (x) => x.qualityTickets.list),
        ),
      )
      .sort(newestFirst);
    return grid(ctx, tickets, [
      'ticket_number',
      col.customer('customerId', 'Customer'),
      col.computed('Status', ticketStatusLabel),
      'kind_label',
      'subject',
      col.time('created_at'),
      col.time('acknowledged_at'),
      col.time('resolved_at'),
      col.time('last_correspondence_at'),
      col.value('resolution_note', 'Resolution'),
    ]);
  },

  LINEN_RATINGS: listing('ratings.list', (c) => c.ratings.list).columns([
    col.time('created_at', 'Rated'),
    col.customer('customer_id'),
    'manifest_number',
    'on_time',
    col.value('quality_rating', 'Quality (1-5)'),
    'note',
  ]),
};
