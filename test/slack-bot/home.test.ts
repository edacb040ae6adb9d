/**
 * Linen's Home tab on Slack, over the bot's real HTTP receiver against the sandbox and the fake Slack: an
 * `app_home_opened` event publishes the person's home (`views.publish`, every view checked by the Block Kit validator
 * with a Home tab's 100 blocks), its menus choose what they follow (kept), Refresh rebuilds it, its buttons pause and
 * remove their digests and alerts with the commands' own rules; ten homes opened at once cost the requests of one; a
 * key without accounting shows no invoice; a slow API shows "Building…" first, never a blank tab; an error is one
 * sentence on it. Figures are checked against an independent reading of the sandbox's rows.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count } from '../../chat/content/format.ts';
import { addDays } from '../../shared/dates.ts';
import { expectedFill, expectedShort } from '../support/expected-figures.ts';
import { gatedApis } from '../support/gated-api.ts';
import { KEYS } from '../support/sandbox-http.ts';
import {
  allText,
  BOT_TOKEN,
  type BotUnderTest,
  buttons,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  TODAY,
} from '../support/slack-harness.ts';
import { postEvent } from '../support/slack-install.ts';

let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  h.slack.channels.set('C0LINEN', { name: 'linen-ops', member: true });
  bot = await h.startBotWith({});
});
afterEach(() => {
  h.sandbox.changes.reset();
  h.sandbox.faults.reset();
});
afterAll(() => h?.close());

type View = Record<string, any>;

const textOf = (view: View) => allText({ text: '', blocks: view.blocks });
/** What the home says, without the options of its menus. */
const saysOf = (view: View) =>
  allText({ text: '', blocks: view.blocks.map(({ accessory: _menu, ...block }: Record<string, unknown>) => block) });
const isHome = (view: View) => textOf(view).includes('Your Linen home');
const customer = (name: string) => h.sandbox.data.customers.find((c) => c.name === name)!;

/** Opens the person's Home tab; the home published for it (its first publication after the event, when `first`). */
async function openHome(userId: string, b: BotUnderTest = bot): Promise<View> {
  const since = h.slack.published.length;
  expect(await b.openHome(userId)).toBe(200);
  return (await h.slack.waitForPublish(userId, isHome, 20_000, since)).view;
}

/** A click on the Home tab as published; the home published after it. */
async function clickHome(userId: string, view: View, action: Parameters<BotUnderTest['clickHome']>[0]['action']) {
  const since = h.slack.published.length;
  expect(await bot.clickHome({ view, userId, action })).toBe(200);
  return (await h.slack.waitForPublish(userId, isHome, 20_000, since)).view;
}

/** The follow menu of a home: the menu asking `command` with the values chosen. */
function menu(view: View, command: string) {
  const block = view.blocks.find((b: any) => b.accessory?.action_id === `linen_menu:${command}`);
  expect(block, `a menu asking ${command}`).toBeDefined();
  return block.accessory as {
    action_id: string;
    options: { value: string; text: { text: string } }[];
    initial_options?: { value: string }[];
  };
}

const button = (view: View, text: string, near?: string) => {
  const all = buttons({ blocks: view.blocks });
  const found = near ? all.find((x) => x.text === text && x.value.includes(near)) : all.find((x) => x.text === text);
  expect(found, `a ${text} button${near ? ` for ${near}` : ''}`).toBeDefined();
  return found!;
};

