/**
 * A person's home: what they follow (chosen on the home itself), what is short today (worst units first), yesterday's
 * par met with the last seven days as a chart, the open shortfall signals, where accounting answers may appear the
 * overdue invoices and the purchase orders running out, their digests and alerts with buttons to pause, resume or
 * remove them, and when it was built, with a Refresh button. It keeps itself current where a platform can (`live`).
 */
import type { AgedInvoice, DailyDeliveryRow } from '../../shared/index.ts';
import {
  type Action,
  actions,
  type Content,
  chart,
  choice,
  divider,
  field,
  fields,
  note,
  type Part,
  text,
  title,
} from '../content/document.ts';
import { count, money, moreLine, pct, plural, take, when } from '../content/format.ts';
import { CONTENT_LIMITS, chunkLines } from '../content/limits.ts';
import { b, command, icon, line, type Rich, r } from '../content/rich.ts';
import type { HomeData } from '../home/home-data.ts';
import { EXPIRING_DAYS, placeValue } from '../home/home-data.ts';
import { HOME_COMMANDS, type WatchKind } from '../home/home-words.ts';
import { parMetByCustomerChart } from './par-met-chart.ts';
import { LOW_BUDGET_SHARE, poLine } from './po.ts';
import { missingByUnitChart } from './short.ts';
import { signalLine, signalSections } from './signals.ts';

export const HOME_LIMITS = {
  shortLines: 8,
  parMetFields: CONTENT_LIMITS.fields,
  signals: 10,
  invoices: 8,
  orders: 8,
  /** Digests and alerts listed, each with its row of buttons. */
  watches: 12,
  /** Options of a choice (Slack's menus hold 100). */
  options: 100,
} as const;

/** A digest or alert of the person's, as its command lists it, with whether it runs now. */
export interface Watch {
  kind: WatchKind;
  id: string;
  line: Rich;
  active: boolean;
}

export interface HomeViewOptions {
  /** Whose home it is: the person it keeps itself current for. */
  userId: string;
  /** What the last choice or button did. */
  notice?: Rich | undefined;
  watches: readonly Watch[];
  /** Why overdue invoices and purchase orders are not shown here, where accounting answers may not appear. */
  accountingRefusal?: Rich | null | undefined;
  /** Whether what the person follows can be chosen here (the home has a store to keep it). */
  choosable: boolean;
}

const names = (data: HomeData) => new Map(data.customers.map((c) => [c.id, c.name]));

/** `every customer`, or the customers followed and how many departments or units narrow them. */
function followingText(data: HomeData): string {
  const followed = data.customers.filter((c) => data.follows.customerIds.includes(c.id)).map((c) => line(c.name));
  if (followed.length === 0) return 'every customer';
  const places = data.follows.places.length
    ? `, ${plural(data.follows.places.length, 'department or unit', 'departments or units')} of them only`
    : '';
  return `${followed.join(', ')}${places}`;
}

function choices(data: HomeData): Part[] {
  const customers = {
    label: [b('Customers you follow')],
    placeholder: 'Every customer',
    options: data.customers.slice(0, HOME_LIMITS.options).map((c) => ({ value: c.id, label: line(c.name) })),
    chosen: data.follows.customerIds,
    command: HOME_COMMANDS.follow,
    apply: 'Follow these customers',
  };
  const parts = [choice(customers)];
  if (data.follows.customerIds.length && data.placeOptions.length)
    parts.push(
      choice({
        label: [b('Only these departments or units')],
        placeholder: 'All their departments and units',
        options: data.placeOptions.slice(0, HOME_LIMITS.options).map((o) => ({ ...o, label: line(o.label) })),
        chosen: data.follows.places.map((p) => placeValue(p.kind, p.id)),
        command: HOME_COMMANDS.places,
        apply: 'Show only these',
      }),
    );
  return parts;
}

function shortParts(data: HomeData): Part[] {
  const { short } = data;
  const days = `count days ${short.window.from} → ${short.window.to}`;
  if (short.lines.length === 0)
    return [
      text([
        icon('ok'),
        ' ',
        b('Short today'),
        short.carts
          ? `: nothing missing; the latest counts of ${plural(short.carts, 'cart')} are all delivered (${days}).`
          : `: no cart counts to read (${days}).`,
      ]),
    ];
  const customerNames = names(data);
  // One customer in scope: its units need no customer's name.
  const only = data.inScope.length === 1 ? data.inScope[0]!.name : undefined;
  const { shown, more } = take(short.lines, HOME_LIMITS.shortLines);
  const lines: Rich[] = shown.map((l) => {
    const where = [only ? null : customerNames.get(l.customerId), l.unitName ?? 'No unit']
      .filter((s) => s !== null)
      .map((s) => line(s))
      .join(' › ');
    return r`${b(count(l.missing))} ${line(l.itemName)} at ${where} (${count(l.delivered)} of ${count(l.required)} delivered)`;
  });
  if (more) lines.push([moreLine(more, 'unit items:'), ' ', command('short'), ' lists them all']);
  return [
    text(
      r`${icon('warning')} ${b('Short today')}: ${b(count(short.missing))} pieces missing in ${plural(short.lines.length, 'unit item')}, from the latest counts (${days}), worst first.`,
    ),
    chart(missingByUnitChart(short, { customerNames, customerName: only })),
    ...chunkLines(lines).map((t) => text(t)),
  ];
}

