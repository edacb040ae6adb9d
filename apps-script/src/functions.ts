/**
 * The custom functions. Each reads its arguments (named as in `catalog.ts`), asks the shared client for
 * whole listings through the cache, and shapes the answer for a cell: a number, a label or a table.
 * Filters the API offers are sent to it, except on daily deliveries, where department and item are applied
 * to the customer's cached rows so a grid of cells over one customer and window shares a single listing.
 */
import {
  computeAr,
  computeFillRate,
  COUNT_STATUSES,
  INVOICE_STATUSES,
  MANIFEST_STATUSES,
  MANIFEST_TYPES,
  ORDER_STAGES,
  parseTicketNumber,
  PO_STATUSES,
  REWASH_STATUSES,
  SIGNAL_STATUSES,
  TICKET_STATUSES,
  ticketStatusLabel,
  type BalanceByStatus,
  type BalanceRow,
  type Cart,
  type CartCount,
  type DailyDeliveryRow,
  type Department,
  type InventorySignal,
  type InventoryTotal,
  type Invoice,
  type Item,
  type Manifest,
  type NewLinenInjection,
  type Order,
  type ParLevel,
  type Payment,
  type PurchaseOrder,
  type QualityTicket,
  type Rating,
  type RewashBatch,
  type Unit,
} from '../../shared/index.ts';
import { lastNDays } from '../../shared/dates.ts';
import { ticketWindow } from '../../shared/reports/lookup.ts';
import { choice, isBlank, text, window, type Context } from './context.ts';
import { currency, dollars, label, sheetDay, sheetTimestamp, table, type Cell, type Column } from './format.ts';
import { ArgError } from './messages.ts';

export type Args = Record<string, unknown>;
export type Impl = (ctx: Context, a: Args) => Cell | Cell[][];

const opt = (ctx: Context, v: unknown) => (isBlank(v) ? undefined : ctx.customer(v).id);

