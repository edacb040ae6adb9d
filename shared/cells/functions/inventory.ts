/** Inventory: what is short today, shortfall signals, par levels, units and carts, counts and balances. */

import { addDays, lastNDays, today } from '../../dates.ts';
import { groupWithoutOwn } from '../../reports/groups.ts';
import { computeShort, unitsOfPlace } from '../../reports/short.ts';
import { signalsOfKind } from '../../reports/signals.ts';
import { COUNT_STATUSES, SIGNAL_STATUSES } from '../../schemas/inventory.ts';
import { choice, isBlank, text } from '../args.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import type { CellContext } from '../context.ts';
import { ArgError } from '../messages.ts';
import { departments, type Impl, listing, opt, optCustomer, perElement } from './common.ts';

/** A customer's units and carts (a unit or cart argument is looked up among them). */
const units = (ctx: CellContext, customerId: string | undefined) =>
  ctx.rows('inventory.units', { customerId }, (a) => a.inventory.units);
const carts = (ctx: CellContext, customerId: string | undefined, unitId?: string) =>
  ctx.rows('inventory.carts', { customerId, unitId }, (a) => a.inventory.carts);

export const INVENTORY_IMPLS: Record<string, Impl> = {
  *LINEN_SHORT(ctx, a) {
    const customer = yield* optCustomer(ctx, a.customer);
    let unitIds: Set<string> | undefined;
    if (!isBlank(a.department)) {
      if (!customer) throw new ArgError('Give the customer of the department or unit.');
      const depts = yield* departments(ctx, customer.id);
      const place = unitsOfPlace(text(a.department, 'department')!, customer, depts, yield* units(ctx, customer.id));
      unitIds = new Set(place.units.map((u) => u.id));
    }
    // The API's default window (its last 7 days, today included); the cache entry names the day it was read on.
    const customerId = customer?.id;
    const day = today(ctx.zones.org);
    const counts = yield* ctx.cached('inventory.counts.recent', { customerId, day }, (r) =>
      r.all(r.api.inventory.counts({ customerId })),
    );
    if (customer?.is_group && !counts.length)
      throw groupWithoutOwn(customer, yield* ctx.customers(), 'cart counts', { from: addDays(day, -6), to: day });
    return yield* grid(ctx, computeShort(counts, unitIds).lines, [
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

  *LINEN_SIGNALS(ctx, a) {
    const params = { status: choice(a.status, 'status', SIGNAL_STATUSES), customerId: yield* opt(ctx, a.customer) };
    // One listing of every kind, filtered here: "shortfall" is several kinds, and the list of kinds is open.
    const kind = text(a.kind, 'kind');
    const list = (p: typeof params) => ctx.rows('inventory.signals', p, (x) => x.inventory.signals);
    const listed = yield* list(params);
    // With a status, the kinds the API reports are also read off the standing signals (the list is open).
    const rows =
      kind === undefined
        ? listed
        : signalsOfKind(listed, kind, params.status ? yield* list({ ...params, status: undefined }) : []);
    return yield* grid(ctx, rows, [
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

  LINEN_INVENTORY: listing('inventory.totals', (x) => x.inventory.totals, { dated: false }).columns([
    'item_name',
    'total_owned',
    'at_customer',
    'at_facility',
    'in_transit',
    'retired',
  ]),

  *LINEN_PAR(ctx, a) {
    const customer = yield* optCustomer(ctx, a.customer);
    const params = {
      customerId: customer?.id,
      departmentId: isBlank(a.department) ? undefined : (yield* ctx.department(a.department, customer)).id,
    };
    return yield* grid(ctx, yield* ctx.rows('inventory.par', params, (x) => x.inventory.par), [
      col.customer('customer_id'),
      col.computed('Department', (r) => r.department_name ?? 'Customer-wide'),
      'item_name',
      col.value('par_quantity', 'Par'),
      col.label('par_unit'),
      'reorder_threshold',
    ]);
  },

  LINEN_UNITS: listing('inventory.units', (x) => x.inventory.units, { dated: false }).columns([
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

  *LINEN_CARTS(ctx, a) {
    const customerId = yield* opt(ctx, a.customer);
    const unitId = isBlank(a.unit) ? undefined : ctx.pick(yield* units(ctx, customerId), a.unit, 'unit').id;
    return yield* grid(ctx, yield* carts(ctx, customerId, unitId), [
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

  *LINEN_COUNTS(ctx, a) {
    const customerId = yield* opt(ctx, a.customer);
    let w = ctx.window(a.from, a.to, false);
    // The API's default (the last 7 days) made explicit, so the cached listing names its window.
    const today = lastNDays(1, ctx.zones.org).to;
    if (!w.from && !w.to) w = lastNDays(7, ctx.zones.org);
    else if (!w.from) w = { from: w.to, to: w.to };
    else if (!w.to) w = { from: w.from, to: w.from > today ? w.from : today };
    const unitId = isBlank(a.unit) ? undefined : ctx.pick(yield* units(ctx, customerId), a.unit, 'unit').id;
    const cartId = isBlank(a.cart) ? undefined : ctx.pick(yield* carts(ctx, customerId), a.cart, 'cart').id;
    const params = { customerId, ...w, unitId, cartId, status: choice(a.status, 'status', COUNT_STATUSES) };
    const counts = yield* ctx.rows('inventory.counts', params, (x) => x.inventory.counts);
    const lines = perElement(counts, (c) => c.lines, 'l');
    return yield* grid(ctx, lines, [
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

  *LINEN_INVENTORY_STATUS(ctx, a) {
    const params = {
      customerId: yield* opt(ctx, a.customer),
      itemId: isBlank(a.item) ? undefined : (yield* ctx.item(a.item)).id,
    };
    return yield* grid(ctx, yield* ctx.rows('inventory.balances', params, (x) => x.inventory.balances), [
      'item_name',
      col.label('status'),
      'quantity',
    ]);
  },
};
