/** `manifest <MAN-YY-######> [customer]`: proof of delivery, every manifest the number matches. */

import { MANIFEST_NUMBER } from '../../shared/reports/lookup.ts';
import { namedCustomer, namesOf } from '../answers/customers.ts';
import { manifestView } from '../views/manifest.ts';
import { data, defineCommand, info, Problem } from './command.ts';
import { parseNumberArg } from './display-number.ts';

interface ManifestArgs {
  number: string;
  customer?: string | undefined;
}

export const manifestCommand = defineCommand({
  name: 'manifest',
  aliases: ['pod'],
  access: 'operations',
  help: {
    usage: 'manifest <MAN-YY-######> [customer]',
    description:
      'Proof of delivery: who signed and when, weights, bins, held rewash and rewash links. Every manifest the number matches.',
    examples: ['manifest MAN-26-027570'],
    menu: { summary: 'Proof of delivery: manifest MAN-26-038010', in: ['channel'] },
  },
  parse({ words }): ManifestArgs | Problem {
    const n = parseNumberArg(words, MANIFEST_NUMBER);
    if (n instanceof Problem) return n;
    return { number: n.number, customer: n.rest.length ? n.rest.join(' ') : undefined };
  },
  format: (a: ManifestArgs) => (a.customer ? `manifest ${a.number} ${a.customer}` : `manifest ${a.number}`),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const named = await namedCustomer(ctx, a.customer);
    if ('reply' in named) return info(named.reply);
    const [found, customers] = await Promise.all([
      ctx.linen.client.reports.findManifests(a.number, { customerId: named.customer?.id }),
      ctx.linen.customers(),
    ]);
    return data(manifestView(found, { timeZone: ctx.linen.timeZone, customerNames: namesOf(customers) }));
  },
});