/** The customer's daily rows over the window (one cached listing), narrowed to a department and an item. */
function deliveryRows(ctx: Context, a: Args) {
  const customer = ctx.customer(a.customer);
  const w = window(ctx, a.from, a.to, true) as { from: string; to: string };
  let rows = ctx.list<DailyDeliveryRow>('deliveries.daily', { customerId: customer.id, ...w });
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


type Fn<T> = (r: T) => Cell | null | undefined;

/**
 * Columns from a compact spec, `field:f=Header|...`: `field` is a field (dots for nested ones), `f` how to
 * show it (l label, t timestamp, d day, c customer name, p department name, $ dollars, u currency code), and
 * the header, when not given, the field's name in plain words (`created_at` -> Created, `soil_weight_lb` ->
 * Soil weight (lb)). A bare `=Header` takes its value from `fns`.
 */
function cols<T>(ctx: Context, spec: string, fns: Record<string, Fn<T>> = {}): Column<T>[] {
  return spec.split('|').map((part): Column<T> => {
    const [field, given] = part.split('=') as [string, string | undefined];
    if (!field) return [given!, fns[given!]!];
    const [path, f] = field.split(':') as [string, string | undefined];
    const keys = path.split('.');
    const header =
      given ??
      keys[keys.length - 1]!
        .replace(/^is_/, '')
        .replace(/_(id|at|name|number|cents|qty|pct|code|label|count)$/, '')
        .replace(/_lb$/, ' (lb)')
        .replace(/_/g, ' ')
        .replace(/^./, (c) => c.toUpperCase());
    return [
      header,
      (r) => {
        let v: unknown = r;
        for (const k of keys) v = v == null ? null : (v as Record<string, unknown>)[k];
        if (f === 'l') return label(v as string);
        if (f === 't') return sheetTimestamp(v as string, ctx.zones);
        if (f === 'd') return sheetDay(v as string, ctx.zones);
        if (f === 'c') return ctx.customerName(v as string);
        if (f === 'p') return ctx.departmentName(v as string);
        if (f === '$') return dollars(v as number);
        if (f === 'u') return currency(v as string);
        return v as Cell | null;
      },
    ];
  });
}

const grid = <T>(ctx: Context, rows: readonly T[], spec: string, fns?: Record<string, Fn<T>>) => table(rows, cols(ctx, spec, fns));

/** The common filters of a dated listing: customer, from and to. */
const dated = (ctx: Context, a: Args) => ({ customerId: opt(ctx, a.customer), ...window(ctx, a.from, a.to, false) });

/** A listing filtered by customer (and from/to when `dated`) and optionally one enum argument, as a table. */
function listing<T>(name: string, spec: string, filter?: [string, readonly string[]] | null, fns?: Record<string, Fn<T>>, isDated = true): Impl {
  return (ctx, a) => {
    const params: Args = isDated ? dated(ctx, a) : { customerId: opt(ctx, a.customer) };
    if (filter) params[filter[0]] = choice(a[filter[0]], filter[0], filter[1]);
    return grid(ctx, ctx.list<T>(name, params), spec, fns);
  };
}

const AGING = 'name=Customer|currency:u|aging.current:$|aging.d1_30:$=1-30 days|aging.d31_60:$=31-60 days|aging.d61_plus:$=61+ days|balance:$';

export const IMPLS: Record<string, Impl> = {
  LINEN_FILLRATE(ctx, a) {
    const { customer, window: w, rows } = deliveryRows(ctx, a);
    return computeFillRate(rows, { customerId: customer.id, window: w }).fillRate ?? '';
  },

  LINEN_DELIVERIES(ctx, a) {
    return grid(ctx, deliveryRows(ctx, a).rows, 'date:d|customer_name|department_name|item_name|delivered_count|daily_par|fill_rate');
  },

  LINEN_BALANCE(ctx, a) {
    const totals = computeAr(ctx.list<BalanceRow>('balance.list', { customerId: opt(ctx, a.customer) }), []).totals;
    if (totals.length < 2) return (totals[0]?.balanceCents ?? 0) / 100;
    return grid(ctx, totals, 'currency:u|balanceCents:$=Balance');
  },

  LINEN_AGING(ctx, a) {
    const ar = computeAr(ctx.list<BalanceRow>('balance.list', { customerId: opt(ctx, a.customer) }), []);
    const lines = ar.customers.map((c) => ({ name: c.customerName, currency: c.currency, aging: c.aging, balance: c.balanceCents }));
    if (ar.customers.length > 1) {
      for (const t of ar.totals) lines.push({ name: 'All customers', currency: t.currency, aging: t.aging, balance: t.balanceCents });
    }
    return grid(ctx, lines, AGING);
  },

  LINEN_TICKET(ctx, a) {
    const one = (input: unknown, inRange: boolean): Cell => {
      if (isBlank(input)) {
        if (inRange) return '';
        throw new ArgError('ticket_number is required, e.g. "TKT-26-00417".');
      }
      const { number, year } = parseTicketNumber(String(input));
      const found = ctx.list<QualityTicket>('qualityTickets.list', { ...ticketWindow(year) }).find((t) => t.ticket_number === number);
      if (found) return ticketStatusLabel(found);
      if (inRange) return 'Not found';
      throw new ArgError(`No ticket ${number} is visible to this key.`);
    };
    const v = a.ticket_number;
    if (Array.isArray(v)) return v.map((row: unknown[]) => row.map((c) => one(c, true)));
    return one(v, false);
  },

  LINEN_SIGNALS(ctx, a) {
    const rows = ctx.list<InventorySignal>('inventory.signals', {
      kind: text(a.kind, 'kind')?.toLowerCase().replace(/[\s-]+/g, '_'),
      status: choice(a.status, 'status', SIGNAL_STATUSES),
      customerId: opt(ctx, a.customer),
    });
    return grid(
      ctx,
      rows,
      'severity:l|kind:l|status:l|customer_id:c|department_id:p|=Item|summary|suggested_order_qty|window_start:d|window_end:d|generated_at:t',
      { Item: (r) => r.item_name ?? (r.item_id ? r.item_id : 'All items') },
    );
  },

  LINEN_CUSTOMERS(ctx) {
    return grid(ctx, ctx.customers(), 'id|name|is_group|=Departments|created_at:t', {
      Departments: (c) => c.departments.map((d) => d.name).join(', '),
    });
  },

  LINEN_DEPARTMENTS(ctx, a) {
    const customer = ctx.customer(a.customer);
    return grid(ctx, ctx.list<Department>('customers.departments', { customerId: customer.id }), 'id|customer_id:c|name|cost_center_code');
  },

  LINEN_ITEMS: listing<Item>('items.list', 'id|sku=SKU|name|category|unit_of_measure|weight_lb', null, {}, false),

  LINEN_MANIFESTS(ctx, a) {
    const customer = isBlank(a.customer) ? undefined : ctx.customer(a.customer);
    const rows = ctx.list<Manifest>('manifests.list', {
      customerId: customer?.id,
      ...window(ctx, a.from, a.to, false),
      departmentId: isBlank(a.department) ? undefined : ctx.department(a.department, customer).id,
      type: choice(a.type, 'type', MANIFEST_TYPES),
      status: choice(a.status, 'status', MANIFEST_STATUSES),
    });
    return grid(
      ctx,
      rows,
      'manifest_number|type:l|status:l|customer_id:c|department_name|created_at:t=Collected|delivered_at:t|soil_weight_lb=Soil (lb)|clean_weight_lb=Clean (lb)|clean_piece_count=Clean pieces|variance_pct|variance_within_tolerance=Within tolerance|amount_cents:$=Amount ($)',
    );
  },

  LINEN_INVENTORY: listing<InventoryTotal>('inventory.totals', 'item_name|total_owned|at_customer|at_facility|in_transit|retired', null, {}, false),

  LINEN_PAR(ctx, a) {
    const customer = isBlank(a.customer) ? undefined : ctx.customer(a.customer);
    const rows = ctx.list<ParLevel>('inventory.par', {
      customerId: customer?.id,
      departmentId: isBlank(a.department) ? undefined : ctx.department(a.department, customer).id,
    });
    return grid(ctx, rows, 'customer_id:c|=Department|item_name|par_quantity=Par|par_unit:l|reorder_threshold', {
      Department: (r) => r.department_name ?? 'Customer-wide',
    });
  },

  LINEN_UNITS: listing<Unit>('inventory.units', 'id|customer_id:c|name|building|floor|unit_type|cost_center|cart_count=Carts|is_active', null, {}, false),

  LINEN_CARTS(ctx, a) {
    const customerId = opt(ctx, a.customer);
    const unitId = isBlank(a.unit) ? undefined : ctx.pick(ctx.list<Unit>('inventory.units', { customerId }), a.unit, 'unit').id;
    return grid(ctx, ctx.list<Cart>('inventory.carts', { customerId, unitId }), 'id|customer_id:c|unit_name|name|kind:l|stocking_method:l=Stocking|=Count days|is_active|=Par lines', {
      'Count days': (c) => c.count_days.join(', '),
      'Par lines': (c) => c.par.map((p) => `${p.item_name}: ${p.par_quantity}`).join('; '),
    });
  },

  LINEN_COUNTS(ctx, a) {
    const customerId = opt(ctx, a.customer);
    let w = window(ctx, a.from, a.to, false);
    // The API's default (the last 7 days) made explicit, so the cached listing names its window.
    const today = lastNDays(1, ctx.settings.orgTimeZone).to;
    if (!w.from && !w.to) w = lastNDays(7, ctx.settings.orgTimeZone);
    else if (!w.from) w = { from: w.to, to: w.to };
    else if (!w.to) w = { from: w.from, to: w.from > today ? w.from : today };
    const unitId = isBlank(a.unit) ? undefined : ctx.pick(ctx.list<Unit>('inventory.units', { customerId }), a.unit, 'unit').id;
    const cartId = isBlank(a.cart) ? undefined : ctx.pick(ctx.list<Cart>('inventory.carts', { customerId }), a.cart, 'cart').id;
    const counts = ctx.list<CartCount>('inventory.counts', { customerId, ...w, unitId, cartId, status: choice(a.status, 'status', COUNT_STATUSES) });
    type Line = CartCount & { l: Partial<CartCount['lines'][number]> };
    const lines = counts.flatMap((c): Line[] => (c.lines.length ? c.lines.map((l) => ({ ...c, l })) : [{ ...c, l: {} }]));
    return grid(
      ctx,
      lines,
      'date:d|customer_id:c|unit_name|cart_name|status:l|unscheduled|counted_at:t|verified_at:t|l.item_name|l.par|l.on_hand|l.required|l.delivered|l.extra|l.returned',
    );
  },

  LINEN_INVENTORY_STATUS(ctx, a) {
    const rows = ctx.list<BalanceByStatus>('inventory.balances', {
      customerId: opt(ctx, a.customer),
      itemId: isBlank(a.item) ? undefined : ctx.item(a.item).id,
    });
    return grid(ctx, rows, 'item_name|status:l|quantity');
  },

  LINEN_NEW_LINEN(ctx, a) {
    type Line = NewLinenInjection & { i: Partial<NewLinenInjection['items'][number]> };
    const lines = ctx
      .list<NewLinenInjection>('newLinen.list', dated(ctx, a))
      .flatMap((m): Line[] => (m.items.length ? m.items.map((i) => ({ ...m, i })) : [{ ...m, i: {} }]));
    return grid(ctx, lines, 'date:d|manifest_number|customer_id:c|department_id:p|i.item_name|i.piece_count=Pieces|soil_weight_lb=Soil (lb)|injected_weight_lb=Injected (lb)');
  },

  LINEN_REWASH: listing<RewashBatch>(
    'rewash.list',
    'discovered_at:t|status:l|customer_id:c|department_id:p|parent_manifest.manifest_number=Parent manifest|held_weight_lb=Held (lb)|soil_rewash_lb|error_rewash_lb|consumed_by_manifest.manifest_number=Consumed by|consumed_by_manifest.delivered_at:t=Consumed on',
    ['status', REWASH_STATUSES],
  ),

  LINEN_INVOICES: listing<Invoice>(
    'invoices.list',
    'invoice_number|status:l|customer_id:c|issued_at:t|due_at:t|paid_at:t|subtotal_cents:$|surcharges_cents:$|tax_cents:$|total_cents:$|balance_cents:$|currency:u',
    ['status', INVOICE_STATUSES],
  ),

  LINEN_PAYMENTS: listing<Payment>('payments.list', 'received_at:t|customer_id:c|kind:l|status:l|amount_cents:$|currency:u|returned_at:t|=Invoices', null, {
    Invoices: (r) => r.allocations.map((x) => x.invoice_number ?? '(another customer)').join(', '),
  }),

  LINEN_PURCHASE_ORDERS: listing<PurchaseOrder>('purchaseOrders.list', 'po_number=PO number|status:l|customer_id:c|started_at:t|expires_at:t|total_cents:$|spent_cents:$|remaining_cents:$|currency:u', ['status', PO_STATUSES]),

  LINEN_ORDERS: listing<Order>(
    'orders.list',
    'order_number|stage:l|customer_id:c|placed_at:t|requested_delivery_date:t=Requested|confirmed_delivery_date:t=Confirmed|delivered_at:t|orderer_name|wearer_name|wearer_department|line_count=Lines|subtotal_cents:$=Subtotal ($)|total_cents:$=Total ($)|po_number=PO',
    ['stage', ORDER_STAGES],
  ),

  LINEN_TICKETS: listing<QualityTicket>('qualityTickets.list', 'ticket_number|=Status|kind_label|subject|created_at:t|acknowledged_at:t|resolved_at:t|last_correspondence_at:t|resolution_note=Resolution', ['status', TICKET_STATUSES], {
    Status: (r) => ticketStatusLabel(r),
  }),

  LINEN_RATINGS: listing<Rating>('ratings.list', 'created_at:t=Rated|customer_id:c|manifest_number|on_time|quality_rating=Quality (1-5)|note'),
};
