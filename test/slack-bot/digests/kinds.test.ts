/**
 * The receivables, tickets and budgets digests on the exactly-once engine (PGlite, and PostgreSQL with
 * TEST_DATABASE_URL): what each posts first, what it names as changed since, quiet when nothing changed unless
 * all-clear, each run posted once by two replicas; the shortfall digest's par met; previews of every kind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DigestCommandContext } from '../../../chat/digests/digest-answers.ts';
import { drivers } from '../../support/digest-db.ts';
import {
  CH,
  commandContext,
  type DigestEnv,
  replyText,
  slackDigestCommand,
  startDigestEnv,
  TZ,
} from '../../support/digest-env.ts';
import { expectedDaysOverdue, localDay } from '../../support/expected-figures.ts';

const bucket = (days: number) => (days <= 0 ? 'current' : days <= 30 ? 'd1_30' : days <= 60 ? 'd31_60' : 'd61_plus');

for (const driver of drivers) {
  describe(`digest kinds on ${driver}`, () => {
    let env: DigestEnv;
    let ctx: DigestCommandContext;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
      ctx = commandContext(env);
    });
    afterEach(() => env.close());
    const cmd = (s: string) => slackDigestCommand(s, ctx);
    const posts = () => env.slack.posts(CH);
    /** A tick by two replicas at once: what they did together. */
    const bothTick = async () => {
      const other = env.engine({ workerId: 'w-other', store: (await env.db.another()).store });
      const [a, b] = await Promise.all([env.tick(), env.tick(other)]);
      return {
        posted: (a.outcomes.posted ?? 0) + (b.outcomes.posted ?? 0),
        quiet: (a.outcomes.quiet ?? 0) + (b.outcomes.quiet ?? 0),
      };
    };
    /** Open invoices overdue as of a day, with their bucket. */
    const overdueOn = (day: string) =>
      env.sandbox.data.invoices
        .filter((i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0 && i.due_at)
        .map((i) => ({ i, bucket: bucket(expectedDaysOverdue(i.due_at!, day, TZ)) }))
        .filter((x) => x.bucket !== 'current');

    it('receivables: weekly on Monday by default; new overdue invoices, older buckets and paid ones, posted once', async () => {
      expect((await cmd('subscribe receivables')).text).toMatch(
        /^Subscribed: `d\w+` <#C0DIGEST1> receivables digest on mon at 07:00 \(America\/Chicago\), all customers\./,
      );
      env.clock.set('2026-11-09T13:00:05Z'); // Monday 07:00 CST
      expect(await bothTick()).toEqual({ posted: 1, quiet: 0 });
      const first = overdueOn('2026-11-09');
      expect(first.length).toBeGreaterThan(0);
      expect(posts()[0]!.text).toBe(`Linen receivables Mon 9 Nov: ${first.length} overdue invoices.`);
      for (const { i } of first) expect(JSON.stringify(posts()[0]!.blocks)).toContain(i.invoice_number);

      // One of them is paid during the week.
      const paid = first[0]!.i;
      Object.assign(paid, { status: 'paid', balance_cents: 0, paid_at: '2026-11-12T15:00:00.000Z' });
      env.clock.set('2026-11-16T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 1, quiet: 0 });
      const was = new Map(first.map((x) => [x.i.id, x.bucket]));
      const now = overdueOn('2026-11-16');
      const fresh = now.filter((x) => !was.has(x.i.id));
      const rank = ['current', 'd1_30', 'd31_60', 'd61_plus'];
      const older = now.filter((x) => was.has(x.i.id) && rank.indexOf(x.bucket) > rank.indexOf(was.get(x.i.id)!));
      expect(fresh.length + older.length).toBeGreaterThan(0);
      const second = posts()[1]!;
      expect(second.text).toBe(
        `Linen receivables Mon 16 Nov: ${fresh.length} newly overdue, ${older.length} moved older, 1 no longer open; ${now.length} overdue in all.`,
      );
      const body = JSON.stringify(second.blocks);
      expect(body).toContain(`*${paid.invoice_number}*`);
      for (const x of older) expect(body).toContain(x.i.invoice_number);
      expect(posts()).toHaveLength(2);
    });

    it('tickets: status changes and new tickets since the previous digest; quiet on a day without any', async () => {
      await cmd('subscribe tickets');
      env.clock.set('2026-11-05T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 1, quiet: 0 });
      const t = env.sandbox.data.tickets;
      const open = t.filter((x) => ['new', 'acknowledged', 'in_progress'].includes(x.status));
      expect(posts()[0]!.text).toBe(`Linen tickets Thu 5 Nov: ${open.length} open tickets.`);

      env.clock.set('2026-11-06T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 0, quiet: 1 });

      const moving = t.find((x) => x.status === 'in_progress')!;
      Object.assign(moving, { status: 'resolved', status_label: 'Resolved', resolved_at: '2026-11-06T20:00:00.000Z' });
      const fresh = t.find((x) => x.status === 'verified')!;
      Object.assign(fresh, { status: 'new', status_label: 'Submitted', created_at: '2026-11-06T21:00:00.000Z' });
      env.clock.set('2026-11-07T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 1, quiet: 0 });
      const second = posts()[1]!;
      expect(second.text).toBe(`Linen tickets Sat 7 Nov: 1 changed status, 1 new; ${open.length} open.`);
      const body = JSON.stringify(second.blocks);
      expect(body).toContain(`*${moving.ticket_number}*`);
      expect(body).toContain('In progress → *Resolved*');
      expect(body).toContain(`*${fresh.ticket_number}*`);
    });

    it('budgets: orders under the share left or expiring soon; what was spent and what cleared since', async () => {
      expect((await cmd('subscribe budgets 50% 300d')).text).toContain(
        'budgets digest (under 50% left or expiring within 300 days) daily at 07:00',
      );
      const pos = env.sandbox.data.purchase_orders;
      const daysTo = (iso: string) =>
        Math.round((Date.parse(`${localDay(iso, TZ)}T12:00:00Z`) - Date.parse('2026-11-05T12:00:00Z')) / 86_400_000);
      const flagged = pos.filter(
        (p) => p.status === 'active' && (p.remaining_cents / p.total_cents < 0.5 || daysTo(p.expires_at) <= 300),
      );
      expect(flagged.length).toBe(2);
      env.clock.set('2026-11-05T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 1, quiet: 0 });
      expect(posts()[0]!.text).toBe('Linen budgets Thu 5 Nov: 2 purchase orders flagged.');
      env.clock.set('2026-11-06T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 0, quiet: 1 });

      const [spent, cleared] = flagged;
      spent!.remaining_cents -= 100_000;
      spent!.spent_cents += 100_000;
      Object.assign(cleared!, {
        remaining_cents: cleared!.total_cents,
        spent_cents: 0,
        expires_at: '2028-12-31T05:59:59.000Z',
      });
      env.clock.set('2026-11-07T13:00:05Z');
      expect(await bothTick()).toEqual({ posted: 1, quiet: 0 });
      const second = posts()[1]!;
      expect(second.text).toBe(
        'Linen budgets Sat 7 Nov: 0 newly flagged, 1 spent since, 1 no longer flagged; 1 flagged.',
      );
      const body = JSON.stringify(second.blocks);
      expect(body).toContain('$1,000.00 spent since');
      expect(body).toContain(`*${cleared!.po_number}*`);
    });

    it('all-clear: a digest with nothing changed says so instead of staying quiet', async () => {
      await cmd('subscribe tickets all-clear');
      env.clock.set('2026-11-05T13:00:05Z');
      await env.tick();
      env.clock.set('2026-11-06T13:00:05Z');
      expect((await env.tick()).outcomes).toEqual({ posted: 1 });
      expect(JSON.stringify(posts()[1]!.blocks)).toContain('No ticket changed status since the previous digest.');
      expect(replyText(await cmd('list'))).toContain('posts when nothing changed');
    });

    it('options belong to their kind; a bad share is one sentence; nothing is stored', async () => {
      expect((await cmd('subscribe receivables 20%')).text).toBe(
        'A share left or a number of days is for budgets digests; leave it out of a receivables digest.',
      );
      expect((await cmd('subscribe tickets high')).text).toBe(
        'A severity (high) is for shortfall digests; leave it out of a tickets digest.',
      );
      expect((await cmd('subscribe budgets 0%')).text).toBe('0% is not a share of a budget; give 1% to 100%.');
      expect(await env.db.store.listSubscriptions()).toEqual([]);
    });

    it('preview of each kind, for the caller only', async () => {
      const r = await cmd('preview receivables');
      expect(r.responseType).toBe('ephemeral');
      expect(r.text).toBe(`Linen receivables Thu 5 Nov: ${overdueOn('2026-11-05').length} overdue invoices.`);
      expect((await cmd('preview tickets')).text).toMatch(/^Linen tickets Thu 5 Nov: \d+ open tickets\.$/);
      expect((await cmd('preview budgets')).text).toMatch(/^Linen budgets Thu 5 Nov: \d+ purchase orders flagged\.$/);
      expect(replyText(await cmd('preview'))).toMatch(/par met \d+%/);
    });

    it('a subscription for a group covers its locations', async () => {
      await cmd('subscribe receivables daily "Mercy Health"');
      env.clock.set('2026-11-05T13:00:05Z');
      await env.tick();
      const d = env.sandbox.data;
      const mercy = d.customers.filter((c) => !c.is_group && c.name.startsWith('Mercy ')).map((c) => c.id);
      const mine = overdueOn('2026-11-05').filter((x) => mercy.includes(x.i.customer_id));
      expect(mine.length).toBeGreaterThan(0);
      expect(posts()[0]!.text).toBe(`Linen receivables Thu 5 Nov: ${mine.length} overdue invoices.`);
    });
  });
}
