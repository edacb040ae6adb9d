/** `signals [kind | shortfall] [customer]`: open and acknowledged inventory signals, shortfalls first. */

import { signalsOfKind } from '../../shared/reports/index.ts';
import { isShortfallWord } from '../../shared/reports/signals.ts';
import { SIGNAL_KINDS } from '../../shared/schemas/inventory.ts';
import { namedCustomer } from '../answers/customers.ts';
import { signalsView } from '../views/signals.ts';
import { data, defineCommand, info } from './command.ts';

interface SignalsArgs {
  signalKind?: string | undefined;
  customer?: string | undefined;
}

const isKnownKind = (s: string) => (SIGNAL_KINDS as readonly string[]).includes(s);
/**
 * The kind list is open: a snake_case word with an underscore is taken as a kind too (`par_drift`), and
 * `shortfall` stands for the shortfall kinds.
 */
export const looksLikeKind = (s: string) => isKnownKind(s) || isShortfallWord(s) || /^[a-z]+(?:_[a-z]+)+$/.test(s);

export const signalsCommand = defineCommand({
  name: 'signals',
  aliases: ['signal'],
  access: 'operations',
  help: {
    usage: 'signals [kind | shortfall] [customer]',
    description:
      'Open and acknowledged inventory signals, shortfalls first, by customer and department. "shortfall" means shortfall streaks and circulation breaches.',
    examples: ['signals', 'signals shortfall', 'signals circulation_breach', "signals St. Luke's Medical Center"],
    menu: {
      summary: 'Open inventory signals, shortfalls first: signals [shortfall] [customer]',
      in: ['private', 'channel'],
    },
  },
  parse({ words }): SignalsArgs {
    const first = words[0];
    if (first !== undefined && looksLikeKind(first.toLowerCase())) {
      return {
        signalKind: first.toLowerCase(),
        customer: words.length > 1 ? words.slice(1).join(' ') : undefined,
      };
    }
    return { customer: words.length ? words.join(' ') : undefined };
  },
  format: (a: SignalsArgs) => ['signals', a.signalKind, a.customer].filter(Boolean).join(' '),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const named = await namedCustomer(ctx, a.customer);
    if ('reply' in named) return info(named.reply);
    const { customer } = named;
    // One listing of every kind, filtered here: `shortfall` is several kinds, and the list of kinds is open.
    const [listed, customers] = await Promise.all([
      ctx.linen.client.inventory.signals({ customerId: customer?.id }).all(),
      ctx.linen.customers(),
    ]);
    const signals = a.signalKind ? signalsOfKind(listed, a.signalKind) : listed;
    return data(signalsView(signals, customers, { kind: a.signalKind, customerName: customer?.name }));
  },
});
