/**
 * Charts and tables in Teams answers, through the service's real HTTP server and the Bot Framework fakes against the
 * sandbox: each answer's card carries its `Chart.*` element or `Table`, what a chart plots equals the answer's
 * numbers computed here from the sandbox's own rows, its numbers are written under it, and every card passes the
 * Adaptive Card validator. Teams states no limit on a chart's points, so days stay days until their numbers would
 * not fit a paragraph beside the chart (then by week); customers past the nine colours that tell series apart are
 * "Others"; a card over its size leaves out its tables' lines first (the table holds the rows and their buttons),
 * then cuts the rows with the command that lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../chat/content/format.ts';
import { addDays } from '../../shared/dates.ts';
import { CARD_BYTES } from '../../teams-bot/cards/render.ts';
import { validateCard } from '../support/adaptive-card.ts';
import { crowdedData, EXTRA_UNITS } from '../support/chart-variants.ts';
import {
  asPercent,
  expectedAging,
  expectedDays,
  expectedDaysOverdue,
  expectedRewash,
  expectedShort,
} from '../support/expected-figures.ts';
import {
  cardText,
  startTeamsHarness,
  type TeamsBotUnderTest,
  type TeamsHarness,
  TODAY,
  TZ,
} from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;
let crowded: TeamsHarness;
let crowdedBot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start();
  crowded = await startTeamsHarness({ data: await crowdedData({ today: TODAY, timeZone: TZ }) });
  crowdedBot = await crowded.start();
});
afterAll(async () => {
  await h?.close();
  await crowded?.close();
});

type Card = Record<string, any>;
const ask = async (b: TeamsBotUnderTest, text: string): Promise<Card> =>
  (await b.ask(text)).answer.activity!.attachments[0].content;
const chartsOf = (card: Card): any[] => card.body.filter((e: any) => String(e.type).startsWith('Chart.'));
const textOf = (el: any): string =>
  el.type === 'RichTextBlock'
    ? el.inlines.map((r: any) => (typeof r === 'string' ? r : r.text)).join('')
    : (el.items ?? []).map(textOf).filter(Boolean).join('\n');
/** The numbers written under the card's `k`th chart. */
const numbersOf = (card: Card, k = 0): string => {
  const box = card.body.find((e: any) => e.id === `linen_chart_numbers_${k}`);
  return box ? textOf(box) : '';
};
const tableOf = (card: Card): any => card.body.find((e: any) => e.type === 'Table');
const cellsOf = (table: any): string[][] =>
  table.rows.map((row: any) => row.cells.map((c: any) => c.items.map(textOf).join('')));

const customerId = (name: string) => h.sandbox.data.customers.find((c) => c.name === name)!.id;
const mercyRows = (from: string, to: string) =>
  h.sandbox.data.daily_deliveries.filter(
    (r) => r.customer_id === customerId('Mercy General Hospital') && r.date >= from && r.date <= to,
  );

describe('fillrate: fill rate and par met per day as Chart.Line', () => {
  it('30 days stay days on Teams (no limit on points): both rates as the rows give them, as a time series', async () => {
    const card = await ask(bot, 'fillrate Mercy General Hospital 30');
    const days = expectedDays(mercyRows(addDays(TODAY, -30), addDays(TODAY, -1)));
    const [chart] = chartsOf(card);
    expect(chart.type).toBe('Chart.Line');
    expect(chart.title).toBe('Fill rate and par met by day');
    expect(chart.data.map((s: any) => s.legend)).toEqual(['Fill rate', 'Par met']);
    expect(chart.data[0].values).toEqual(days.map((d) => ({ x: d.date, y: asPercent(d.delivered, d.par) })));
    expect(chart.data[1].values).toEqual(days.map((d) => ({ x: d.date, y: asPercent(d.met, d.par) })));
    const numbers = numbersOf(card);
    for (const d of days) expect(numbers).toContain(`${d.date} ${asPercent(d.met, d.par).toFixed(1)}%`);
    expect(validateCard(card)).toEqual([]);
  });

  it('a quarter: the numbers of each day would not fit beside the chart, so by week, and it says so', async () => {
    const card = await ask(bot, 'fillrate Mercy General Hospital 92');
    const [chart] = chartsOf(card);
    expect(chart.title).toBe('Fill rate and par met by week');
    const days = expectedDays(mercyRows(addDays(TODAY, -92), addDays(TODAY, -1)));
    const last = days.filter((d) => d.date >= '2026-11-16');
    const sum = (k: 'delivered' | 'par') => last.reduce((s, d) => s + d[k], 0);
    expect(chart.data[0].values.at(-1)).toEqual({ x: '11-16–11-19', y: asPercent(sum('delivered'), sum('par')) });
    expect(numbersOf(card)).toContain(`the numbers of ${days.length} days would not fit beside the chart`);
  });

  it('the worst items as a Table, numbers right-aligned', async () => {
    const card = await ask(bot, 'fillrate Mercy General Hospital 14');
    const table = tableOf(card);
    const [header, ...rows] = cellsOf(table);
    expect(header).toEqual(['Item', 'Par met', 'Fill rate', 'Short days', 'Delivered', 'Par']);
    expect(rows.length).toBeGreaterThan(0);
    expect(table.columns.map((c: any) => c.horizontalCellContentAlignment)).toEqual([
      'Left',
      'Right',
      'Right',
      'Right',
      'Right',
      'Right',
    ]);
    // The lines are there too: the card has room for them.
    expect(cardText({ attachments: [{ content: card }] })).toContain('Worst items first (par met · fill rate)');
  });
});

