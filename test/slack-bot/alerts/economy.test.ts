/**
 * What alert checks cost, through the running service on Slack, on PGlite and on PostgreSQL:
 * - one check of a key with 50 alerts of every kind, for several customers, channels and people, sends each listing
 *   its alerts need once (and its pages), counted in the sandbox's request log against the pages the test walks
 *   itself; the next morning's check reads the last whole day's deliveries once too;
 * - an interactive command arriving while a check is held by the key's pacing is answered first, from the share of
 *   every window background work leaves to people (shared/core/pacing.ts `backgroundPacer`);
 * - `/metrics` moves as the checks go: checks by outcome, the requests of each check (as many as the API received),
 *   alerts fired by kind, how long after the API's own time of a change it was found, posts by outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import type { Sandbox } from '../../../sandbox/index.ts';
import { type AlertChat, startSlackAlerts } from '../../support/alert-chat.ts';
import { customerNamed, TODAY } from '../../support/alert-data.ts';
import { alertIdOf, plain } from '../../support/alert-scenarios.ts';
import { drivers } from '../../support/digest-db.ts';
import { call, KEYS, listAll } from '../../support/sandbox-http.ts';

/** The pages of a listing as the client walks it (200 rows a page). */
async function pagesOf(sandbox: Sandbox, path: string, query: Record<string, string> = {}): Promise<number> {
  let pages = 0;
  let cursor: string | null = null;
  do {
    const res = await call(sandbox, path, { query: { limit: '200', ...query, ...(cursor ? { cursor } : {}) } });
    expect(res.status).toBe(200);
    pages++;
    cursor = res.body.pagination.has_more ? res.body.pagination.cursor : null;
  } while (cursor);
  return pages;
}

/** The requests the sandbox received since its log was cleared, counted by path. */
function byPath(sandbox: Sandbox): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of sandbox.requests.entries) out[r.path] = (out[r.path] ?? 0) + 1;
  return out;
}

const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** The listings one check reads for alerts of every kind over every customer, and their pages. */
async function expectedCheck(sandbox: Sandbox, today: string, daily: boolean): Promise<Record<string, number>> {
  const customers = await listAll(sandbox, '/customers');
  const yearAgo = addDays(today, -365);
  let tickets = 0;
  for (const c of customers)
    tickets += await pagesOf(sandbox, '/quality-tickets', { customer_id: c.id, from: yearAgo });
  const expected: Record<string, number> = {
    '/v1/customers': await pagesOf(sandbox, '/customers'),
    '/v1/inventory/counts': await pagesOf(sandbox, '/inventory/counts', { from: today, to: today }),
    '/v1/inventory/signals': await pagesOf(sandbox, '/inventory/signals'),
    '/v1/quality-tickets': tickets,
    '/v1/invoices':
      (await pagesOf(sandbox, '/invoices', { status: 'sent' })) +
      (await pagesOf(sandbox, '/invoices', { status: 'partially_paid' })),
    '/v1/purchase-orders': await pagesOf(sandbox, '/purchase-orders', { status: 'active' }),
  };
  if (daily) {
    const yesterday = addDays(today, -1);
    expected['/v1/deliveries/daily'] = await pagesOf(sandbox, '/deliveries/daily', { from: yesterday, to: yesterday });
  }
  return expected;
}

/** 25 alerts as people set them: every kind, every customer or one, with options, here, in #finance or by DM. */
const COMMANDS = [
  'alert short',
  'alert short Mercy General Hospital',
  'alert short Harborview Hotel min 3',
  'alert short "Mercy General Hospital" ICU',
  'alert short Mercy Health #finance',
  'alert signal',
  'alert signal high',
  'alert signal shortfall medium Mercy General Hospital',
  "alert signal circulation_breach St. Luke's Medical Center dm",
  'alert signal low Lakeshore Rehabilitation Centre',
  'alert ticket',
  'alert ticket Harborview Hotel',
  'alert ticket Mercy Health #finance',
  "alert ticket St. Luke's Medical Center dm",
  'alert overdue',
  'alert overdue 30d Harborview Hotel',
  'alert overdue 90d #finance',
  'alert overdue 200d Mercy General Hospital',
  'alert budget',
  'alert budget 10% Mercy General Hospital',
  'alert budget 50% Harborview Hotel #finance',
  'alert parmet below 1%',
  'alert parmet below 1% Harborview Hotel',
  'alert parmet below 1% "Mercy General Hospital" ICU',
  'alert parmet below 1% Lakeshore Rehabilitation Centre dm',
];

