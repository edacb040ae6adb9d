/** `rewash <customer> [days | from to]`: rewash pounds as a share of soil pounds, by cause. */

import { lastCompleteDays } from '../../shared/dates.ts';
import { groupWithoutOwn } from '../../shared/reports/index.ts';
import { customerFor } from '../answers/customers.ts';
import { rewashView } from '../views/rewash.ts';
import { data, defineCommand, info, nowOf, Problem, quoted } from './command.ts';
import { type DayWindow, parseWindowed, windowText } from './day-window.ts';

interface RewashArgs {
  customer: string;
  window: DayWindow;
}

export const rewashCommand = defineCommand({
  name: 'rewash',
  access: 'operations',
  help: {
    usage: 'rewash <customer> [days | from to]',
    description:
      'Rewash pounds as a share of soil pounds (default: the last 30 whole days), split into soil fault and processing error (the basis of a credit).',
    examples: ['rewash Mercy General Hospital', 'rewash Harborview Hotel 90'],
    menu: { summary: 'Rewash as a share of soil pounds: rewash <customer> [days]', in: ['channel'] },
  },
  parse({ tokens }): RewashArgs | Problem {
    const w = parseWindowed(tokens, 30);
    if (w instanceof Problem) return w;
    if (w.rest !== undefined) return new Problem('Give the customer, then the window (days, or from and to).');
    return { customer: w.customer, window: w.window };
  },
  format: (a: RewashArgs) => `rewash ${quoted(a.customer)} ${windowText(a.window)}`,
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const r = await customerFor(ctx, a.customer);
    if ('reply' in r) return info(r.reply);
    const window = 'days' in a.window ? lastCompleteDays(a.window.days, ctx.linen.timeZone, nowOf(ctx)) : a.window;
    const report = await ctx.linen.client.reports.rewashRate({ customerId: r.customer.id, ...window });
    if (r.customer.is_group && report.manifests + report.batches + report.voided === 0)
      throw groupWithoutOwn(r.customer, await ctx.linen.customers(), 'manifests or rewash', window);
    return data(rewashView(report, { customerName: r.customer.name }));
  },
});
