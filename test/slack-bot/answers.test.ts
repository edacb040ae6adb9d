/**
 * The answers a linen manager asks for at 7 a.m., over the bot's real HTTP receiver (signed commands, answers at
 * the response_url), against the sandbox: expected figures are computed here from the sandbox's own rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../chat/content/format.ts';
import { addDays } from '../../shared/dates.ts';
import {
  expectedDaysOverdue,
  expectedLocations,
  expectedRewash,
  expectedShort,
  localDay,
} from '../support/expected-figures.ts';
import { type Variant, variantData } from '../support/seeded-variants.ts';
import {
  allText,
  type BotUnderTest,
  buttons,
  type Harness,
  startHarness,
  TODAY,
  TZ,
} from '../support/slack-harness.ts';

/** API text as the bot escapes it for mrkdwn. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  bot = await h.startBotWith({});
});
afterAll(async () => {
  await h?.close();
});

const customer = (name: string) => h.sandbox.data.customers.find((c) => c.name === name)!;
const requestsFor = async (text: string, path: string) => {
  const before = bot.paths.length;
  const m = await bot.ask(text);
  return { m, count: bot.paths.slice(before).filter((p) => p === path).length };
};

describe('fixed answers', () => {
  it("balance: each line is the API's own row; a group that owes nothing shows its locations, labelled as theirs", async () => {
    const d = h.sandbox.data;
    const group = d.customers.find((c) => c.is_group)!;
    const locations = expectedLocations(d, group.id);
    const open = d.invoices.filter((i) => ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0);
    const owed = (ids: string[]) =>
      open.filter((i) => ids.includes(i.customer_id)).reduce((s, i) => s + i.balance_cents, 0);
    const all = allText(await bot.ask('balance'));
    expect(all).toContain(`*${group.name}*: *${money(owed([group.id]), 'usd')}* open, 0 open invoices`);
    const usd = open.filter((i) => i.currency === 'usd').reduce((s, i) => s + i.balance_cents, 0);
    expect(all).toContain(`*Total USD: ${money(usd, 'usd')}*`);
    expect(all).not.toContain('billed per location');
    const asked = allText(await bot.ask(`balance ${group.name}`));
    expect(asked).toContain(
      `*${group.name}* is a group with no open balance of its own. Shown with it: its locations visible to this key (found by name), each with its own balance: ${locations.map((l) => l.name).join(', ')}.`,
    );
    for (const l of locations)
      expect(asked).toContain(`*${l.name}* (a location of ${group.name}): *${money(owed([l.id]), 'usd')}* open`);
    expect(asked).toContain(`*${group.name}*: *$0.00* open, 0 open invoices`);
    // The total is the sum of the lines shown: the group's own $0.00 and its locations'.
    expect(asked).toContain(
      `*Total USD: ${money(owed(locations.map((l) => l.id)), 'usd')}* across ${locations.length + 1} customers`,
    );
  });

  it('balance of a named customer: the customer list read once, then the balance and its open invoices', async () => {
    const fresh = await h.startBotWith({});
    const before = fresh.paths.length;
    const m = await fresh.ask('balance Mercy General Hospital');
    expect(m.text).toContain('Open balance for Mercy General Hospital');
    expect(fresh.paths.slice(before).sort()).toEqual(
      ['/v1/balance', '/v1/customers', '/v1/invoices', '/v1/invoices'].sort(),
    );
  });

  it("a group is asked for itself: its own tickets; its locations' invoices only when it has none, labelled; a place's answers name them", async () => {
    const d = h.sandbox.data;
    const group = d.customers.find((c) => c.is_group)!;
    const locations = expectedLocations(d, group.id);
    const ids = locations.map((l) => l.id);
    const open = d.invoices.filter(
      (i) => ids.includes(i.customer_id) && ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0,
    );
    expect(d.invoices.some((i) => i.customer_id === group.id)).toBe(false);
    const inv = allText(await bot.ask(`invoices ${group.name}`));
    expect(inv).toContain(
      `${group.name} is a group with no open invoices of its own; its locations visible to this key (found by name): ${locations.map((l) => l.name).join(', ')}.`,
    );
    expect(inv).toContain(`Open invoices: ${open.length}.`);
    for (const i of open)
      expect(inv).toContain(`*${i.invoice_number}* · ${esc(d.customers.find((c) => c.id === i.customer_id)!.name)}`);
    // The group has tickets of its own: those are its answer, and nothing of its locations is added.
    const own = d.tickets.filter(
      (t) => t.customer_id === group.id && ['new', 'acknowledged', 'in_progress'].includes(t.status),
    );
    expect(own.length).toBeGreaterThan(0);
    const tickets = allText(await bot.ask(`tickets ${group.name}`));
    expect(tickets).toContain(`${own.length} ticket`);
    for (const t of own) expect(tickets).toContain(`*${t.ticket_number}*`);
    const theirs = d.tickets.filter((t) => ids.includes(t.customer_id));
    for (const t of theirs) expect(tickets).not.toContain(`*${t.ticket_number}*`);
    expect(tickets).not.toContain('of its own');
    const names = locations.map((l) => l.name).join(', ');
    const day = String.raw`\d{4}-\d\d-\d\d`;
    expect(allText(await bot.ask(`fillrate ${group.name}`))).toMatch(
      new RegExp(
        `${group.name} is a group and has no deliveries of its own from ${day} to ${day}; ask for one of its locations \\(found by name\\): ${names}\\.`,
      ),
    );
    expect(allText(await bot.ask(`rewash ${group.name}`))).toMatch(
      new RegExp(
        `${group.name} is a group and has no manifests or rewash of its own from ${day} to ${day}; ask for one of its locations \\(found by name\\): ${names}\\.`,
      ),
    );
    expect(allText(await bot.ask(`short "${group.name}"`))).toContain(
      `${group.name} is a group and has no cart counts of its own from ${addDays(TODAY, -6)} to ${TODAY}; ask for one of its locations (found by name): ${names}.`,
    );
  });

  it('signals <unknown kind>: says so and lists the kinds, including those the API reports', async () => {
    const t = allText(await bot.ask('signals bogus_kind'));
    expect(t).toContain(
      '"bogus_kind" is not a signal kind; the kinds are shortfall (shortfall_streak and circulation_breach)',
    );
    expect(t).toContain('par_drift');
    expect(buttons(await bot.ask('signals bogus_kind')).some((b) => b.actionId === 'linen_share')).toBe(false);
  });

  it('signals <kind the product does not know>: passes through when the API reports it', async () => {
    const drift = h.sandbox.data.signals.filter(
      (s) => s.kind === 'par_drift' && (s.status === 'open' || s.status === 'acknowledged'),
    );
    expect(drift.length).toBeGreaterThan(0);
    const t = allText(await bot.ask('signals par_drift'));
    for (const s of drift) expect(t).toContain(esc(s.summary));
  });

  it('signals shortfall: the shortfall kinds, not a customer named "shortfall"', async () => {
    const want = h.sandbox.data.signals.filter(
      (s) => ['shortfall_streak', 'circulation_breach'].includes(s.kind) && ['open', 'acknowledged'].includes(s.status),
    );
    const m = await bot.ask('signals shortfall');
    expect(m.blocks[0].text.text).toBe('Inventory signals: Shortfall');
    expect(allText(m)).toContain(`${want.length} signals (${want.length} shortfalls)`);
  });

  it("tickets <customer> [status]: that customer's tickets only, in one listing", async () => {
    const d = h.sandbox.data;
    const c = customer('Mercy General Hospital');
    const resolved = d.tickets.filter((t) => t.customer_id === c.id && t.status === 'resolved');
    const { m, count } = await requestsFor('tickets Mercy General Hospital resolved', '/v1/quality-tickets');
    expect(count).toBe(1);
    expect(m.blocks[0].text.text).toBe('Resolved tickets: Mercy General Hospital');
    const t = allText(m);
    expect(t).toContain(`${resolved.length} ticket`);
    for (const x of resolved.slice(0, 30)) expect(t).toContain(x.ticket_number);
    for (const x of d.tickets.filter((y) => y.customer_id !== c.id).slice(0, 20))
      expect(t).not.toContain(x.ticket_number);
  });

  it("tickets across customers name each ticket's customer, at one listing per customer", async () => {
    const d = h.sandbox.data;
    const open = d.tickets.filter((t) => ['new', 'acknowledged', 'in_progress'].includes(t.status));
    const { m, count } = await requestsFor('tickets', '/v1/quality-tickets');
    expect(count).toBe(d.customers.length);
    const t = allText(m);
    for (const x of open) {
      const name = d.customers.find((c) => c.id === x.customer_id)!.name;
      expect(t).toContain(`*${x.ticket_number}* · ${esc(name)} ·`);
    }
  });
});

describe('new answers', () => {
  it('short: what is missing now by unit and item, worst first', async () => {
    const want = expectedShort(h.sandbox.data, { from: addDays(TODAY, -6), to: TODAY });
    const m = await bot.ask('short');
    const t = allText(m);
    expect(t).toContain(`*${want.missing.toLocaleString('en-US')}* pieces missing`);
    const lines = m.blocks.filter((b: any) => b.type === 'section').flatMap((b: any) => b.text.text.split('\n'));
    expect(lines[0]).toMatch(new RegExp(`^\\*${want.lines[0]!.missing}\\* ${want.lines[0]!.item} at `));
    expect(buttons(m).at(-1)?.value).toBe('short');
  });

  it("short <customer> <department>, unquoted: the department's units", async () => {
    const d = h.sandbox.data;
    const c = customer('Mercy General Hospital');
    const icuNorth = d.units.filter((u) => u.customer_id === c.id && u.name === 'ICU North').map((u) => u.id);
    const want = expectedShort(d, { customerId: c.id, from: addDays(TODAY, -6), to: TODAY, unitIds: icuNorth });
    const m = await bot.ask('short Mercy General Hospital ICU');
    expect(m.blocks[0].text.text).toBe('Short today: Mercy General Hospital › ICU');
    expect(allText(m)).toContain(`*${want.missing}* pieces missing`);
    expect(allText(await bot.ask('short "Mercy General Hospital" Laundry Chute'))).toContain(
      'Mercy General Hospital has no department or unit "Laundry Chute"',
    );
  });

  it('rewash <customer> <days>: the rate of soil pounds, split by fault', async () => {
    const c = customer('Mercy General Hospital');
    const from = addDays(TODAY, -90);
    const to = addDays(TODAY, -1);
    const want = expectedRewash(h.sandbox.data, { customerId: c.id, from, to, timeZone: TZ });
    const t = allText(await bot.ask('rewash Mercy General Hospital 90'));
    expect(t).toContain(`*Rewash rate*\n${(want.rate * 100).toFixed(2)}%`);
    expect(t).toContain(`*Processing error (laundry: basis of a credit)*\n${(want.errorRate * 100).toFixed(2)}%`);
    expect(t).toContain(`${from} → ${to} (90 days)`);
  });

  it('manifest <number>: who signed and when, bins with net weights, held rewash and rewash links', async () => {
    const m = h.sandbox.data.manifests.find(
      (x) => x.delivered_at && x.held_rewash && x.rewash_links.rewash_children.length,
    )!;
    const t = allText(await bot.ask(`manifest ${m.manifest_number}`));
    expect(t).toContain(`*Signed by*\n${esc(m.signature.signed_by_name!)}`);
    expect(t).toContain(`*Bins* (${m.bins.length})`);
    for (const b of m.bins) expect(t).toContain(`bin ${b.bin_ticket_number}: *${b.net_lb.toFixed(1)} lb net*`);
    expect(t).toContain(`*Held rewash*\n${m.held_rewash!.held_weight_lb!.toFixed(1)} lb`);
    expect(t).toContain(`Rewashed in *${m.rewash_links.rewash_children[0]!.manifest_number}*`);
    expect(allText(await bot.ask('manifest MAN-19-000001'))).toContain('No manifest MAN-19-000001 is visible');
    expect(allText(await bot.ask('manifest 12'))).toContain('"12" is not a manifest number like MAN-26-027570.');
  });

  it('order <number>: lines, their charges, order charges and the total', async () => {
    const o = h.sandbox.data.orders.find((x) => x.lines.some((l) => l.charges.length) && x.charges.length)!;
    const t = allText(await bot.ask(`order ${o.order_number}`));
    for (const l of o.lines)
      expect(t).toContain(`line total${l.charges.length ? ' with charges' : ''} *${money(l.subtotal_cents, 'usd')}*`);
    for (const ch of [...o.charges, ...o.lines.flatMap((l) => l.charges)]) expect(t).toContain(esc(ch.description));
    expect(t).toContain(`*Total ${money(o.total_cents, 'usd')}*`);
  });

  it('po: active purchase orders with what is left, percent spent and days to expiry', async () => {
    const active = h.sandbox.data.purchase_orders.filter((p) => p.status === 'active');
    const t = allText(await bot.ask('po'));
    for (const p of active) {
      const days = Math.round(
        (Date.parse(`${localDay(p.expires_at, TZ)}T12:00:00Z`) - Date.parse(`${TODAY}T12:00:00Z`)) / 86_400_000,
      );
      expect(t).toContain(
        `*${money(p.remaining_cents, p.currency)} left* of ${money(p.total_cents, p.currency)} (${Math.round((p.spent_cents / p.total_cents) * 100)}% spent) · expires in ${days} days`,
      );
    }
  });

  it('invoices overdue: each with its department and days overdue, most overdue first', async () => {
    const d = h.sandbox.data;
    const overdue = d.invoices
      .filter((i) => ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0 && i.due_at)
      .map((i) => ({ i, days: expectedDaysOverdue(i.due_at!, TODAY, TZ) }))
      .filter((x) => x.days > 0)
      .sort((a, b) => b.days - a.days);
    const m = await bot.ask('invoices overdue');
    const t = allText(m);
    expect(overdue.length).toBeGreaterThan(0);
    for (const { i, days } of overdue.slice(0, 20)) {
      const line = t.split('\n').find((l) => l.startsWith(`*${i.invoice_number}*`));
      expect(line).toContain(`*${days} day${days === 1 ? '' : 's'} overdue*`);
      const dept = i.department_id ? d.departments.find((x) => x.id === i.department_id)!.name : 'all departments';
      expect(line).toContain(esc(dept));
    }
    const first = m.blocks.find((b: any) => b.accessory?.text?.text === 'PDF');
    expect(first.text.text).toContain(`*${overdue[0]!.i.invoice_number}*`);
    expect(first.text.text).toContain(`*${overdue[0]!.days} days overdue*`);
    const open = d.invoices.filter((i) => ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0);
    const all = allText(await bot.ask('invoices'));
    expect(all).toContain(`Open invoices: ${open.length}.`);
    // Invoices of a department name it.
    const byDept = open.find((i) => i.department_id)!;
    const line = all.split('\n').find((l) => l.startsWith(`*${byDept.invoice_number}*`));
    expect(line).toContain(esc(d.departments.find((x) => x.id === byDept.department_id)!.name));
  });
});

describe('answers over data the seed does not have', () => {
  let v: Variant;
  let vh: Harness;
  let vbot: BotUnderTest;
  beforeAll(async () => {
    v = await variantData({ today: TODAY, timeZone: TZ });
    vh = await startHarness({ data: v.data });
    vbot = await vh.startBotWith({});
  });
  afterAll(async () => {
    await vh?.close();
  });

  it('manifest <number two plants share>: lists both', async () => {
    const t = allText(await vbot.ask(`manifest ${v.shared.number}`));
    expect(t).toContain(`${v.shared.number} matches 2 manifests`);
    for (const id of v.shared.ids) {
      const m = v.data.manifests.find((x) => x.id === id)!;
      const name = v.data.customers.find((c) => c.id === m.customer_id)!.name;
      expect(t).toContain(`*${v.shared.number}* · ${esc(name)}`);
    }
  });

  it('rewash: a hidden fault split is said to be hidden', async () => {
    const t = allText(await vbot.ask('rewash Mercy General Hospital'));
    expect(t).toContain('hides the split between soil fault and processing error');
    expect(t).toContain('*Processing error (laundry: basis of a credit)*\nhidden');
  });
});
