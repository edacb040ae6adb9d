/**
 * What alerts do for a person, said once for both platforms and both stores (test/slack-bot/alerts/kinds.test.ts,
 * test/teams-bot/alerts.test.ts): each kind set with a command, its confirmation saying what is true right now (read
 * here from the raw `/v1` listings), the first check quiet about it; the sandbox's data changed under the running
 * service; each change told once, in one message with what happened, where, how much and the button to see more,
 * by the check one poll interval later; not again at the next checks; again once it cleared and came back. Ten
 * carts closing short at once are one message, worst first; `dm` posts to the person; the management commands as
 * a person uses them; and every command that cannot be done is one sentence, with nothing saved.
 *
 * The alert worker runs on the service's manual clock: `chat.clock.check()` is one poll interval, and returns once
 * the worker's tick (its checks and its posts) is over. Each test removes the alerts it set, so that the next one
 * reads only its own posts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertChat } from './alert-chat.ts';
import {
  type Customer,
  closableCarts,
  customerNamed,
  lowBudgetsNow,
  overdueNow,
  shortCountsNow,
  signalsNow,
  TODAY,
  ticketsOf,
} from './alert-data.ts';
import { expectedFill } from './expected-figures.ts';
import { listAll } from './sandbox-http.ts';

/**
 * Text as a person reads it, the same on both platforms: Slack's mrkdwn marks and escapes left out, and a command
 * as its words (`/linen short` on Slack, `short` on Teams).
 */
