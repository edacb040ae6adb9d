/** `/linen order DS-26-01234`: a direct-sales order with its lines, their charges and the order's charges. */
import type { OrderCharge, OrderDetail } from '../../shared/schemas/orders.ts';
import { type Content, divider, field, fields, note, type Part, text, title } from '../content/document.ts';
import { count, humanize, money, moreLine, take, when } from '../content/format.ts';
import { chunkLines } from '../content/limits.ts';
import { b, icon, line, type Rich, r } from '../content/rich.ts';

export const MAX_ORDERS = 3;
export const MAX_LINES = 60;

/** Mills (1/1000 of a dollar) as dollars with three decimals: `$1.250`. */
export const mills = (m: number) => `$${(m / 1000).toLocaleString('en-US', { minimumFractionDigits: 3 })}`;

const chargeLine = (c: OrderCharge, currency: string, indent: string): Rich => [
  `${indent}+ ${line(c.description)} (${line(c.kind)}) × ${count(c.quantity)} @ ${mills(c.unit_price_mills)} = ${money(c.amount_cents, currency)}`,
];

function orderParts(o: OrderDetail, opts: { timeZone: string; customerNames: ReadonlyMap<string, string> }): Part[] {
  const customer = opts.customerNames.get(o.customer_id) ?? o.customer_id;
  const parts: Part[] = [
    fields(
      [
        field('Stage', [humanize(o.stage)]),
        field('Placed', [when(o.placed_at, opts.timeZone)]),
        field('Requested', [when(o.requested_delivery_date, opts.timeZone).slice(0, 10)]),
        field('Confirmed', [when(o.confirmed_delivery_date, opts.timeZone).slice(0, 10)]),
        field('Delivered', [when(o.delivered_at, opts.timeZone)]),
        field('Orderer / wearer', [
          `${line(o.orderer_name ?? '—')} / ${line(o.wearer_name ?? '—')}${o.wearer_department ? ` (${line(o.wearer_department)})` : ''}`,
        ]),
        field('Deliver to', [line(o.delivery_location ?? '—')]),
        field('PO', [line(o.po_number ?? '—')]),
      ],
      r`${b(line(o.order_number))} · ${line(customer)}`,
    ),
  ];
  const orderLines: Rich[] = [];
  for (const l of [...o.lines].sort((a, c) => a.line_number - c.line_number)) {
    const variant = [l.size, l.color].filter(Boolean).join(', ');
    orderLines.push(
      r`${String(l.line_number)}. ${line(l.sku)} ${line(l.description)}${variant ? ` (${line(variant)})` : ''} × ${count(l.quantity)} @ ${money(l.unit_price_cents, o.currency)} · line total${l.charges.length ? ' with charges' : ''} ${b(money(l.subtotal_cents, o.currency))}`,
    );
    for (const c of l.charges) orderLines.push(chargeLine(c, o.currency, '      '));
  }
  const { shown, more } = take(orderLines, MAX_LINES);
  const body: Rich[] = [r`${b('Lines')} (${String(o.lines.length)})`, ...shown];
  if (more) body.push([moreLine(more, 'lines')]);
  body.push(r`Subtotal ${b(money(o.subtotal_cents, o.currency))}`);
  for (const c of o.charges) body.push(chargeLine(c, o.currency, ''));
  body.push([b(`Total ${money(o.total_cents, o.currency)}`)]);
  for (const chunk of chunkLines(body)) parts.push(text(chunk));
  return parts;
}

export function orderView(
  found: readonly OrderDetail[],
  opts: { timeZone: string; customerNames: ReadonlyMap<string, string> },
): Content {
  const first = found[0]!;
  const parts: Part[] = [title(`Order ${line(first.order_number)}`)];
  if (found.length > 1)
    parts.push(text([icon('info'), ` ${line(first.order_number)} matches ${found.length} orders.`]));
  const { shown, more } = take(found, MAX_ORDERS);
  shown.forEach((o, idx) => {
    if (idx > 0) parts.push(divider());
    parts.push(...orderParts(o, opts));
  });
  if (more) parts.push(note([moreLine(more, 'orders')]));
  parts.push(
    note([`Charge unit prices in mills (1/1000 of a dollar), amounts in cents. Times in ${line(opts.timeZone)}.`]),
  );
  return {
    summary: [
      `${line(first.order_number)}: ${humanize(first.stage).toLowerCase()}, ${first.lines.length} lines, total ${money(first.total_cents, first.currency)}.`,
    ],
    parts,
  };
}
