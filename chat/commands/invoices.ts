/** `invoices [customer] [overdue]`: open invoices with their department and days overdue, most overdue first. */
import { namedCustomer, namesOf, ownOrLocations } from '../answers/customers.ts';
import { invoicesView } from '../views/invoices.ts';
import { data, defineCommand, info, noted, nowOf } from './command.ts';

interface InvoicesArgs {
  customer?: string | undefined;
  overdue: boolean;
}

export const invoicesCommand = defineCommand({
  name: 'invoices',
  aliases: ['invoice'],
  access: 'accounting',
  help: {
    usage: 'invoices [customer] [overdue]',
    description:
      'Open invoices with their department and days overdue, most overdue first; "overdue" keeps the overdue ones.',
    examples: ['invoices overdue', 'invoices Mercy General Hospital'],
    menu: {
      summary: 'Open invoices, most overdue first: invoices [customer] [overdue]',
      in: ['private', 'channel'],
    },
  },
  parse({ words }): InvoicesArgs {
    const overdue = words.length > 0 && words[words.length - 1]!.toLowerCase() === 'overdue';
    const rest = overdue ? words.slice(0, -1) : words;
    return { customer: rest.length ? rest.join(' ') : undefined, overdue };
  },
  format: (a: InvoicesArgs) => ['invoices', a.customer, a.overdue ? 'overdue' : undefined].filter(Boolean).join(' '),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const named = await namedCustomer(ctx, a.customer);
    if ('reply' in named) return info(named.reply);
    const { customer } = named;
    const [invoices, customers] = await Promise.all([
      ownOrLocations(ctx, customer, 'open invoices', (customerIds) =>
        ctx.linen.client.reports.openInvoices({ customerIds, asOf: nowOf(ctx) }),
      ),
      ctx.linen.customers(),
    ]);
    const message = invoicesView(invoices.rows, {
      timeZone: ctx.linen.timeZone,
      customerNames: namesOf(customers),
      departmentNames: new Map(customers.flatMap((c) => c.departments.map((d) => [d.id, d.name] as const))),
      customerName: invoices.note ? undefined : customer?.name,
      overdueOnly: a.overdue,
    });
    return data(noted(message, invoices.note));
  },
});
