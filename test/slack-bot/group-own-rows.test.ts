/**
 * A group customer with invoices, deliveries and cart counts of its own (another reading of the specification,
 * which says only that a group rolls up child locations): every answer about it is the API's answer for it, its
 * totals the sum of its lines, and nothing of its locations is added.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money, pct } from '../../chat/content/format.ts';
import { addDays } from '../../shared/dates.ts';
import { expectedFill, expectedShort } from '../support/expected-figures.ts';
import { type GroupVariant, groupWithOwnRows } from '../support/seeded-variants.ts';
import { allText, type BotUnderTest, type Harness, startHarness, TODAY, TZ } from '../support/slack-harness.ts';

let v: GroupVariant;
let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  v = await groupWithOwnRows({ today: TODAY, timeZone: TZ });
  h = await startHarness({ data: v.data });
  bot = await h.startBotWith({});
});
afterAll(async () => {
  await h?.close();
});

const group = () => v.data.customers.find((c) => c.id === v.groupId)!;
const openOf = (customerId: string) =>
  v.data.invoices.filter(
    (i) => i.customer_id === customerId && ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0,
  );
const owed = (customerId: string) => openOf(customerId).reduce((s, i) => s + i.balance_cents, 0);

describe('a group with rows of its own', () => {
  it('balance: the group line is its own API row, and the total is the sum of the lines', async () => {
    const g = group();
    expect(owed(g.id)).toBeGreaterThan(0);
    const asked = allText(await bot.ask(`balance ${g.name}`));
    expect(asked).toContain(`*${g.name}*: *${money(owed(g.id), 'usd')}* open, ${openOf(g.id).length} open invoices`);
    expect(asked).not.toContain('of its own');
    expect(asked).not.toContain('a location of');
    for (const i of openOf(g.id)) expect(asked).toContain(`*${i.invoice_number}*`);
    for (const i of openOf(v.locationId)) expect(asked).not.toContain(`*${i.invoice_number}*`);

    const all = allText(await bot.ask('balance'));
    expect(all).toContain(`*${g.name}*: *${money(owed(g.id), 'usd')}* open`);
    const usd = v.data.invoices
      .filter((i) => i.currency === 'usd' && ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0)
      .reduce((s, i) => s + i.balance_cents, 0);
    expect(all).toContain(`*Total USD: ${money(usd, 'usd')}*`);
  });

  it("invoices: the group's own, with nothing of its locations", async () => {
    const g = group();
    const text = allText(await bot.ask(`invoices ${g.name}`));
    expect(text).toContain(`Open invoices: ${openOf(g.id).length}.`);
    expect(text).not.toContain('of its own');
    for (const i of openOf(v.locationId)) expect(text).not.toContain(`*${i.invoice_number}*`);
  });

  it('fill rate: the figures of the deliveries the API has for the group', async () => {
    const g = group();
    const to = addDays(TODAY, -1);
    const from = addDays(TODAY, -7);
    const rows = v.data.daily_deliveries.filter((r) => r.customer_id === g.id && r.date >= from && r.date <= to);
    expect(rows.length).toBeGreaterThan(0);
    const m = await bot.ask(`fillrate "${g.name}" 7`);
    expect(m.text).toContain(`Fill rate for ${g.name}: ${pct(expectedFill(rows).fill, 1)}`);
    expect(allText(m)).not.toContain('is a group');
  });

  it("short today: the group's own carts", async () => {
    const g = group();
    const want = expectedShort(v.data, { customerId: g.id, from: addDays(TODAY, -6), to: TODAY });
    expect(want.carts).toBeGreaterThan(0);
    const text = allText(await bot.ask(`short "${g.name}"`));
    expect(text).not.toContain('is a group');
    if (want.missing > 0) expect(text).toContain(want.lines[0]!.item);
  });
});
