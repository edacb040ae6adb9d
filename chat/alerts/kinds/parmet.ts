/**
 * `alert parmet below NN% [customer] [department]`: par met of the last whole day (yesterday, org-local) was below
 * NN%, over the customers of the alert (and the department). Par met is Σ min(delivered, par) ÷ Σ par over the rows
 * with a pieces par, as `fillrate` computes it; a day without such rows says nothing. Read once a day, after the day
 * is over: one occurrence per day (`day:<day>`).
 */

import { startOfDayInZone } from '../../../shared/day-start.ts';
import type { DailyDeliveryRow } from '../../../shared/index.ts';
import { fillRateTotals } from '../../../shared/reports/fill-rate.ts';
import { departmentOf } from '../../answers/customers.ts';
import { fillrateCommand } from '../../commands/fillrate.ts';
import { field } from '../../content/document.ts';
import { count, pct, plural } from '../../content/format.ts';
import { b, command, line, type Rich, r } from '../../content/rich.ts';
import { defineAlertKind, type Token } from '../kind.ts';
import {
  alertMessage,
  commandCustomer,
  customerWords,
  isWord,
  looksLikePercent,
  meaningful,
  nameOf,
  onlyCustomer,
  type ParseResult,
  parsed,
  percentAt,
  problem,
  rerun,
  scopeName,
  scopeOf,
  typed,
  worstFirst,
} from './common.ts';

export interface ParMetOptions {
  /** Told when par met is below this percentage (0 < percent ≤ 100). */
  belowPercent: number;
  /** The department named (resolved when the alert was set), with its name. */
  departmentId?: string;
  department?: string;
}

interface ParMetFigures {
  parMet: number;
  fillRate: number;
  /** Pieces toward par, and the par. */
  met: number;
  par: number;
  delivered: number;
}

export interface ParMetDetail extends ParMetFigures {
  day: string;
  /** The customer whose par met was the lowest (the one `fillrate` is asked about). */
  worstCustomerId: string;
  /** Customers with a par that day. */
  customers: number;
  /** The items with the lowest par met, worst first. */
  worstItems: (ParMetFigures & { name: string; customerId: string })[];
}

/** Items a detail keeps. */
const MAX_ITEMS = 8;

const EXAMPLE = 'alert parmet below 90% Mercy General Hospital';

function parseParMet(tokens: readonly Token[]): ParseResult<ParMetOptions> {
  const words = meaningful(tokens);
  const at = words.findIndex((t) => isWord(t, 'below', 'under'));
  if (at < 0) return problem(`Say below what par met to alert, like ${EXAMPLE}.`);
  const p = percentAt(words, at + 1, true);
  if (!p) {
    const next = words[at + 1];
    return problem(
      next
        ? `Give a percentage after ${words[at]!.text.trim().toLowerCase()}, like ${EXAMPLE} (not ${typed(next.text)}).`
        : `Give a percentage after ${words[at]!.text.trim().toLowerCase()}, like ${EXAMPLE}.`,
    );
  }
  if (!(p.value > 0 && p.value <= 100)) return problem(`Par met is more than 0% and at most 100% (got ${p.typed}).`);
  const rest = [...words.slice(0, at), ...words.slice(at + 1 + p.used)];
  if (rest.some((t) => isWord(t, 'below', 'under'))) return problem(`Give one percentage, like ${EXAMPLE}.`);
  const stray = rest.find(looksLikePercent);
  if (stray) return problem(`Give one percentage, after below, like ${EXAMPLE} (not ${typed(stray.text)} too).`);
  return parsed({ belowPercent: p.value }, customerWords(rest, true));
}

function figures(rows: readonly DailyDeliveryRow[]): ParMetFigures | null {
  const t = fillRateTotals(rows);
  if (t.parMet === null || t.fillRate === null) return null;
  return { parMet: t.parMet, fillRate: t.fillRate, met: t.met, par: t.par, delivered: t.delivered };
}