describe('balance: aging by customer as Chart.VerticalBar.Grouped', () => {
  it('one series a customer, in dollars, its own colour each', async () => {
    const card = await ask(bot, 'balance');
    const aging = expectedAging(h.sandbox.data, TODAY, TZ);
    const chart = chartsOf(card).find((c) => c.title === 'Aging by customer (USD)');
    expect(chart.type).toBe('Chart.VerticalBar.Grouped');
    for (const s of chart.data) {
      const c = h.sandbox.data.customers.find((x) => x.name === s.legend)!;
      const a = aging.get(c.id)!;
      expect(s.values).toEqual([
        { x: 'Current', y: a.current / 100 },
        { x: '1–30 days', y: a.d1_30 / 100 },
        { x: '31–60 days', y: a.d31_60 / 100 },
        { x: '61+ days', y: a.d61_plus / 100 },
      ]);
    }
    expect(new Set(chart.data.map((s: any) => s.color)).size).toBe(chart.data.length);
  });

  it('more customers than nine colours: the eight largest and "Others", the sum of the rest', async () => {
    const card = await ask(crowdedBot, 'balance');
    const aging = expectedAging(crowded.sandbox.data, TODAY, TZ);
    const usd = crowded.sandbox.data.customers
      .filter((c) => c.name !== 'Lakeshore Rehabilitation Centre')
      .map((c) => aging.get(c.id)!)
      .map((a) => ({ name: a.name, buckets: [a.current, a.d1_30, a.d31_60, a.d61_plus] }))
      .sort((x, y) => y.buckets.reduce((s, v) => s + v, 0) - x.buckets.reduce((s, v) => s + v, 0));
    const chart = chartsOf(card).find((c) => c.title === 'Aging by customer (USD)');
    expect(chart.data.map((s: any) => s.legend)).toEqual([...usd.slice(0, 8).map((x) => x.name), 'Others']);
    const rest = usd.slice(8);
    expect(chart.data[8].values.map((v: any) => v.y)).toEqual(
      [0, 1, 2, 3].map((k) => rest.reduce((s, x) => s + x.buckets[k]!, 0) / 100),
    );
    const usdChart = chartsOf(card).indexOf(chart);
    expect(numbersOf(card, usdChart)).toContain(`${rest.length} more customers summed as Others`);
  });
});

describe('short: pieces missing by unit as Chart.HorizontalBar', () => {
  it('every unit, worst first: Teams has no limit on bars', async () => {
    const card = await ask(crowdedBot, 'short Mercy General Hospital');
    const id = crowded.sandbox.data.customers.find((c) => c.name === 'Mercy General Hospital')!.id;
    const units = new Map<string, number>();
    for (const l of expectedShort(crowded.sandbox.data, { customerId: id, from: addDays(TODAY, -6), to: TODAY }).lines)
      units.set(l.unit ?? 'No unit', (units.get(l.unit ?? 'No unit') ?? 0) + l.missing);
    const worst = [...units].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
    expect(worst.length).toBeGreaterThan(EXTRA_UNITS);
    const [chart] = chartsOf(card);
    expect(chart.type).toBe('Chart.HorizontalBar');
    expect(chart.data).toEqual(worst.map(([x, y]) => ({ x, y })));
    expect(numbersOf(card)).toContain(`${worst[0]![0]} ${worst[0]![1]}`);
  });
});