/** Each sample of the text format as `name{labels}` → value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** The sum of the samples of `name` whose labels include every one of `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const [series, value] of samples(text)) {
    const brace = series.indexOf('{');
    if ((brace < 0 ? series : series.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) sum += value;
  }
  return sum;
}

for (const driver of drivers) {
  describe(`what alert checks cost (${driver})`, () => {
    describe('50 alerts on one key', () => {
      let chat: AlertChat;
      beforeAll(async () => {
        chat = await startSlackAlerts(driver);
      }, 120_000);
      afterAll(() => chat?.close());

      it('one check reads each listing its alerts need once (and its pages), the next morning the last day too', async () => {
        // Enough signals for the listing to take two pages.
        const lakeshore = await customerNamed(chat.sandbox, 'Lakeshore Rehabilitation Centre');
        for (let i = 0; i < 200; i++)
          chat.sandbox.changes.addSignal({
            kind: 'dormant_stock',
            severity: 'low',
            customer_id: lakeshore.id,
            summary: `Dormant stock in store room ${i + 1}`,
          });
        expect(await pagesOf(chat.sandbox, '/inventory/signals')).toBe(2);
        for (const [i, text] of [...COMMANDS, ...COMMANDS].entries())
          alertIdOf(plain(await chat.say(text, { as: i % 2 ? 'lee' : 'dana' })));
        const alerts = await chat.store().listAlerts();
        expect(alerts).toHaveLength(50);
        expect(new Set(alerts.map((a) => a.keyRef))).toEqual(new Set([keyRefOf(KEYS.all)]));
        expect(new Set(alerts.map((a) => a.kind)).size).toBe(6);
        expect(new Set(alerts.map((a) => a.channelId)).size).toBe(4);

        const expected = await expectedCheck(chat.sandbox, TODAY, false);
        chat.sandbox.requests.clear();
        await chat.clock.check();
        expect(byPath(chat.sandbox)).toEqual(expected);
        const [check] = await chat.store().listChecks();
        expect(check).toMatchObject({ lastError: null, claimedBy: null });
        expect(await chat.store().listPosts()).toEqual([]);

        // 06:00 the next morning: par met of the whole day before is read, once for every par met alert.
        const tomorrow = addDays(TODAY, 1);
        const nextExpected = await expectedCheck(chat.sandbox, tomorrow, true);
        chat.sandbox.requests.clear();
        await chat.clock.set(`${tomorrow}T12:00:00Z`);
        expect(byPath(chat.sandbox)).toEqual(nextExpected);
        expect(await chat.store().listPosts()).toEqual([]);
        expect((await chat.store().listAlerts()).filter((a) => a.kind === 'parmet').map((a) => a.lastDay)).toEqual(
          Array(8).fill(TODAY),
        );
        expect(chat.problems()).toEqual([]);
      }, 60_000);
    });

    describe('a command during a check', () => {
      let chat: AlertChat;
      // 8 requests per 10 s: background work takes 6 of each window and leaves 2 to the people waiting.
      const WINDOW_MS = 10_000;
      beforeAll(async () => {
        chat = await startSlackAlerts(driver, {
          ownClients: true,
          start: { rateLimit: { limit: 8, windowMs: WINDOW_MS } },
        });
      }, 120_000);
      afterAll(() => chat?.close());

      it('is answered first, from the share of the window a check leaves to people', async () => {
        // Tickets of every customer: the customers, then 6 listings; set in the store, so no command used the window.
        const customers = await listAll(chat.sandbox, '/customers');
        expect(customers).toHaveLength(6);
        await chat.store().createAlert(
          {
            platform: 'slack',
            orgId: 'T0LINEN',
            keyRef: keyRefOf(KEYS.all),
            kind: 'ticket',
            options: {},
            customerIds: [],
            timeZone: 'America/Chicago',
            channelId: chat.here,
            channelName: null,
            serviceUrl: null,
            direct: false,
            createdBy: chat.people.dana,
            seen: null,
          },
          chat.clock.now(),
          chat.clock.now(),
        );
        chat.sandbox.requests.clear();
        const events: string[] = [];
        const checked = chat.clock.check().then(() => events.push('check recorded'));
        // The check has sent the 6 requests its share allows; its 7th waits for the window.
        await expect.poll(() => chat.sandbox.requests.count, { timeout: 15_000, interval: 10 }).toBe(6);
        const answered = chat.say('signals Mercy General Hospital').then((text) => {
          events.push('answered');
          return text;
        });
        expect(plain(await answered)).toContain('Mercy General Hospital');
        expect(events).toEqual(['answered']);
        await checked;
        expect(events).toEqual(['answered', 'check recorded']);
        const paths = chat.sandbox.requests.entries.map((r) => r.path);
        // The command's request went out between the check's 6th and 7th.
        expect(paths.indexOf('/v1/inventory/signals')).toBe(6);
        expect(paths.filter((p) => p === '/v1/quality-tickets')).toHaveLength(6);
        expect(paths.filter((p) => p === '/v1/customers')).toHaveLength(1);
        const [check] = await chat.store().listChecks();
        expect(check).toMatchObject({ lastError: null, lastRequests: 7 });
        expect(chat.problems()).toEqual([]);
      }, 60_000);
    });

    describe('/metrics', () => {
      let chat: AlertChat;
      const TOKEN = 'metrics-token-0123456789abcdef';
      beforeAll(async () => {
        chat = await startSlackAlerts(driver, { ownClients: true, env: { METRICS_TOKEN: TOKEN } });
      }, 120_000);
      afterAll(() => chat?.close());

      const scrape = async () => {
        const res = await fetch(`http://127.0.0.1:${chat.bot().port}/metrics`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(res.status).toBe(200);
        return res.text();
      };
      /**
       * One check, on the next day at noon, and what it moved. A day apart, because the service's clients share
       * what they read for some seconds (real ones), and a ticket listing starts a year before its check's day: each
       * check reads afresh.
       */
      let day = TODAY;
      const measured = async () => {
        const before = await scrape();
        chat.sandbox.requests.clear();
        day = addDays(day, 1);
        await chat.clock.set(`${day}T18:00:00Z`);
        const after = await scrape();
        const moved = (name: string, labels: Record<string, string> = {}) =>
          total(after, name, labels) - total(before, name, labels);
        return { moved, requests: chat.sandbox.requests.count };
      };

      it('checks, their requests, alerts fired, their delay and posts move as the checks go', async () => {
        const hotel = await customerNamed(chat.sandbox, 'Harborview Hotel');
        alertIdOf(plain(await chat.say('alert ticket Harborview Hotel')));

        // The first check: quiet about what was true.
        let m = await measured();
        expect(m.requests).toBeGreaterThan(0);
        expect(m.moved('linen_alert_checks_total', { outcome: 'committed' })).toBe(1);
        expect(m.moved('linen_alert_check_requests_count')).toBe(1);
        expect(m.moved('linen_alert_check_requests_sum')).toBe(m.requests);
        expect(m.moved('linen_alerts_fired_total')).toBe(0);
        expect(m.moved('linen_alert_posts_total')).toBe(0);

        // A ticket opened: found at the next check, posted once, how late measured from when it was opened.
        const opened = chat.sandbox.changes.openTicket({
          customer_id: hotel.id,
          kind: 'stain',
          subject: 'Stained towels in the spa',
        });
        m = await measured();
        expect(m.moved('linen_alert_checks_total', { outcome: 'committed' })).toBe(1);
        expect(m.moved('linen_alert_check_requests_count')).toBe(1);
        expect(m.moved('linen_alert_check_requests_sum')).toBe(m.requests);
        expect(m.moved('linen_alerts_fired_total', { platform: 'slack', kind: 'ticket' })).toBe(1);
        expect(m.moved('linen_alert_delay_seconds_count', { kind: 'ticket' })).toBe(1);
        expect(m.moved('linen_alert_delay_seconds_sum', { kind: 'ticket' })).toBeCloseTo(
          (chat.clock.now().getTime() - Date.parse(opened.created_at)) / 1000,
          3,
        );
        expect(m.moved('linen_alert_posts_total', { platform: 'slack', kind: 'ticket', outcome: 'posted' })).toBe(1);

        // A check that cannot read records nothing: counted as failed, and the next check tells what it missed.
        const missed = chat.sandbox.changes.changeTicket(opened.id, { status: 'acknowledged' });
        chat.sandbox.faults.enqueue({ kind: '500', count: 50 });
        m = await measured();
        chat.sandbox.faults.reset();
        expect(m.moved('linen_alert_checks_total', { outcome: 'failed' })).toBe(1);
        expect(m.moved('linen_alert_checks_total', { outcome: 'committed' })).toBe(0);
        expect(m.moved('linen_alert_check_requests_count')).toBe(0);
        expect(m.moved('linen_alerts_fired_total')).toBe(0);
        const acknowledged = () =>
          chat.posts(chat.here).filter((p) => plain(p.text).includes('Submitted → Acknowledged'));
        expect(acknowledged()).toEqual([]);
        expect((await chat.store().listChecks())[0]!.lastError).toMatch(/internal|500/i);
        m = await measured();
        expect(m.moved('linen_alert_checks_total', { outcome: 'committed' })).toBe(1);
        expect(m.moved('linen_alerts_fired_total', { platform: 'slack', kind: 'ticket' })).toBe(1);
        expect(m.moved('linen_alert_posts_total', { platform: 'slack', kind: 'ticket', outcome: 'posted' })).toBe(1);
        expect(acknowledged()).toHaveLength(1);
        expect(plain(acknowledged()[0]!.text)).toContain(missed.ticket_number);
        expect(chat.problems()).toEqual([]);
      }, 60_000);
    });
  });
}
