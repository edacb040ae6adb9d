/** `balance [customer]`: the open balance and its aging per customer, with the open invoices. */
import { namedCustomer } from '../answers/customers.ts';
import { balanceView } from '../views/balance.ts';
import { data, defineCommand, info, nowOf } from './command.ts';

interface BalanceArgs {
  customer?: string | undefined;
}

export const balanceCommand = defineCommand({
  name: 'balance',
  aliases: ['balances', 'ar'],
  access: 'accounting',
  help: {
    usage: 'balance [customer]',
    description:
      'Open balance and aging per customer, with the open invoices (each with a PDF button). A group with no balance of its own shows its locations, labelled.',
    examples: ['balance', 'balance Mercy General Hospital'],
    menu: { summary: 'Open balance and aging per customer: balance [customer]', in: ['private', 'channel'] },
  },
  parse: ({ words }): BalanceArgs => ({ customer: words.length ? words.join(' ') : undefined }),
  format: (a: BalanceArgs) => (a.customer ? `balance ${a.customer}` : 'balance'),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const named = await namedCustomer(ctx, a.customer);
    if ('reply' in named) return info(named.reply);
    const { customer } = named;
    // The list that resolved the name also tells whether a customer that owes nothing is a group.
    const report = await ctx.linen.client.reports.accountsReceivable({
      customerId: customer?.id,
      customers: customer ? await ctx.linen.customers() : undefined,
    });
    return data(balanceView(report, { timeZone: ctx.linen.timeZone, now: nowOf(ctx), customerName: customer?.name }));
  },
});
