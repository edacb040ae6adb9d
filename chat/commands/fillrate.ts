/** `fillrate <customer> [days | from to] [department]`: fill rate and par met against par, worst items first. */

import { lastCompleteDays } from '../../shared/dates.ts';
import { groupWithoutOwn } from '../../shared/reports/index.ts';
import { customerFor, departmentOf } from '../answers/customers.ts';
import { errorView } from '../views/common.ts';
import { fillRateView } from '../views/fillrate.ts';
import { data, defineCommand, info, nowOf, Problem, quoted } from './command.ts';
import { type DayWindow, parseWindowed, windowText } from './day-window.ts';

interface FillRateArgs {
  customer: string;
  window: DayWindow;
  department?: string | undefined;
}

export const fillrateCommand = defineCommand({
  name: 'fillrate',
  aliases: ['fill-rate', 'fill_rate', 'parmet'],
  access: 'operations',
  help: {
    usage: 'fillrate <customer> [days | from to] [department]',
    description:
      'Fill rate and par met against par, short days, worst items first, with a per-day trend (default: the last 7 whole days, today left out). Quote names with spaces when a department follows without a window.',
    examples: [
      'fillrate Harborview Hotel',
      'fillrate "Mercy General Hospital" 14 ICU',
      'fillrate Harborview Hotel 2026-11-01 2026-11-15',
    ],
    menu: {
      summary: 'Fill rate and par met against par: fillrate <customer> [days] [department]',
      in: ['private', 'channel'],
    },
  },
  parse({ tokens }): FillRateArgs | Problem {
    const w = parseWindowed(tokens, 7);
    if (w instanceof Problem) return w;
    return { customer: w.customer, window: w.window, department: w.rest };
  },
  format: (a: FillRateArgs) =>
    ['fillrate', quoted(a.customer), windowText(a.window), a.department ? quoted(a.department) : undefined]
      .filter(Boolean)
      .join(' '),
  withCustomer: (a, customer) => ({ ...a, customer }),
  async answer(a, ctx) {
    const r = await customerFor(ctx, a.customer);
    if ('reply' in r) return info(r.reply);
    const customer = r.customer;
    let department: { id: string; name: string } | undefined;
    if (a.department) {
      department = departmentOf(customer, a.department);
      if (!department) {
        const depts = customer.departments;
        const names = depts.map((d) => d.name).join(', ');
        return info(
          errorView(
            depts.length
              ? `${customer.name} has no department “${a.department}”; its departments are ${names}.`
              : `${customer.name} has no departments; leave the department out.`,
          ),
        );
      }
    }
    // A number of days means whole days ending yesterday: today is only partly delivered.
    const window = 'days' in a.window ? lastCompleteDays(a.window.days, ctx.linen.timeZone, nowOf(ctx)) : a.window;
    const report = await ctx.linen.client.reports.fillRate({
      customerId: customer.id,
      departmentId: department?.id,
      from: window.from,
      to: window.to,
    });
    if (customer.is_group && report.rows + report.rowsWithoutPar === 0)
      throw groupWithoutOwn(customer, await ctx.linen.customers(), 'deliveries', window);
    return data(fillRateView(report, { customerName: customer.name, departmentName: department?.name }));
  },
});