describe('rewash: the fault split as Chart.Donut', () => {
  it("soil fault and processing error in pounds, the answer's own", async () => {
    const card = await ask(bot, 'rewash Mercy General Hospital 30');
    const r = expectedRewash(h.sandbox.data, {
      customerId: customerId('Mercy General Hospital'),
      from: addDays(TODAY, -30),
      to: addDays(TODAY, -1),
      timeZone: TZ,
    });
    const [chart] = chartsOf(card);
    expect(chart.type).toBe('Chart.Donut');
    expect(chart.data.map((d: any) => [d.legend, d.value])).toEqual(
      [
        ['Soil fault', r.soilFault],
        ['Processing error', r.error],
      ].filter(([, v]) => (v as number) > 0),
    );
    expect(numbersOf(card)).toContain(`Soil fault ${r.soilFault.toFixed(1)} lb`);
  });
});

describe('tables on Teams', () => {
  it("invoices: the Table with each row's PDF button, then the invoices written out without a second button", async () => {
    const card = await ask(bot, 'invoices');
    const d = h.sandbox.data;
    const open = d.invoices
      .filter((i) => ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0)
      .map((i) => ({ i, days: i.due_at ? expectedDaysOverdue(i.due_at, TODAY, TZ) : -1 }))
      .sort(
        (a, b) =>
          b.days - a.days ||
          (a.i.due_at ?? '').localeCompare(b.i.due_at ?? '') ||
          a.i.invoice_number.localeCompare(b.i.invoice_number),
      )
      .slice(0, 20);
    const table = tableOf(card);
    const [header, ...rows] = cellsOf(table);
    expect(header).toEqual(['Invoice', 'Customer', 'Due', 'Days overdue', 'Open', ' ']);
    expect(rows.map((r) => [r[0], r[3], r[4]])).toEqual(
      open.map(({ i, days }) => [
        i.invoice_number,
        days < 0 ? 'no terms' : String(days),
        money(i.balance_cents, i.currency),
      ]),
    );
    const pdfs = table.rows.slice(1).map((row: any) => row.cells.at(-1).items[0].actions[0]);
    expect(pdfs.map((a: any) => [a.verb, a.data.invoice.n])).toEqual(
      open.map(({ i }) => ['linen_pdf', i.invoice_number]),
    );
    // Each invoice is written out too (its department, status, total and issue day), the button left to the table.
    const text = cardText({ attachments: [{ content: card }] });
    for (const { i } of open) expect(text).toMatch(new RegExp(`^${i.invoice_number} · `, 'm'));
    expect(text).toContain('all departments');
    expect(JSON.stringify(card).match(/"verb":"linen_pdf"/g)).toHaveLength(open.length);
    expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(CARD_BYTES);
    expect(validateCard(card)).toEqual([]);
  });

  it('tickets, purchase orders and signals: the table, and the lines where the card has room', async () => {
    for (const [command, header] of [
      ['tickets', ['Ticket', 'Customer', 'Status', 'Opened', 'Updated']],
      ['po', ['PO', 'Customer', 'Budget left', 'Spent', 'Expires']],
      ['signals', ['Severity', 'Kind', 'Customer › department', 'Item', 'Summary']],
    ] as const) {
      const card = await ask(bot, command);
      const [head, ...rows] = cellsOf(tableOf(card));
      expect(head, command).toEqual(header);
      expect(rows.length, command).toBeGreaterThan(0);
      // Each row is also a line of the card (its first cell is in one).
      const text = cardText({ attachments: [{ content: card }] });
      for (const row of rows)
        expect(text.split('\n').filter((l) => l.includes(row[command === 'signals' ? 4 : 0]!)).length).toBeGreaterThan(
          1,
        );
    }
  });

  it('signals past what a card holds: the lines left out, then the rows cut, with the command that lists them', async () => {
    const card = await ask(crowdedBot, 'signals');
    const table = tableOf(card);
    const rows = table.rows.length - 1;
    const text = cardText({ attachments: [{ content: card }] });
    const more = /…and (\d+) more signals not in this table: signals <kind> <customer> lists them\./.exec(text);
    expect(more).not.toBeNull();
    expect(rows + Number(more![1])).toBeGreaterThan(100);
    expect(Buffer.byteLength(JSON.stringify(card))).toBeLessThanOrEqual(CARD_BYTES);
    expect(validateCard(card)).toEqual([]);
  });
});

describe('every card posted', () => {
  it('passed the Adaptive Card validator, charts and tables included', () => {
    expect(h.problems).toEqual([]);
    expect(crowded.problems).toEqual([]);
  });
});
