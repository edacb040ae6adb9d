/**
 * Charts and tables in Slack answers, over the bot's real HTTP receiver against the sandbox: each answer carries
 * its data visualization or table block, what a chart plots equals the answer's numbers computed here from the
 * sandbox's own rows, the numbers are written in a context block under the chart, and every message passes the
 * Block Kit validator (data visualization and table limits included). Windows, customers, units and rows past
 * Slack's limits degrade as the renderer states: days by week then by month, customers past six as "Others", units
 * past twenty left out and counted, rows past the table's limits cut with the command that lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../chat/content/format.ts';
import { addDays } from '../../shared/dates.ts';
import { crowdedData, EXTRA_UNITS } from '../support/chart-variants.ts';
import {
  asPercent,
  expectedAging,
  expectedDays,
  expectedDaysOverdue,
  expectedRewash,
  expectedShort,
} from '../support/expected-figures.ts';
import { validateMessage } from '../support/slack-blockkit.ts';
import { allText, type BotUnderTest, type Harness, startHarness, TODAY, TZ } from '../support/slack-harness.ts';

let h: Harness;
let bot: BotUnderTest;
let crowded: Harness;
let crowdedBot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({});
  crowded = await startHarness({ data: await crowdedData({ today: TODAY, timeZone: TZ }) });
  crowdedBot = await crowded.startBotWith({});
});
afterAll(async () => {
  await h?.close();
  await crowded?.close();
});

type Msg = Record<string, any>;
const chartsOf = (m: Msg): any[] => m.blocks.filter((b: any) => b.type === 'data_visualization');
/** The numbers written under the message's `k`th chart. */
const numbersOf = (m: Msg, k = 0): string =>
  m.blocks.find((b: any) => b.block_id === `linen_chart_numbers:${k}`)?.elements[0]?.text ?? '';
const seriesOf = (chart: any): Record<string, number[]> =>
  Object.fromEntries(chart.chart.series.map((s: any) => [s.name, s.data.map((d: any) => d.value)]));
const tableOf = (m: Msg): string[][] =>
  m.blocks.find((b: any) => b.type === 'table')?.rows.map((row: any[]) => row.map((c) => c.text)) ?? [];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const customerId = (name: string) => h.sandbox.data.customers.find((c) => c.name === name)!.id;
const mercyRows = (from: string, to: string) =>
  h.sandbox.data.daily_deliveries.filter(
    (r) => r.customer_id === customerId('Mercy General Hospital') && r.date >= from && r.date <= to,
  );

/** Days summed by the Monday-to-Sunday week they fall in, named by their first and last day. */
function byWeek(days: ReturnType<typeof expectedDays>) {
  const weeks = new Map<string, typeof days>();
  for (const d of days) {
    const t = new Date(`${d.date}T12:00:00Z`);
    const monday = addDays(d.date, -((t.getUTCDay() + 6) % 7));
    weeks.set(monday, [...(weeks.get(monday) ?? []), d]);
  }
  return [...weeks.values()].map((w) => {
    const sum = (k: 'delivered' | 'met' | 'par') => w.reduce((s, d) => s + d[k], 0);
    const first = w[0]!.date;
    const last = w[w.length - 1]!.date;
    return {
      label: first === last ? first : `${first.slice(5)}–${last.slice(5)}`,
      fill: asPercent(sum('delivered'), sum('par')),
      parMet: asPercent(sum('met'), sum('par')),
    };
  });
}