interface Tally {
  met: number;
  par: number;
}

function tallyBy(rows: readonly DailyDeliveryRow[], day: string): Map<string, Tally> {
  const out = new Map<string, Tally>();
  for (const row of rows) {
    if (row.date !== day || row.daily_par === null || row.daily_par <= 0) continue;
    const t = out.get(row.customer_id) ?? { met: 0, par: 0 };
    t.met += Math.min(row.delivered_count, row.daily_par);
    t.par += row.daily_par;
    out.set(row.customer_id, t);
  }
  return out;
}

function parMetParts(data: HomeData): Part[] {
  const yesterday = data.days[data.days.length - 1]!;
  const byCustomer = tallyBy(data.deliveries, yesterday);
  const charted = data.inScope.filter((c) =>
    data.deliveries.some((row) => row.customer_id === c.id && row.daily_par !== null && row.daily_par > 0),
  );
  if (charted.length === 0)
    return [
      text([b('Par met'), `: no deliveries with a par in the last seven days (${data.days[0]} → ${yesterday}).`]),
    ];
  const total = [...byCustomer.values()].reduce((s, t) => ({ met: s.met + t.met, par: s.par + t.par }), {
    met: 0,
    par: 0,
  });
  const parts: Part[] = [
    text(
      total.par
        ? r`${b('Par met yesterday')} (${yesterday}): ${b(pct(total.met / total.par, 1))} of ${count(total.par)} pieces of par, worst customer first.`
        : r`${b('Par met yesterday')} (${yesterday}): no delivery with a par.`,
    ),
  ];
  const worst = data.inScope
    .filter((c) => byCustomer.has(c.id))
    .map((c) => ({ c, t: byCustomer.get(c.id)! }))
    .sort((a, z) => a.t.met / a.t.par - z.t.met / z.t.par || a.c.name.localeCompare(z.c.name));
  if (worst.length) {
    const { shown, more } = take(worst, HOME_LIMITS.parMetFields - (worst.length > HOME_LIMITS.parMetFields ? 1 : 0));
    const fs = shown.map(({ c, t }) => field(line(c.name), [`${pct(t.met / t.par, 1)} of ${count(t.par)}`]));
    if (more) fs.push(field('Others', [moreLine(more, 'customers')]));
    parts.push(fields(fs));
  }
  parts.push(chart(parMetByCustomerChart(data.deliveries, charted, data.days)));
  return parts;
}

function signalParts(data: HomeData): Part[] {
  if (data.signals.length === 0) return [text([icon('ok'), ' ', b('Shortfall signals'), ': none open.'])];
  const lines = signalSections(data.signals, data.customers).flatMap((s) =>
    s.signals.map(
      (sig): Rich => [
        `${line(s.customerName)}${s.departmentName ? ` › ${line(s.departmentName)}` : ''}: `,
        ...signalLine(sig),
      ],
    ),
  );
  const { shown, more } = take(lines, HOME_LIMITS.signals);
  if (more) shown.push([moreLine(more, 'signals:'), ' ', command('signals shortfall'), ' lists them all']);
  return chunkLines([r`${b('Shortfall signals')} (${count(data.signals.length)} open or acknowledged)`, ...shown]).map(
    (t) => text(t),
  );
}

function invoiceLine(inv: AgedInvoice, customerNames: ReadonlyMap<string, string>): Rich {
  return r`${b(line(inv.invoice_number))} · ${line(customerNames.get(inv.customer_id) ?? inv.customer_id)} · ${b(`${plural(inv.daysOverdue ?? 0, 'day')} overdue`)} · ${money(inv.balance_cents, inv.currency)}`;
}

