/** `/linen order DS-26-01234`: a direct-sales order with its lines, their charges and the order's charges. */
import type { OrderCharge, OrderDetail } from '../../shared/schemas/orders.ts';
import { type Block, context, divider, fields, header, type Message, section } from '../../slack-bot/blocks/kit.ts';
import { chunkLines, moreLine, take } from '../../slack-bot/blocks/limits.ts';
import { bold, count, escLine, humanize, money, plain, when } from '../../slack-bot/blocks/mrkdwn.ts';

export const MAX_ORDERS = 3;
export const MAX_LINES = 60;

/** Mills (1/1000 of a dollar) as dollars with three decimals: `$1.250`. */
export const mills = (m: number) => `$${(m / 1000).toLocaleString('en-US', { minimumFractionDigits: 3 })}`;

const chargeLine = (c: OrderCharge, currency: string, indent: string) =>
  `${indent}+ ${escLine(c.description)} (${escLine(c.kind)}) × ${count(c.quantity)} @ ${mills(c.unit_price_mills)} = ${money(c.amount_cents, currency)}`;

function orderBlocks(o: OrderDetail, opts: { timeZone: string; customerNames: ReadonlyMap<string, string> }): Block[] {
  const customer = opts.customerNames.get(o.customer_id) ?? o.customer_id;
  const blocks: Block[] = [
    fields(
      [
        `*Stage*\n${humanize(o.stage)}`,
        `*Placed*\n${when(o.placed_at, opts.timeZone)}`,
        `*Requested*\n${when(o.requested_delivery_date, opts.timeZone).slice(0, 10)}`,
        `*Confirmed*\n${when(o.confirmed_delivery_date, opts.timeZone).slice(0, 10)}`,
        `*Delivered*\n${when(o.delivered_at, opts.timeZone)}`,
        `*Orderer / wearer*\n${escLine(o.orderer_name ?? '—')} / ${escLine(o.wearer_name ?? '—')}${o.wearer_department ? ` (${escLine(o.wearer_department)})` : ''}`,
        `*Deliver to*\n${escLine(o.delivery_location ?? '—')}`,
        `*PO*\n${escLine(o.po_number ?? '—')}`,
      ],
      `${bold(escLine(o.order_number))} · ${escLine(customer)}`,
    ),
  ];
  const lines: string[] = [];
  for (const l of [...o.lines].sort((a, b) => a.line_number - b.line_number)) {
    const variant = [l.size, l.color].filter(Boolean).join(', ');
    lines.push(
      `${l.line_number}. ${escLine(l.sku)} ${escLine(l.description)}${variant ? ` (${escLine(variant)})` : ''} × ${count(l.quantity)} @ ${money(l.unit_price_cents, o.currency)} · line total${l.charges.length ? ' with charges' : ''} *${money(l.subtotal_cents, o.currency)}*`,
    );
    for (const c of l.charges) lines.push(chargeLine(c, o.currency, '      '));
  }
  const { shown, more } = take(lines, MAX_LINES);
  const body = [`*Lines* (${o.lines.length})`, ...shown];
  if (more) body.push(moreLine(more, 'lines'));
  body.push(`Subtotal *${money(o.subtotal_cents, o.currency)}*`);
  for (const c of o.charges) body.push(chargeLine(c, o.currency, ''));
  body.push(`*Total ${money(o.total_cents, o.currency)}*`);
  for (const chunk of chunkLines(body)) blocks.push(section(chunk));
  return blocks;
}

export function orderMessage(
  found: readonly OrderDetail[],
  opts: { timeZone: string; customerNames: ReadonlyMap<string, string> },
): Message {
  const first = found[0]!;
  const blocks: Block[] = [header(`Order ${plain(first.order_number)}`)];
  if (found.length > 1)
    blocks.push(section(`:information_source: ${escLine(first.order_number)} matches ${found.length} orders.`));
  const { shown, more } = take(found, MAX_ORDERS);
  shown.forEach((o, i) => {
    if (i > 0) blocks.push(divider());
    blocks.push(...orderBlocks(o, opts));
  });
  if (more) blocks.push(context(moreLine(more, 'orders')));
  blocks.push(
    context(`Charge unit prices in mills (1/1000 of a dollar), amounts in cents. Times in ${escLine(opts.timeZone)}.`),
  );
  return {
    text: `${escLine(first.order_number)}: ${humanize(first.stage).toLowerCase()}, ${first.lines.length} lines, total ${money(first.total_cents, first.currency)}.`,
    blocks,
  };
}