describe('fillrate: fill rate and par met per day as a line', () => {
  it('14 days: a point a day with a par, both rates as the rows give them, the numbers under the chart', async () => {
    const m = await bot.ask('fillrate Mercy General Hospital 14');
    const days = expectedDays(mercyRows(addDays(TODAY, -14), addDays(TODAY, -1)));
    expect(days).toHaveLength(14);
    const [chart, ...more] = chartsOf(m);
    expect(more).toEqual([]);
    expect(chart.title).toBe('Fill rate and par met by day');
    expect(chart.chart.type).toBe('line');
    expect(chart.chart.axis_config.categories).toEqual(days.map((d) => d.date));
    expect(seriesOf(chart)).toEqual({
      'Fill rate': days.map((d) => asPercent(d.delivered, d.par)),
      'Par met': days.map((d) => asPercent(d.met, d.par)),
    });
    const numbers = numbersOf(m);
    expect(numbers).toContain('*Fill rate and par met by day*');
    for (const d of days) {
      expect(numbers).toContain(`${d.date} ${asPercent(d.delivered, d.par).toFixed(1)}%`);
      expect(numbers).toContain(`${d.date} ${asPercent(d.met, d.par).toFixed(1)}%`);
    }
    expect(validateMessage(m)).toEqual([]);
  });

  it('30 days, more than the 20 points a Slack chart holds: by week, summed from the days, and it says so', async () => {
    const m = await bot.ask('fillrate Mercy General Hospital 30');
    const weeks = byWeek(expectedDays(mercyRows(addDays(TODAY, -30), addDays(TODAY, -1))));
    const [chart] = chartsOf(m);
    expect(chart.title).toBe('Fill rate and par met by week');
    expect(chart.chart.axis_config.categories).toEqual(weeks.map((w) => w.label));
    expect(seriesOf(chart)).toEqual({ 'Fill rate': weeks.map((w) => w.fill), 'Par met': weeks.map((w) => w.parMet) });
    expect(numbersOf(m)).toContain('30 days are more than the 20 points a chart holds here');
    for (const w of weeks) expect(numbersOf(m)).toContain(`${w.label} ${w.parMet.toFixed(1)}%`);
  });

  it('a year: more weeks than 20, so by month', async () => {
    const m = await bot.ask('fillrate Mercy General Hospital 366');
    const [chart] = chartsOf(m);
    expect(chart.title).toBe('Fill rate and par met by month');
    const days = expectedDays(mercyRows(addDays(TODAY, -366), addDays(TODAY, -1)));
    const months = [...new Set(days.map((d) => d.date.slice(0, 7)))];
    expect(chart.chart.axis_config.categories).toEqual(months);
    const nov = days.filter((d) => d.date.startsWith('2026-11'));
    const sum = (k: 'met' | 'par') => nov.reduce((s, d) => s + d[k], 0);
    expect(seriesOf(chart)['Par met']!.at(-1)).toBe(asPercent(sum('met'), sum('par')));
    expect(numbersOf(m)).toMatch(/\d+ days are more than the 20 points a chart holds here/);
  });

  it('the worst items as a table (numbers right-aligned), their lines still written', async () => {
    const m = await bot.ask('fillrate Mercy General Hospital 14');
    const rows = mercyRows(addDays(TODAY, -14), addDays(TODAY, -1)).filter((r) => r.daily_par && r.daily_par > 0);
    const items = new Map<string, { met: number; par: number }>();
    for (const r of rows) {
      const t = items.get(r.item_name) ?? { met: 0, par: 0 };
      t.met += Math.min(r.delivered_count, r.daily_par!);
      t.par += r.daily_par!;
      items.set(r.item_name, t);
    }
    const worst = [...items].sort(([, a], [, b]) => a.met / a.par - b.met / b.par);
    const [header, ...body] = tableOf(m);
    expect(header).toEqual(['Item', 'Par met', 'Fill rate', 'Short days', 'Delivered', 'Par']);
    expect(body.map((r) => r[0])).toEqual(worst.slice(0, body.length).map(([name]) => name));
    expect(body.map((r) => r[1])).toEqual(
      worst.slice(0, body.length).map(([, t]) => `${asPercent(t.met, t.par).toFixed(1)}%`),
    );
    const table = m.blocks.find((b: any) => b.type === 'table');
    expect(table.column_settings.map((c: any) => c.align)).toEqual([
      'left',
      'right',
      'right',
      'right',
      'right',
      'right',
    ]);
    expect(allText(m)).toContain('*Worst items first*');
    expect(allText(m)).toContain(`${worst[0]![0]}: fill`);
  });
});

