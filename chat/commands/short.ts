/** `short [customer] [department | unit]`: what is missing right now by unit and item, from the latest cart counts. */

import { groupWithoutOwn } from '../../shared/reports/index.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import { customerAndPlace, namesOf } from '../answers/customers.ts';
import { shortView } from '../views/short.ts';
import { data, defineCommand, info, nowOf } from './command.ts';

interface ShortArgs {
  /** As typed; `place` only when the customer was quoted (otherwise the answer splits the words). */
  customer?: string | undefined;
  place?: string | undefined;
}

export const shortCommand = defineCommand({
  name: 'short',
  aliases: ['shortages'],
  access: 'operations',
  help: {
    usage: 'short [customer] [department | unit]',
    description:
      'What is missing right now by unit and item, from the latest cart counts (required against delivered), worst first.',
    examples: ['short', 'short Mercy General Hospital ICU'],
    menu: {
      summary: 'What is missing right now by unit and item: short [customer] [department]',
      in: ['private', 'channel'],
    },
  },
  /** A quoted customer may be followed by a department or unit. */
  parse({ tokens, words }): ShortArgs {
    if (words.length === 0) return {};
    if (tokens[0]!.quoted && words.length > 1) return { customer: words[0], place: words.slice(1).join(' ') };
    return { customer: words.join(' ') };
  },
  format: (a: ShortArgs) =>
    a.place !== undefined ? `short "${a.customer}" ${a.place}` : a.customer ? `short ${a.customer}` : 'short',
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    let customer: Customer | undefined;
    let place = a.place;
    if (a.customer) {
      const r = await customerAndPlace(ctx, a.customer, a.place !== undefined);
      if ('reply' in r) return info(r.reply);
      customer = r.customer;
      place = r.place ?? place;
    }
    const [report, customers] = await Promise.all([
      ctx.linen.client.reports.shortToday({ customerId: customer?.id, place, asOf: nowOf(ctx) }),
      ctx.linen.customers(),
    ]);
    if (customer?.is_group && report.carts + report.pendingCarts === 0)
      throw groupWithoutOwn(customer, customers, 'cart counts', report.window);
    return data(shortView(report, { customerNames: namesOf(customers), customerName: customer?.name }));
  },
});
