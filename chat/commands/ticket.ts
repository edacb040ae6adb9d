/** `ticket <TKT-YY-#####>`: one quality ticket's status, dates, resolution and updates. */

import { NotFoundError } from '../../shared/errors.ts';
import { parseTicketNumber } from '../../shared/reports/lookup.ts';
import { friendlyError } from '../answers/friendly-errors.ts';
import { errorView } from '../views/common.ts';
import { ticketView } from '../views/tickets.ts';
import { data, defineCommand, info, Problem } from './command.ts';

interface TicketArgs {
  number: string;
}

export const ticketCommand = defineCommand({
  name: 'ticket',
  access: 'operations',
  help: {
    usage: 'ticket <TKT-YY-#####>',
    description: "A quality ticket's status, dates, resolution and updates.",
    examples: ['ticket TKT-26-00417'],
    menu: { summary: 'Where a quality ticket stands: ticket TKT-26-00417', in: ['private', 'channel'] },
  },
  parse({ words }): TicketArgs | Problem {
    if (words.length !== 1) return new Problem('Give one ticket number, like TKT-26-00417.');
    try {
      return { number: parseTicketNumber(words[0]!).number };
    } catch {
      return new Problem(`"${words[0]}" is not a ticket number like TKT-26-00417.`);
    }
  },
  format: (a: TicketArgs) => `ticket ${a.number}`,
  async answer(a, ctx) {
    try {
      return data(ticketView(await ctx.linen.client.reports.findTicket(a.number), ctx.linen.timeZone));
    } catch (err) {
      if (err instanceof NotFoundError) return info(errorView(friendlyError(err, { subject: `ticket ${a.number}` })));
      throw err;
    }
  },
});