describe('opening the Home tab', () => {
  it("publishes the person's home for them, with the workspace's token, valid within a Home tab's limits", async () => {
    const view = await openHome('U0HOME01');
    const published = h.slack.published.filter((p) => p.userId === 'U0HOME01');
    expect(published.at(-1)!.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    expect(view.type).toBe('home');
    expect(view.callback_id).toBe('linen_home');
    expect(JSON.parse(view.private_metadata)).toEqual({ channel: 'D0U0HOME01' });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    expect(h.problems).toEqual([]);

    const text = textOf(view);
    const d = h.sandbox.data;
    // Short today: the latest counts of the last seven days (today included), every customer.
    const short = expectedShort(d, { from: addDays(TODAY, -6), to: TODAY });
    expect(text).toContain(`*${count(short.missing)}* pieces missing`);
    // Yesterday's par met over every customer's rows with a par.
    const yesterday = addDays(TODAY, -1);
    const fill = expectedFill(d.daily_deliveries.filter((r) => r.date === yesterday));
    expect(text).toContain(`*Par met yesterday* (${yesterday}): *${((fill.met / fill.par) * 100).toFixed(1)}%*`);
    // The last seven days as a chart, a line a customer.
    const chart = view.blocks.find((b: any) => b.type === 'data_visualization' && b.chart.type === 'line');
    expect(chart.chart.axis_config.categories.at(-1)).toBe(yesterday);
    expect(text).toMatch(/\*Shortfall signals\* \(\d+ open or acknowledged\)/);
    // One key for the workspace, accounting answers anywhere: the overdue invoices and the orders running out.
    expect(text).toContain('*Overdue invoices*');
    expect(text).toContain('Purchase orders running out');
    expect(text).toContain('following every customer');
    expect(button(view, 'Refresh').value).toBe('home');
  });

  it('publishes nothing when the Messages tab is opened', async () => {
    const before = h.slack.published.length;
    const calls = h.slack.calls.length;
    expect(
      await postEvent(bot.url, SIGNING_SECRET, 'T0LINEN', {
        type: 'app_home_opened',
        user: 'U0HOME09',
        channel: 'D0U0HOME09',
        tab: 'messages',
      }),
    ).toBe(200);
    // The next event is answered: the messages one was read and let go.
    await openHome('U0HOME09');
    expect(h.slack.published.slice(before).filter((p) => p.userId === 'U0HOME09')).toHaveLength(1);
    expect(h.slack.calls.slice(calls).filter((c) => c.method === 'views.publish')).toHaveLength(1);
  });
});

describe('what the person follows', () => {
  it('a customer chosen in the menu narrows the home to it, and is kept for the next opening', async () => {
    const mgh = customer('Mercy General Hospital');
    const first = await openHome('U0HOME02');
    expect(menu(first, 'home follow').options.map((o) => o.text.text)).toContain('Mercy General Hospital');
    const followed = await clickHome('U0HOME02', first, {
      actionId: 'linen_menu:home follow',
      type: 'multi_static_select',
      values: [mgh.id],
    });
    const text = saysOf(followed);
    expect(text).toContain('Following Mercy General Hospital.');
    expect(text).toContain('following Mercy General Hospital');
    expect(menu(followed, 'home follow').initial_options).toEqual([expect.objectContaining({ value: mgh.id })]);
    const short = expectedShort(h.sandbox.data, { customerId: mgh.id, from: addDays(TODAY, -6), to: TODAY });
    expect(text).toContain(`*${count(short.missing)}* pieces missing`);
    // No other customer's records.
    expect(text).not.toContain('St. Luke');
    expect(text).not.toContain('Harborview');

    // Kept: the next opening shows the same.
    const again = await openHome('U0HOME02');
    expect(textOf(again)).toContain('following Mercy General Hospital');
    // Someone else still follows every customer.
    expect(textOf(await openHome('U0HOME03'))).toContain('following every customer');
    expect(h.problems).toEqual([]);
  });

  it('a unit chosen among the followed customer’s narrows its short list to that unit', async () => {
    const mgh = customer('Mercy General Hospital');
    const first = await openHome('U0HOME04');
    const followed = await clickHome('U0HOME04', first, {
      actionId: 'linen_menu:home follow',
      type: 'multi_static_select',
      values: [mgh.id],
    });
    const places = menu(followed, 'home places');
    const unit = h.sandbox.data.units.find((u) => u.customer_id === mgh.id && u.is_active)!;
    const option = places.options.find((o) => o.value === `u:${unit.id}`)!;
    expect(option.text.text).toBe(`Mercy General Hospital › ${unit.name} (unit)`);
    const narrowed = await clickHome('U0HOME04', followed, {
      actionId: 'linen_menu:home places',
      type: 'multi_static_select',
      values: [option.value],
    });
    const short = expectedShort(h.sandbox.data, {
      customerId: mgh.id,
      from: addDays(TODAY, -6),
      to: TODAY,
      unitIds: [unit.id],
    });
    const text = textOf(narrowed);
    expect(text).toContain('Showing only one department or unit of the customers you follow.');
    expect(text).toContain(short.missing ? `*${count(short.missing)}* pieces missing` : 'nothing missing');
    expect(menu(narrowed, 'home places').initial_options).toEqual([expect.objectContaining({ value: option.value })]);
  });

  it('a name no customer has changes nothing and says so', async () => {
    const view = await openHome('U0HOME05');
    const after = await clickHome('U0HOME05', view, {
      actionId: 'linen_menu:home follow',
      type: 'multi_static_select',
      values: ['Nobody Such'],
    });
    expect(textOf(after)).toContain('No customer “Nobody Such” is visible to this key.');
    expect(textOf(after)).toContain('following every customer');
  });
});

describe('Refresh', () => {
  it('rebuilds the home with what the API says now', async () => {
    const view = await openHome('U0HOME06');
    expect(textOf(view)).not.toContain('Gowns under par for nine days');
    h.sandbox.changes.addSignal({
      kind: 'shortfall_streak',
      severity: 'high',
      customer_id: customer('Mercy General Hospital').id,
      summary: 'Gowns under par for nine days',
    });
    const refreshed = await clickHome('U0HOME06', view, {
      actionId: button(view, 'Refresh').actionId,
      type: 'button',
      value: 'home',
    });
    expect(textOf(refreshed)).toContain('Gowns under par for nine days');
  });
});

describe('their digests and alerts', () => {
  it('lists what the person set up, and pauses and removes it from the home', async () => {
    const user = 'U0HOME07';
    const sub = await bot.ask('digest subscribe #linen-ops', { userId: user, channelId: 'C0LINEN' });
    const id = /`(d[a-z0-9]+)`/.exec(allText(sub))![1]!;
    const alert = await bot.ask('alert signal shortfall', { userId: user, channelId: 'C0LINEN' });
    const alertId = /Alert set\* `([a-z0-9]+)`/.exec(allText(alert))![1]!;
    // Someone else's digest is not theirs to see here.
    await bot.ask('digest subscribe #linen-ops tickets', { userId: 'U0OTHER1', channelId: 'C0LINEN' });

    const view = await openHome(user);
    const text = textOf(view);
    expect(text).toContain(`\`${id}\``);
    expect(text).toContain(`\`${alertId}\``);
    expect(buttons({ blocks: view.blocks }).filter((b) => /^(Pause|Remove)$/.test(b.text))).toHaveLength(4);
    expect(text).not.toMatch(/tickets digest/i);

    const paused = await clickHome(user, view, {
      actionId: button(view, 'Pause', id).actionId,
      type: 'button',
      value: button(view, 'Pause', id).value,
    });
    expect(textOf(paused)).toContain(`Paused ${'`'}${id}${'`'}`);
    expect((await bot.bot.digests.store.getSubscription(id))?.status).toBe('paused');
    expect(button(paused, 'Resume', id).value).toBe(`home resume digest ${id}`);

    const removed = await clickHome(user, paused, {
      actionId: button(paused, 'Remove', alertId).actionId,
      type: 'button',
      value: button(paused, 'Remove', alertId).value,
    });
    expect(textOf(removed)).toContain(`Removed alert \`${alertId}\``);
    expect(await bot.bot.alerts.store.getAlert(alertId)).toBeNull();
    expect(h.problems).toEqual([]);
  });

  it('obeys the commands’ rules: where only Linen admins manage digests, anyone else is told so and nothing changes', async () => {
    const guarded = await h.startBotWith({ LINEN_ADMIN_USER_IDS: 'U0ADMIN77' });
    const user = 'U0HOME08';
    const sub = await guarded.ask('digest subscribe #linen-ops', { userId: 'U0ADMIN77', channelId: 'C0LINEN' });
    const id = /`(d[a-z0-9]+)`/.exec(allText(sub))![1]!;
    // The admin's digest is theirs: a crafted click by someone else is answered with the command's own sentence.
    const view = await openHome(user, guarded);
    const since = h.slack.published.length;
    expect(
      await guarded.clickHome({
        view,
        userId: user,
        action: { actionId: 'linen_refresh:0', type: 'button', value: `home pause digest ${id}` },
      }),
    ).toBe(200);
    const after = (await h.slack.waitForPublish(user, isHome, 20_000, since)).view;
    expect(textOf(after)).toContain('Only the Linen admins of this workspace can manage digests');
    expect((await guarded.bot.digests.store.getSubscription(id))?.status).toBe('active');
  });
});

describe('what it costs', () => {
  it('ten people opening their homes at once cost the requests one home costs, none asked twice', async () => {
    // No worker of the bot's own reads meanwhile (alerts set by the tests above are on the same store).
    const workers = { digests: { worker: false }, alerts: { worker: false } };
    const one = await h.startBotWith({}, { sharedAnswers: true, start: workers });
    await openHome('U0SOLO01', one);
    const single = one.urls.length;
    expect(single).toBeGreaterThan(0);

    const ten = await h.startBotWith({}, { sharedAnswers: true, start: workers });
    const users = Array.from({ length: 10 }, (_, i) => `U0TEN${String(i).padStart(4, '0')}`);
    await Promise.all(users.map((u) => openHome(u, ten)));
    expect(ten.urls.length).toBe(single);
    expect(new Set(ten.urls).size).toBe(ten.urls.length);
    expect(h.problems).toEqual([]);
  });

  it('a key without accounting shows no invoice and no purchase order, and no error either', async () => {
    const ops = await h.startBotWith({ LINEN_API_KEY: KEYS.mercyOps });
    const text = textOf(await openHome('U0OPS001', ops));
    expect(text).toContain('Short today');
    expect(text).not.toMatch(/invoice/i);
    expect(text).not.toMatch(/purchase order/i);
    expect(text).not.toMatch(/no accounting access|having trouble/);
    // Only its own customers.
    expect(text).not.toContain('Harborview');
  });
});

describe('a slow or failing API', () => {
  const gatedApi = gatedApis(() => h.sandbox.baseUrl);

  it('acknowledges the event first, shows "Building…" while the API is slow, and then the home', async () => {
    const gated = await gatedApi();
    const slow = await h.startBotWith(
      { LINEN_BASE_URL: gated.baseUrl },
      { start: { deadlines: { interimMs: 50, deadlineMs: 60_000 } } },
    );
    const since = h.slack.published.length;
    expect(await slow.openHome('U0SLOW01')).toBe(200);
    // Acknowledged before the API answered anything.
    expect(gated.held.every((r) => !r.answered)).toBe(true);
    const loading = await h.slack.waitForPublish('U0SLOW01', () => true, 10_000, since);
    expect(textOf(loading.view)).toContain('Building your Linen home');
    expect(button(loading.view, 'Refresh').value).toBe('home');
    gated.open();
    const home = await h.slack.waitForPublish('U0SLOW01', isHome, 20_000, since);
    expect(h.slack.published.slice(since).filter((p) => p.userId === 'U0SLOW01')[0]!.view).toEqual(loading.view);
    expect(textOf(home.view)).toContain('Short today');
    expect(h.problems).toEqual([]);
  });

  it('says in one sentence that the API is not answering when it does not by the deadline', async () => {
    const gated = await gatedApi();
    const hung = await h.startBotWith(
      { LINEN_BASE_URL: gated.baseUrl },
      { start: { deadlines: { interimMs: 50, deadlineMs: 300 } } },
    );
    const since = h.slack.published.length;
    expect(await hung.openHome('U0SLOW02')).toBe(200);
    const late = await h.slack.waitForPublish(
      'U0SLOW02',
      (v) => textOf(v).includes('The Linen API is not answering right now'),
      10_000,
      since,
    );
    expect(button(late.view, 'Refresh').value).toBe('home');
  });

  it('shows an error as one sentence on the home, with Refresh', async () => {
    h.sandbox.faults.enqueue({ kind: '500', count: 50 });
    const since = h.slack.published.length;
    expect(await bot.openHome('U0FAIL01')).toBe(200);
    const failed = await h.slack.waitForPublish('U0FAIL01', () => true, 20_000, since);
    const text = textOf(failed.view);
    expect(text).toMatch(/The Linen API is having trouble right now; try again later/);
    expect(text).not.toContain('Your Linen home');
    expect(button(failed.view, 'Refresh').value).toBe('home');
    expect(h.problems).toEqual([]);
  });
});

describe('/linen home', () => {
  it('answers the home in the channel for the person alone, and its Refresh replaces it', async () => {
    const r = await bot.command('home', { userId: 'U0HOME10' });
    const [answer] = await h.slack.waitForPosts(r.sink, 1, 20_000);
    expect(answer!.body.response_type).toBe('ephemeral');
    expect(allText(answer!.body)).toContain('Your Linen home');
    const refresh = button(answer!.body, 'Refresh');
    const clicked = await bot.click(refresh.actionId, refresh.value, { userId: 'U0HOME10' });
    const [replaced] = await h.slack.waitForPosts(clicked.sink, 1, 20_000);
    expect(replaced!.body.replace_original).toBe(true);
    expect(allText(replaced!.body)).toContain('Your Linen home');
    expect(h.problems).toEqual([]);
  });
});