function groupBy(rows: readonly DailyDeliveryRow[], key: (r: DailyDeliveryRow) => string): DailyDeliveryRow[][] {
  const out = new Map<string, DailyDeliveryRow[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return [...out.values()];
}

const where = (scope: { customerIds: readonly string[]; options: ParMetOptions }, names: ReadonlyMap<string, string>) =>
  `${scopeName(scope, names)}${scope.options.department ? ` › ${line(scope.options.department)}` : ''}`;

export const parMetKind = defineAlertKind<'parmet', ParMetOptions, ParMetDetail>({
  name: 'parmet',
  words: ['parmet', 'par-met', 'par_met'],
  access: 'operations',
  help: {
    usage: 'alert parmet below NN% [customer] [department]',
    description:
      "Par met of the last whole day (yesterday) is below NN%: checked once a day, once the day is over. Par met = pieces toward par ÷ par, over the rows with a pieces par. Quote a customer's name when a department follows.",
    examples: ['alert parmet below 90%', 'alert parmet below 85% "Mercy General Hospital" ICU'],
  },
  parse: parseParMet,
  async resolve(p, customer) {
    if (p.place === undefined) return p.options;
    if (!customer)
      return problem(
        `Give the customer of the department first, like alert parmet below 90% "Mercy General Hospital" ICU.`,
      );
    const department = departmentOf(customer, p.place);
    if (!department) {
      const depts = customer.departments.map((d) => d.name).join(', ');
      return problem(
        depts
          ? `${customer.name} has no department ${typed(p.place)}; its departments are ${depts}.`
          : `${customer.name} has no departments; leave the department out.`,
      );
    }
    return { ...p.options, departmentId: department.id, department: department.name };
  },
  describe: (scope, names) =>
    `par met of each whole day below ${scope.options.belowPercent}% at ${where(scope, names)}`,
  reads: ['customers', 'deliveries'],
  cadence: 'daily',
  async occurrences(scope, reads, time) {
    const day = time.yesterday;
    const [rows, covers] = await Promise.all([reads.deliveries(day), scopeOf(scope, reads)]);
    const dept = scope.options.departmentId;
    const mine = rows.filter(
      (row) => row.date === day && covers(row.customer_id) && (dept === undefined || row.department_id === dept),
    );
    const total = figures(mine);
    // No row with a pieces par: the day says nothing about par met.
    if (!total || !(total.parMet < scope.options.belowPercent / 100)) return [];
    const byCustomer = groupBy(mine, (row) => row.customer_id)
      .map((rs) => ({ customerId: rs[0]!.customer_id, f: figures(rs) }))
      .filter((c): c is { customerId: string; f: ParMetFigures } => c.f !== null)
      .sort((a, z) => a.f.parMet - z.f.parMet || a.customerId.localeCompare(z.customerId));
    const items = groupBy(mine, (row) => `${row.customer_id}\u0000${row.item_id}`)
      .map((rs) => ({ rs, f: figures(rs) }))
      .filter((x): x is { rs: DailyDeliveryRow[]; f: ParMetFigures } => x.f !== null)
      .sort((a, z) => a.f.parMet - z.f.parMet || z.f.par - z.f.met - (a.f.par - a.f.met) || a.f.par - z.f.par)
      .slice(0, MAX_ITEMS)
      .map(({ rs, f }) => ({ ...f, name: rs[0]!.item_name, customerId: rs[0]!.customer_id }));
    return [
      {
        id: `day:${day}`,
        // The day was over, and its par met known, when the next one began.
        at: startOfDayInZone(time.today, scope.timeZone).toISOString(),
        weight: 1 - total.parMet,
        detail: {
          ...total,
          day,
          worstCustomerId: byCustomer[0]!.customerId,
          customers: byCustomer.length,
          worstItems: items,
        },
      },
    ];
  },
  message(scope, occurrences, ctx) {
    const names = ctx.customerNames;
    const below = `${scope.options.belowPercent}%`;
    const sorted = worstFirst(occurrences);
    const worst = sorted[0]!.detail;
    const n = occurrences.length;
    const itemLine = (d: ParMetDetail, it: ParMetDetail['worstItems'][number]): Rich =>
      r`${b(pct(it.parMet, 1))} ${line(it.name)}${d.customers > 1 ? ` at ${line(nameOf(names, it.customerId))}` : ''}: ${count(it.met)} of ${count(it.par)} toward par (${count(it.delivered)} delivered)`;
    const customer = commandCustomer(scope, [worst.worstCustomerId], names);
    const department = scope.options.department;
    const cmd = customer
      ? fillrateCommand.format({ customer, window: { from: worst.day, to: worst.day }, department })
      : null;
    return alertMessage({
      title:
        n === 1
          ? `Par met ${pct(worst.parMet, 1)} on ${worst.day} at ${where(scope, names)}`
          : `Par met below ${below} on ${plural(n, 'day')} at ${where(scope, names)}`,
      lead: r`Par met at ${b(where(scope, names))} on ${worst.day} was ${b(pct(worst.parMet, 1))}, below ${below}: ${count(worst.met)} of ${count(worst.par)} pieces toward par (fill rate ${pct(worst.fillRate, 1)}).`,
      summary: `Par met at ${where(scope, names)} on ${worst.day} was ${pct(worst.parMet, 1)}, below ${below}${
        worst.worstItems[0] ? `; worst ${line(worst.worstItems[0].name)} at ${pct(worst.worstItems[0].parMet, 1)}` : ''
      }.`,
      occurrences,
      line: (d) =>
        r`${b(d.day)} · par met ${b(pct(d.parMet, 1))} · fill rate ${pct(d.fillRate, 1)} · ${count(d.met)} of ${count(d.par)} toward par${
          d.worstItems[0] ? ` · worst ${line(d.worstItems[0].name)} ${pct(d.worstItems[0].parMet, 1)}` : ''
        }`,
      fields: (d) => [
        field('Day', [d.day]),
        field('Par met', [b(pct(d.parMet, 1))]),
        field('Fill rate', [pct(d.fillRate, 1)]),
        field('Toward par', [`${count(d.met)} of ${count(d.par)} pieces (${count(d.delivered)} delivered)`]),
      ],
      after: (d) =>
        d.worstItems.length
          ? r`${b('Worst items first')}\n${d.worstItems.flatMap((it, i) => (i ? ['\n', ...itemLine(d, it)] : itemLine(d, it)))}`
          : null,
      noun: 'days',
      notes: [
        [
          'Par met = Σ min(delivered, par) ÷ Σ par over the rows with a pieces par: over-fill earns nothing. Fill rate = delivered ÷ par. Days are org-local.',
        ],
      ],
      actions: cmd ? [rerun('Show fill rate', cmd)] : [],
      test: ctx.test,
    });
  },
  nowLine(scope, n, names) {
    const customer = onlyCustomer(scope, names);
    const cmd = command(
      customer
        ? fillrateCommand.format({ customer, window: { days: 1 }, department: scope.options.department })
        : 'fillrate <customer> 1',
    );
    const below = `${scope.options.belowPercent}%`;
    return n === 0
      ? r`Par met of yesterday was not below ${below}; ${cmd} shows it. Each day is checked once it is over.`
      : r`Par met of yesterday was below ${below}: ${cmd} shows it. Each day is checked once it is over.`;
  },
});