export const plain = (s: string) =>
  s
    .replace(/[*_`]/g, '')
    .replace(/\/linen /g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The id in an `alert <kind> …` confirmation (`Alert set a1b2c3: …`). */
export function alertIdOf(answer: string): string {
  const id = /Alert set\W+(a[0-9a-z]{5})\b/.exec(plain(answer))?.[1];
  if (!id) throw new Error(`no alert set in: ${answer}`);
  return id;
}

/** The rows of the alert tables: what a refused command must leave as it was. */
export async function alertRows(chat: AlertChat) {
  const db = chat.bot().database;
  const [alerts, checks, posts] = await Promise.all([
    db.query('SELECT * FROM alerts ORDER BY id'),
    db.query('SELECT * FROM alert_checks ORDER BY key_ref'),
    db.query('SELECT * FROM alert_posts ORDER BY id'),
  ]);
  return JSON.parse(JSON.stringify({ alerts, checks, posts }));
}

/** The posts a conversation receives from now on. */
function postsFrom(chat: AlertChat, conversation: string) {
  const before = chat.posts(conversation).length;
  return () => chat.posts(conversation).slice(before);
}

/**
 * The suite, on the chat `startChat` starts; `more` declares the platform's own tests (run before the last day's
 * par met, which moves the clock a day on, and before the validators' check), with the chat they run on.
 */
export function describeAlerts(
  title: string,
  startChat: () => Promise<AlertChat>,
  more?: (chat: () => AlertChat) => void,
): void {
  describe(title, () => {
    let chat: AlertChat;
    let mercy: Customer;
    let harborview: Customer;
    let lakeshore: Customer;
    /** Every customer's name, by id. */
    let names = new Map<string, string>();
    beforeAll(async () => {
      chat = await startChat();
      mercy = await customerNamed(chat.sandbox, 'Mercy General Hospital');
      harborview = await customerNamed(chat.sandbox, 'Harborview Hotel');
      lakeshore = await customerNamed(chat.sandbox, 'Lakeshore Rehabilitation Centre');
      names = new Map((await listAll(chat.sandbox, '/customers')).map((c) => [c.id, c.name]));
    }, 120_000);
    afterAll(async () => {
      await chat?.close();
    });

    const set = async (text: string) => {
      const answer = plain(await chat.say(text));
      return { id: alertIdOf(answer), answer };
    };
    const remove = async (id: string) => {
      expect(plain(await chat.say(`alert remove ${id}`))).toContain(`Removed alert ${id}`);
      expect(await chat.store().getAlert(id)).toBeNull();
    };

    it('short: quiet about the carts short already; a cart closing short told once; again once made whole and short again', async () => {
      const already = await shortCountsNow(chat.sandbox);
      expect(already.length).toBeGreaterThan(0);
      const { id, answer } = await set('alert short');
      expect(answer).toContain(`${already.length} carts are short right now: short lists them.`);
      expect((await chat.store().getAlert(id))!.seen).toHaveLength(already.length);
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);

      const [cart] = await closableCarts(chat.sandbox);
      const count = chat.sandbox.changes.closeCartCountShort({ cart_id: cart!.id, item_id: cart!.itemId, short_by: 7 });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      const [told] = posts();
      const text = plain(told!.text);
      expect(text).toContain('1 cart short at every customer');
      expect(text).toContain(`${cart!.name}`);
      expect(text).toContain(`${names.get(cart!.customerId)} › ${cart!.unitName}`);
      expect(text).toContain('7 pieces');
      expect(text).toContain(`7 ${cart!.itemName}: ${cart!.required - 7} of ${cart!.required} required delivered`);
      expect(told!.buttons).toEqual([{ label: 'Show what is short', command: `short ${names.get(cart!.customerId)}` }]);

      // Not again while it stays short.
      await chat.clock.check();
      await chat.clock.check();
      expect(posts()).toHaveLength(1);

      // Made whole: nothing to tell; short again: told again.
      chat.sandbox.changes.changeCartCount(count.id, { lines: [{ item_id: cart!.itemId, delivered: cart!.required }] });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      expect((await chat.store().getAlert(id))!.seen).not.toContain(`count:${count.id}`);
      chat.sandbox.changes.closeCartCountShort({ cart_id: cart!.id, item_id: cart!.itemId, short_by: 3 });
      await chat.clock.check();
      expect(posts()).toHaveLength(2);
      expect(plain(posts()[1]!.text)).toContain(`3 ${cart!.itemName}: ${cart!.required - 3} of ${cart!.required}`);
      const alert = (await chat.store().getAlert(id))!;
      expect(alert.lastFiredAt).not.toBeNull();
      await remove(id);
    });

    it('ten carts closing short at once are one message listing the ten, worst first', async () => {
      const { id } = await set('alert short');
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);
      const carts = (await closableCarts(chat.sandbox)).filter((c) => c.required >= 20).slice(0, 10);
      expect(carts).toHaveLength(10);
      // Shortfalls of 11 to 20 pieces, in an order that is not the carts' own.
      const shortBy = [14, 19, 11, 20, 16, 12, 18, 13, 17, 15];
      for (const [i, c] of carts.entries())
        chat.sandbox.changes.closeCartCountShort({ cart_id: c.id, item_id: c.itemId, short_by: shortBy[i]! });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      const text = plain(posts()[0]!.text);
      const total = shortBy.reduce((s, n) => s + n, 0);
      expect(text).toContain('10 carts short at every customer');
      expect(text).toContain(`10 carts counted today are short ${total} pieces`);
      const listed = text
        .split('\n')
        .map((l) => /^(\d+) missing · (.+?) at /.exec(l.trim()))
        .filter((m) => m !== null)
        .map((m) => [Number(m![1]), m![2]]);
      const worstFirst = carts
        .map((c, i) => [shortBy[i]!, c.name] as const)
        .sort((a, b) => b[0] - a[0])
        .map(([n, name]) => [n, name]);
      expect(listed).toEqual(worstFirst);
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      await remove(id);
    });

    it('signal: a high signal told once with its summary and suggested order, a low one not; again once resolved and reopened', async () => {
      const high = await signalsNow(chat.sandbox, 'high');
      const { id, answer } = await set('alert signal high');
      expect(answer).toContain(`${high.length} high signals are open right now: signals lists them.`);
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);

      const department = (await listAll(chat.sandbox, `/customers/${mercy.id}/departments`)).find(
        (d) => d.name === 'ICU',
      );
      const raised = chat.sandbox.changes.addSignal({
        kind: 'circulation_breach',
        severity: 'high',
        customer_id: mercy.id,
        department_id: department.id,
        summary: 'Bath towels are leaving ICU faster than they come back',
        suggested_order_qty: 120,
      });
      chat.sandbox.changes.addSignal({
        kind: 'over_fill',
        severity: 'low',
        customer_id: mercy.id,
        summary: 'Washcloths delivered over par all week',
      });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      const text = plain(posts()[0]!.text);
      expect(text).toContain('1 signal at every customer');
      expect(text).toContain('Bath towels are leaving ICU faster than they come back');
      expect(text).toContain('Mercy General Hospital › ICU');
      expect(text).toContain('Circulation breach');
      expect(text).toContain('120 pieces');
      expect(text).not.toContain('Washcloths delivered over par');
      expect(posts()[0]!.buttons).toEqual([{ label: 'Show the signals', command: 'signals Mercy General Hospital' }]);

      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      chat.sandbox.changes.changeSignal(raised.id, { status: 'resolved' });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      chat.sandbox.changes.changeSignal(raised.id, { status: 'open' });
      await chat.clock.check();
      expect(posts()).toHaveLength(2);
      expect(plain(posts()[1]!.text)).toContain('Bath towels are leaving ICU faster than they come back');
      await remove(id);
    });

    it('ticket: opened, then each next status, told once each with the old and the new status', async () => {
      const watched = await ticketsOf(chat.sandbox, harborview.id);
      const { id, answer } = await set('alert ticket Harborview Hotel');
      expect(answer).toContain(
        `${watched.length} tickets of the last year are watched right now; each change of status will be told.`,
      );
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);

      const ticket = chat.sandbox.changes.openTicket({
        customer_id: harborview.id,
        kind: 'stain',
        subject: 'Stained pillowcases on the fourth floor',
      });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      const opened = plain(posts()[0]!.text);
      expect(opened).toContain('1 ticket opened at Harborview Hotel');
      expect(opened).toContain(ticket.ticket_number);
      expect(opened).toContain('opened (Submitted)');
      expect(opened).toContain('Stained pillowcases on the fourth floor');
      expect(posts()[0]!.buttons).toEqual([
        { label: `Show ${ticket.ticket_number}`, command: `ticket ${ticket.ticket_number}` },
      ]);
      await chat.clock.check();
      expect(posts()).toHaveLength(1);

      chat.sandbox.changes.changeTicket(ticket.id, { status: 'acknowledged' });
      await chat.clock.check();
      expect(posts()).toHaveLength(2);
      expect(plain(posts()[1]!.text)).toContain('1 ticket changed status at Harborview Hotel');
      expect(plain(posts()[1]!.text)).toContain('Submitted → Acknowledged');
      chat.sandbox.changes.changeTicket(ticket.id, { status: 'resolved', resolution_note: 'Rewashed and replaced' });
      await chat.clock.check();
      expect(posts()).toHaveLength(3);
      expect(plain(posts()[2]!.text)).toContain('Acknowledged → Resolved');
      await chat.clock.check();
      expect(posts()).toHaveLength(3);
      await remove(id);
    });

    it('overdue: an invoice 60 days overdue told once with its number, customer, amount open and days; again once due again', async () => {
      const already = await overdueNow(chat.sandbox, 60);
      const { id, answer } = await set('alert overdue 60d');
      expect(answer).toContain(
        already.length === 0
          ? 'No invoice is 60 days or more overdue right now'
          : `${already.length} invoice${already.length === 1 ? ' is' : 's are'} 60 days or more overdue right now`,
      );
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);

      // Due 80 days ago (Lakeshore has no purchase order that an invoice would draw down).
      const { invoice } = chat.sandbox.changes.addInvoice({
        customer_id: lakeshore.id,
        subtotal_cents: 1_234_500,
        issued_on: '2026-08-01',
        due_on: '2026-09-01',
      });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      const text = plain(posts()[0]!.text);
      expect(text).toContain('1 invoice 60+ days overdue at every customer');
      expect(text).toContain(invoice.invoice_number);
      expect(text).toContain('Lakeshore Rehabilitation Centre');
      expect(text).toMatch(/\$12,345\.00|CA\$12,345\.00/);
      expect(text).toContain('80 days');
      expect(posts()[0]!.buttons.map((b) => b.label)).toEqual(['Show overdue invoices']);
      expect(posts()[0]!.buttons[0]!.command).toMatch(/^invoices /);
      await chat.clock.check();
      expect(posts()).toHaveLength(1);

      // Its due day moved: no longer 60 days overdue; moved back, it is told again.
      chat.sandbox.changes.changeInvoice(invoice.id, { due_on: '2026-11-01' });
      await chat.clock.check();
      chat.sandbox.changes.changeInvoice(invoice.id, { due_on: '2026-09-01' });
      await chat.clock.check();
      expect(posts()).toHaveLength(2);
      expect(plain(posts()[1]!.text)).toContain(invoice.invoice_number);
      await remove(id);
    });

    it('budget: a purchase order falling under 20% of its budget told once', async () => {
      const already = await lowBudgetsNow(chat.sandbox, 20);
      const { id, answer } = await set('alert budget 20%');
      expect(answer).toContain(
        already.length === 0
          ? 'No active purchase order has less than 20% of its budget left right now'
          : `${already.length} purchase orders have less than 20% of their budget left right now`,
      );
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);

      const [po] = (await listAll(chat.sandbox, '/purchase-orders', { status: 'active' })).filter(
        (p) => p.customer_id === mercy.id,
      );
      // Spent down to 5% of its total.
      chat.sandbox.changes.spendPurchaseOrder(po.id, { amount_cents: po.remaining_cents - po.total_cents / 20 });
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      const text = plain(posts()[0]!.text);
      expect(text).toContain('1 purchase order under 20% of budget left at every customer');
      expect(text).toContain(po.po_number);
      expect(text).toContain('Mercy General Hospital');
      expect(text).toContain('5.0%');
      expect(posts()[0]!.buttons.map((b) => b.label)).toEqual(['Show purchase orders']);
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      await remove(id);
    });

    it('dm: the alert goes to the person alone, not to the conversation it was set in', async () => {
      const { id, answer } = await set('alert signal dm');
      expect(answer).toContain('It posts in your direct messages with Linen');
      const dm = chat.direct(chat.people.dana);
      expect(dm).toBeDefined();
      expect((await chat.store().getAlert(id))!).toMatchObject({ direct: true, channelId: dm });
      const inDm = postsFrom(chat, dm!);
      const here = postsFrom(chat, chat.here);
      chat.sandbox.changes.addSignal({
        kind: 'par_drift',
        severity: 'medium',
        customer_id: harborview.id,
        summary: 'Bath sheet par drifted above use',
      });
      await chat.clock.check();
      expect(inDm()).toHaveLength(1);
      expect(plain(inDm()[0]!.text)).toContain('Bath sheet par drifted above use');
      expect(here()).toEqual([]);
      await remove(id);
    });

    it('alerts lists them; pause, resume (quiet about the pause), test (what it would say now) and remove', async () => {
      const short = await set('alert short Mercy General Hospital min 5');
      const signal = await set('alert signal high');
      const list = plain(await chat.say('alerts'));
      expect(list).toContain(`${short.id} carts closing at least 5 pieces short at Mercy General Hospital, in`);
      expect(list).toContain(`${signal.id} high signals at every customer, in`);
      expect(list).toContain('not fired yet');
      const posts = postsFrom(chat, chat.here);

      expect(plain(await chat.say(`alert pause ${signal.id}`))).toMatch(
        new RegExp(`^Paused alert ${signal.id}; alert resume ${signal.id} starts it again\\.`),
      );
      expect((await chat.store().getAlert(signal.id))!.status).toBe('paused');
      expect(plain(await chat.say('alerts'))).toMatch(new RegExp(`${signal.id} .* · paused`));
      const whilePaused = chat.sandbox.changes.addSignal({
        kind: 'shortfall_streak',
        severity: 'high',
        customer_id: harborview.id,
        summary: 'Bath towels short five days running',
      });
      await chat.clock.check();
      expect(posts()).toEqual([]);

      const high = await signalsNow(chat.sandbox, 'high');
      const resumed = plain(await chat.say(`alert resume ${signal.id}`));
      expect(resumed).toContain(`Resumed alert ${signal.id}: high signals at every customer`);
      expect(resumed).toContain(`${high.length} high signals are open right now`);
      await chat.clock.check();
      expect(posts()).toEqual([]);
      expect((await chat.store().getAlert(signal.id))!.seen).toContain(`signal:${whilePaused.id}`);

      // A test posts what it would say now, and changes nothing the alert has seen.
      const seen = (await chat.store().getAlert(signal.id))!.seen;
      const tested = plain(await chat.say(`alert test ${signal.id}`));
      expect(tested).toContain(`Posting a test of ${signal.id}`);
      await expect.poll(() => posts().length, { timeout: 10_000 }).toBe(1);
      const test = plain(posts()[0]!.text);
      expect(test).toContain(`Test: ${high.length} signals at every customer`);
      expect(test).toContain('A test of this alert: what it would say if it fired now.');
      expect(test).toContain('Bath towels short five days running');
      expect((await chat.store().getAlert(signal.id))!.seen).toEqual(seen);

      // A new one after the resume is told.
      chat.sandbox.changes.addSignal({
        kind: 'circulation_breach',
        severity: 'high',
        customer_id: lakeshore.id,
        summary: 'Pool towels missing after every swim session',
        suggested_order_qty: 40,
      });
      await chat.clock.check();
      expect(posts()).toHaveLength(2);
      expect(plain(posts()[1]!.text)).toContain('Pool towels missing after every swim session');
      expect(plain(await chat.say('alerts'))).toMatch(new RegExp(`${signal.id} .* · last fired `));

      await remove(signal.id);
      await remove(short.id);
      expect(plain(await chat.say('alerts'))).toContain('No alerts yet.');
      chat.sandbox.changes.addSignal({
        kind: 'circulation_breach',
        severity: 'high',
        customer_id: mercy.id,
        summary: 'Scrubs leaving the OR',
        suggested_order_qty: 10,
      });
      await chat.clock.check();
      expect(posts()).toHaveLength(2);
    });

    it('every command that cannot be done is one sentence, and nothing is saved', async () => {
      // An alert of another organization (its id typed here must be as unknown as any other).
      const other = await chat.store().createAlert(
        {
          platform: chat.platform,
          orgId: 'T0OTHERORG',
          keyRef: 'key_0000000000000000',
          kind: 'signal',
          options: {},
          customerIds: [],
          timeZone: 'America/Chicago',
          channelId: 'C0ELSEWHERE',
          channelName: null,
          serviceUrl: null,
          direct: false,
          createdBy: 'U0STRANGER',
          seen: [],
        },
        chat.clock.now(),
        chat.clock.now(),
      );
      const before = await alertRows(chat);
      const refusals: [string, RegExp][] = [
        ['alert flood', /^I don't know an alert “flood”; alerts are short, signal, ticket, overdue, budget, parmet\./],
        [
          'alert short min zero',
          /^After min, give the fewest pieces missing as a whole number, like min 5 \(not “zero”\)\./,
        ],
        ['alert short min 0', /^min is 1 to 100,000 pieces \(got 0\)\./],
        ['alert signal critical', /^“critical” is not a severity: give low, medium or high/],
        ['alert overdue 1.5d', /^Give the days overdue as a whole number of days, like 60d \(not “1\.5d”\)\./],
        ['alert budget 150%', /^The share of the budget left is more than 0% and at most 100% \(got 150%\)\./],
        ['alert parmet 90%', /^Say below what par met to alert, like alert parmet below 90% Mercy General Hospital\./],
        ['alert ticket Nowhere Clinic', /^No customer .*Nowhere Clinic/],
        ['alert short "Mercy General Hospital" Laundry Chute', /Laundry Chute/],
        ['alert pause azzzzz', /^There is no alert azzzzz; alerts lists them\./],
        ['alert resume azzzzz', /^There is no alert azzzzz/],
        ['alert test azzzzz', /^There is no alert azzzzz/],
        ['alert remove azzzzz', /^There is no alert azzzzz/],
        [`alert pause ${other.id}`, new RegExp(`^There is no alert ${other.id}`)],
        [`alert remove ${other.id}`, new RegExp(`^There is no alert ${other.id}`)],
        [`alert test ${other.id}`, new RegExp(`^There is no alert ${other.id}`)],
        ['alert pause', /^Give the alert's id; alerts lists them\./],
      ];
      for (const [command, sentence] of refusals) {
        const answer = plain(await chat.say(command)).trim();
        expect(answer, command).toMatch(sentence);
        expect(answer, command).not.toMatch(/Error|\bat .*\.ts:\d+/);
      }
      expect(await alertRows(chat)).toEqual(before);
      await chat.store().deleteAlert(other.id);
    });

    more?.(() => chat);

    it('parmet: the par met of a whole day below NN% told once, the morning after', async () => {
      const day = TODAY;
      const rows = (await listAll(chat.sandbox, '/deliveries/daily', { from: day, to: day })).filter(
        (r) => r.customer_id === harborview.id && r.daily_par !== null && r.daily_par > 0,
      );
      expect(rows.length).toBeGreaterThan(1);
      const { id, answer } = await set('alert parmet below 90% Harborview Hotel');
      expect(answer).toContain('Each day is checked once it is over.');
      const posts = postsFrom(chat, chat.here);
      await chat.clock.check();
      expect(posts()).toEqual([]);

      // Today's deliveries to Harborview at half their par: the day closes below 90%.
      for (const r of rows)
        chat.sandbox.changes.setDailyDelivery({
          customer_id: harborview.id,
          department_id: r.department_id,
          item_id: r.item_id,
          date: day,
          delivered_count: Math.floor(r.daily_par / 2),
        });
      const after = (await listAll(chat.sandbox, '/deliveries/daily', { from: day, to: day })).filter(
        (r) => r.customer_id === harborview.id,
      );
      const { parMet } = expectedFill(after);
      expect(parMet).toBeLessThan(0.9);
      // Still the same day: par met of a day is told once the day is over.
      await chat.clock.check();
      expect(posts()).toEqual([]);
      // The next morning (06:00 in Chicago).
      await chat.clock.set('2026-11-21T12:00:00Z');
      expect(posts()).toHaveLength(1);
      const text = plain(posts()[0]!.text);
      expect(text).toContain(`Par met ${(parMet * 100).toFixed(1)}% on ${day} at Harborview Hotel`);
      expect(posts()[0]!.buttons.map((b) => b.label)).toEqual(['Show fill rate']);
      await chat.clock.check();
      await chat.clock.check();
      expect(posts()).toHaveLength(1);
      await remove(id);
    });

    it('every message the bot sent passed its platform validator', () => {
      expect(chat.problems()).toEqual([]);
    });
  });
}