describe('balance: aging by customer as bars', () => {
  it('one series a customer, in dollars, one chart a currency, the numbers under each', async () => {
    const m = await bot.ask('balance');
    const d = h.sandbox.data;
    const aging = expectedAging(d, TODAY, TZ);
    const currencyOf = (id: string) => d.invoices.find((i) => i.customer_id === id && i.status !== 'void')?.currency;
    const usd = d.customers.filter((c) => (currencyOf(c.id) ?? 'usd') === 'usd');
    const charts = chartsOf(m);
    expect(charts.map((c) => c.title)).toEqual(['Aging by customer (CAD)', 'Aging by customer (USD)']);
    const chart = charts[1]!;
    expect(chart.chart.type).toBe('bar');
    expect(chart.chart.axis_config.categories).toEqual(['Current', '1–30 days', '31–60 days', '61+ days']);
    const got = seriesOf(chart);
    expect(Object.keys(got)).toHaveLength(usd.length);
    for (const c of usd) {
      const a = aging.get(c.id)!;
      const name = Object.keys(got).find((n) => c.name.startsWith(n.replace(/…$/, '')))!;
      expect(got[name], c.name).toEqual([a.current / 100, a.d1_30 / 100, a.d31_60 / 100, a.d61_plus / 100]);
      expect(numbersOf(m, 1)).toContain(
        `${esc(c.name)}: Current ${money(a.current, 'usd')} · 1–30 days ${money(a.d1_30, 'usd')}`,
      );
    }
    // Series names are cut to Slack's 20 characters, and stay distinct.
    expect(Object.keys(got)).toContain("St. Luke's Medical …");
  });

  it('more customers than six: the five largest and "Others", the sum of the rest, said under the chart', async () => {
    const m = await crowdedBot.ask('balance');
    const d = crowded.sandbox.data;
    const aging = expectedAging(d, TODAY, TZ);
    const usd = d.customers
      .filter((c) => c.name !== 'Lakeshore Rehabilitation Centre')
      .map((c) => ({ c, a: aging.get(c.id)! }))
      .map(({ c, a }) => ({
        name: c.name,
        buckets: [a.current, a.d1_30, a.d31_60, a.d61_plus],
        total: a.current + a.d1_30 + a.d31_60 + a.d61_plus,
      }))
      .sort((x, y) => y.total - x.total);
    const chart = chartsOf(m).find((c) => c.title === 'Aging by customer (USD)');
    const got = seriesOf(chart);
    expect(Object.keys(got)).toHaveLength(6);
    expect(Object.keys(got).at(-1)).toBe('Others');
    const rest = usd.slice(5);
    expect(got.Others).toEqual([0, 1, 2, 3].map((k) => Math.round(rest.reduce((s, x) => s + x.buckets[k]!, 0)) / 100));
    expect(usd.slice(0, 5).map((x) => x.buckets.map((c) => c / 100))).toEqual(Object.values(got).slice(0, 5));
    expect(numbersOf(m, 1)).toContain(`${rest.length} more customers summed as Others`);
    expect(validateMessage(m)).toEqual([]);
  });
});

describe('short: pieces missing by unit as bars', () => {
  const byUnit = (lines: { unit: string | null; missing: number }[]) => {
    const units = new Map<string, number>();
    for (const l of lines) units.set(l.unit ?? 'No unit', (units.get(l.unit ?? 'No unit') ?? 0) + l.missing);
    return [...units].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  };

  it('the worst units first, each the sum of its lines', async () => {
    const m = await bot.ask('short Mercy General Hospital');
    const units = byUnit(
      expectedShort(h.sandbox.data, {
        customerId: customerId('Mercy General Hospital'),
        from: addDays(TODAY, -6),
        to: TODAY,
      }).lines,
    );
    const [chart] = chartsOf(m);
    expect(chart.title).toBe('Pieces missing by unit');
    expect(chart.chart.axis_config.categories).toEqual(units.map(([u]) => u));
    expect(seriesOf(chart)).toEqual({ Missing: units.map(([, n]) => n) });
    for (const [u, n] of units) expect(numbersOf(m)).toContain(`${esc(u)} ${n}`);
  });

  it('more units than 20: the worst 20, and how many more with their pieces', async () => {
    const m = await crowdedBot.ask('short Mercy General Hospital');
    const id = crowded.sandbox.data.customers.find((c) => c.name === 'Mercy General Hospital')!.id;
    const units = byUnit(
      expectedShort(crowded.sandbox.data, { customerId: id, from: addDays(TODAY, -6), to: TODAY }).lines,
    );
    expect(units.length).toBeGreaterThanOrEqual(EXTRA_UNITS);
    const [chart] = chartsOf(m);
    expect(chart.chart.axis_config.categories).toEqual(units.slice(0, 20).map(([u]) => u));
    expect(seriesOf(chart).Missing).toEqual(units.slice(0, 20).map(([, n]) => n));
    const left = units.slice(20);
    expect(numbersOf(m)).toContain(`${left.length} more units not charted (${left.reduce((s, [, n]) => s + n, 0)})`);
    expect(validateMessage(m)).toEqual([]);
  });
});

describe('rewash: the fault split as a pie', () => {
  it("soil fault and processing error in pounds, the answer's own", async () => {
    const m = await bot.ask('rewash Mercy General Hospital 30');
    const r = expectedRewash(h.sandbox.data, {
      customerId: customerId('Mercy General Hospital'),
      from: addDays(TODAY, -30),
      to: addDays(TODAY, -1),
      timeZone: TZ,
    });
    const [chart] = chartsOf(m);
    expect(chart.title).toBe('Rewash by fault');
    expect(chart.chart.segments).toEqual(
      [
        { label: 'Soil fault', value: r.soilFault },
        { label: 'Processing error', value: r.error },
      ].filter((s) => s.value > 0),
    );
    expect(numbersOf(m)).toContain(`Soil fault ${r.soilFault.toFixed(1)} lb`);
    expect(allText(m)).toContain(`(${r.soilFault.toFixed(1)} lb)`);
  });
});

