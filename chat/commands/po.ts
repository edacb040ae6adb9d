/** `po [customer]`: active purchase orders, budget left and days to expiry, the least left first. */
import { namedCustomer, namesOf, ownOrLocations } from '../answers/customers.ts';
import { poView } from '../views/po.ts';
import { data, defineCommand, info, noted, nowOf } from './command.ts';

interface PoArgs {
  customer?: string | undefined;
}

export const poCommand = defineCommand({
  name: 'po',
  aliases: ['pos', 'budgets'],
  access: 'accounting',
  help: {
    usage: 'po [customer]',
    description: 'Active purchase orders: budget left, percent spent and days to expiry, the least left first.',
    examples: ['po', 'po Harborview Hotel'],
    menu: { summary: 'Purchase orders: budget left and days to expiry: po [customer]', in: ['private'] },
  },
  parse: ({ words }): PoArgs => ({ customer: words.length ? words.join(' ') : undefined }),
  format: (a: PoArgs) => (a.customer ? `po ${a.customer}` : 'po'),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const named = await namedCustomer(ctx, a.customer);
    if ('reply' in named) return info(named.reply);
    const { customer } = named;
    const [pos, customers] = await Promise.all([
      ownOrLocations(ctx, customer, 'active purchase orders', (customerIds) =>
        ctx.linen.client.reports.purchaseOrders({ customerIds, asOf: nowOf(ctx) }),
      ),
      ctx.linen.customers(),
    ]);
    const message = poView(pos.rows, {
      timeZone: ctx.linen.timeZone,
      customerNames: namesOf(customers),
      customerName: pos.note ? undefined : customer?.name,
    });
    return data(noted(message, pos.note));
  },
});
