/** `order <DS-YY-#####>`: a direct-sales order with its lines, charges and totals. */

import { ORDER_NUMBER } from '../../shared/reports/lookup.ts';
import { namesOf } from '../answers/customers.ts';
import { orderView } from '../views/order.ts';
import { data, defineCommand, Problem } from './command.ts';
import { parseNumberArg } from './display-number.ts';

interface OrderArgs {
  number: string;
}

export const orderCommand = defineCommand({
  name: 'order',
  access: 'operations',
  help: {
    usage: 'order <DS-YY-#####>',
    description: 'A direct-sales order with its lines, charges and totals.',
    examples: ['order DS-26-01622'],
    menu: { summary: 'A direct-sales order with its lines and totals: order DS-26-01622', in: ['private'] },
  },
  parse({ words }): OrderArgs | Problem {
    const n = parseNumberArg(words, ORDER_NUMBER);
    if (n instanceof Problem) return n;
    if (n.rest.length) return new Problem('Give one order number.');
    return { number: n.number };
  },
  format: (a: OrderArgs) => `order ${a.number}`,
  async answer(a, ctx) {
    const [found, customers] = await Promise.all([
      ctx.linen.client.reports.findOrders(a.number),
      ctx.linen.customers(),
    ]);
    return data(orderView(found, { timeZone: ctx.linen.timeZone, customerNames: namesOf(customers) }));
  },
});
