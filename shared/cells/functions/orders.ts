/** Direct-sales orders: one order's lines and charges, and the listing. */

import { ORDER_STAGES, type OrderDetail } from '../../index.ts';
import { ORDER_NUMBER, orderWindow } from '../../reports/lookup.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import { ArgError } from '../messages.ts';
import { displayNumber, type Impl, listing } from './common.ts';

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

export const ORDER_IMPLS: Record<string, Impl> = {
  *LINEN_ORDER(ctx, a) {
    const { number, year } = displayNumber(a.order_number, 'order_number', ORDER_NUMBER);
    const found = yield* ctx.cached('orders.byNumber', { number }, function* (r) {
      const byNumber = (o: { order_number: string }) => o.order_number === number;
      let hits = (yield* r.all(r.api.orders.list(orderWindow(year)))).filter(byNumber);
      if (!hits.length) hits = (yield* r.all(r.api.orders.list({ stage: 'draft' }))).filter(byNumber);
      const details: OrderDetail[] = [];
      for (const o of hits) details.push(yield* r.one(r.api.orders.get(o.id)));
      return details;
    });
    if (!found.length) throw new ArgError(`No order ${number} is visible to this key.`);
    return yield* grid(ctx, found.flatMap(orderRows), [
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

  LINEN_ORDERS: listing('orders.list', (x) => x.orders.list, { stage: ORDER_STAGES }).columns([
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
};