describe('tables of what people scan', () => {
  it('invoices: number, customer, due, days overdue, open amount; most overdue first; lines and PDF buttons kept', async () => {
    const m = await bot.ask('invoices');
    const d = h.sandbox.data;
    const open = d.invoices
      .filter((i) => ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0)
      .map((i) => ({ i, days: i.due_at ? expectedDaysOverdue(i.due_at, TODAY, TZ) : -1 }))
      .sort(
        (a, b) =>
          b.days - a.days ||
          (a.i.due_at ?? '').localeCompare(b.i.due_at ?? '') ||
          a.i.invoice_number.localeCompare(b.i.invoice_number),
      );
    const [header, ...rows] = tableOf(m);
    expect(header).toEqual(['Invoice', 'Customer', 'Due', 'Days overdue', 'Open']);
    expect(rows).toHaveLength(Math.min(20, open.length));
    rows.forEach((row, k) => {
      const { i, days } = open[k]!;
      expect(row[0]).toBe(i.invoice_number);
      expect(row[1]).toBe(d.customers.find((c) => c.id === i.customer_id)!.name);
      expect(row[3]).toBe(days < 0 ? 'no terms' : String(days));
      expect(row[4]).toBe(money(i.balance_cents, i.currency));
    });
    const table = m.blocks.find((b: any) => b.type === 'table');
    expect(table.column_settings.map((c: any) => c.align)).toEqual(['left', 'left', 'left', 'right', 'right']);
    // The rows are written out too, each with its PDF button.
    for (const row of rows) expect(allText(m)).toContain(`*${row[0]}*`);
    expect(m.blocks.filter((b: any) => b.accessory?.action_id?.startsWith('linen_pdf')).length).toBe(rows.length);
  });

  it('tickets: number, customer, status, opened, updated; newest first', async () => {
    const m = await bot.ask('tickets');
    const open = h.sandbox.data.tickets
      .filter((t) => ['new', 'acknowledged', 'in_progress'].includes(t.status))
      .sort((a, b) => b.created_at.localeCompare(a.created_at));
    const [header, ...rows] = tableOf(m);
    expect(header).toEqual(['Ticket', 'Customer', 'Status', 'Opened', 'Updated']);
    expect(rows.map((r) => r[0])).toEqual(open.slice(0, 30).map((t) => t.ticket_number));
    for (const row of rows) expect(row[4]! >= row[3]!).toBe(true);
  });

  it('purchase orders: number, budget left, share spent, expiry', async () => {
    const m = await bot.ask('po');
    const [header, ...rows] = tableOf(m);
    expect(header).toEqual(['PO', 'Customer', 'Budget left', 'Spent', 'Expires']);
    const active = h.sandbox.data.purchase_orders.filter((p) => p.status === 'active');
    expect(rows.map((r) => r[0]).sort()).toEqual(active.map((p) => p.po_number).sort());
    for (const row of rows) {
      const p = active.find((x) => x.po_number === row[0])!;
      expect(row[2]).toBe(money(p.remaining_cents, p.currency));
    }
  });

  it('signals: severity, kind, customer › department, item, summary; a row each signal listed', async () => {
    const m = await bot.ask('signals');
    const [header, ...rows] = tableOf(m);
    expect(header).toEqual(['Severity', 'Kind', 'Customer › department', 'Item', 'Summary']);
    const live = h.sandbox.data.signals.filter((s) => ['open', 'acknowledged'].includes(s.status));
    expect(rows).toHaveLength(live.length);
    expect(rows.map((r) => r[4]).sort()).toEqual(live.map((s) => s.summary).sort());
  });

  it('signals past the table block limits: the first rows within them, and how many more with the command that lists them', async () => {
    const m = await crowdedBot.ask('signals');
    const table = m.blocks.find((b: any) => b.type === 'table');
    const rows = table.rows.slice(1);
    const chars = table.rows.flat().reduce((s: number, c: any) => s + c.text.length, 0);
    expect(chars).toBeLessThanOrEqual(10_000);
    expect(table.rows.length).toBeLessThanOrEqual(100);
    // Every signal the answer lists is a line; those the table has no room for are counted under it.
    const listed = (allText(m).match(/:(red_circle|large_orange_circle|white_circle): \*(High|Medium|Low)\*/g) ?? [])
      .length;
    expect(listed).toBeGreaterThan(rows.length);
    expect(allText(m)).toContain(
      `…and ${listed - rows.length} more signals not in this table: \`/linen signals &lt;kind&gt; &lt;customer&gt;\` lists them.`,
    );
    expect(validateMessage(m)).toEqual([]);
  });
});

describe('every message', () => {
  it('passed the Block Kit validator, charts and tables included', () => {
    expect(h.problems).toEqual([]);
    expect(crowded.problems).toEqual([]);
  });
});