function accountingParts(data: HomeData, refusal: Rich | null | undefined): Part[] {
  if (!data.overdue || !data.runningOut) return refusal ? [divider(), note(refusal)] : [];
  const customerNames = names(data);
  const parts: Part[] = [divider()];
  if (data.overdue.length === 0) parts.push(text([icon('ok'), ' ', b('Overdue invoices'), ': none.']));
  else {
    const totals = [...new Set(data.overdue.map((i) => i.currency))]
      .sort()
      .map((cur) =>
        money(
          data.overdue!.filter((i) => i.currency === cur).reduce((s, i) => s + i.balance_cents, 0),
          cur,
        ),
      )
      .join(' + ');
    const { shown, more } = take(data.overdue, HOME_LIMITS.invoices);
    const lines = shown.map((i) => invoiceLine(i, customerNames));
    if (more) lines.push([moreLine(more, 'overdue invoices:'), ' ', command('invoices overdue'), ' lists them all']);
    parts.push(
      ...chunkLines([
        r`${icon('warning')} ${b('Overdue invoices')}: ${b(totals)} in ${plural(data.overdue.length, 'invoice')}, most overdue first`,
        ...lines,
      ]).map((t) => text(t)),
    );
  }
  if (data.runningOut.length === 0) parts.push(text([icon('ok'), ' ', b('Purchase orders running out'), ': none.']));
  else {
    const { shown, more } = take(data.runningOut, HOME_LIMITS.orders);
    const lines = shown.map((p) => poLine(p, { timeZone: data.timeZone, customerNames, several: true }));
    if (more) lines.push([moreLine(more, 'purchase orders:'), ' ', command('po'), ' lists them all']);
    parts.push(
      ...chunkLines([
        r`${b('Purchase orders running out')} (under ${pct(LOW_BUDGET_SHARE)} of the budget left or expiring within ${plural(EXPIRING_DAYS, 'day')}), the least left first`,
        ...lines,
      ]).map((t) => text(t)),
    );
  }
  return parts;
}

const watchButtons = (w: Watch): Action[] => [
  w.active
    ? { kind: 'refresh', label: 'Pause', command: HOME_COMMANDS.watch('pause', w.kind, w.id) }
    : { kind: 'refresh', label: 'Resume', command: HOME_COMMANDS.watch('resume', w.kind, w.id) },
  { kind: 'refresh', label: 'Remove', command: HOME_COMMANDS.watch('remove', w.kind, w.id) },
];

function watchParts(watches: readonly Watch[]): Part[] {
  const heading = text([b('Your digests and alerts')]);
  if (watches.length === 0)
    return [
      heading,
      note([
        'None yet: ',
        command('digest subscribe'),
        ' in a channel sets up a digest, and ',
        command('alert help'),
        ' says what alerts tell.',
      ]),
    ];
  const { shown, more } = take(watches, HOME_LIMITS.watches);
  const parts: Part[] = [heading, ...shown.flatMap((w) => [text(w.line), actions(watchButtons(w))])];
  if (more)
    parts.push(
      note([
        moreLine(more, 'digests and alerts:'),
        ' ',
        command('digest list'),
        ' and ',
        command('alerts'),
        ' list them all',
      ]),
    );
  return parts;
}

function summaryOf(data: HomeData): Rich {
  const yesterday = tallyBy(data.deliveries, data.days[data.days.length - 1]!);
  const t = [...yesterday.values()].reduce((s, x) => ({ met: s.met + x.met, par: s.par + x.par }), { met: 0, par: 0 });
  const bits = [
    `${count(data.short.missing)} pieces short today`,
    t.par ? `par met yesterday ${pct(t.met / t.par, 1)}` : null,
    plural(data.signals.length, 'shortfall signal'),
    data.overdue ? plural(data.overdue.length, 'overdue invoice') : null,
  ].filter(Boolean);
  return [`Your Linen home: ${bits.join('; ')}.`];
}

export function homeView(data: HomeData, opts: HomeViewOptions): Content {
  const built = `${when(data.builtAt.toISOString(), data.timeZone)} (${data.timeZone})`;
  const parts: Part[] = [
    title('Your Linen home'),
    note([`As of ${built} · following ${followingText(data)}`]),
    ...(opts.notice ? [text([icon('info'), ' ', ...opts.notice])] : []),
    ...(opts.choosable ? choices(data) : []),
    divider(),
    ...shortParts(data),
    divider(),
    ...parMetParts(data),
    divider(),
    ...signalParts(data),
    ...accountingParts(data, opts.accountingRefusal),
    divider(),
    ...watchParts(opts.watches),
    divider(),
    actions([{ kind: 'refresh', label: 'Refresh', command: HOME_COMMANDS.show }]),
  ];
  // Kept current for the person whose home it is (nobody's when no one asked: a preview, a test).
  const live = opts.userId ? { command: HOME_COMMANDS.show, userIds: [opts.userId] } : undefined;
  return { summary: summaryOf(data), parts, ...(live ? { live } : {}) };
}
