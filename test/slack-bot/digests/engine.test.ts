import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../base/store/migrate.ts';
import type { DigestCommandContext } from '../../../chat/digests/digest-answers.ts';
import { SERVICE_MIGRATIONS } from '../../../service/store.ts';
import { drivers } from '../../support/digest-db.ts';
import {
  CH,
  commandContext,
  type DigestEnv,
  replyText,
  slackDigestCommand,
  startDigestEnv,
  USER,
} from '../../support/digest-env.ts';
import { SEEDED_DIGEST } from '../../support/seeded-figures.ts';

for (const driver of drivers) {
  describe(`digests on ${driver}`, () => {
    let env: DigestEnv;
    let ctx: DigestCommandContext;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
      ctx = commandContext(env);
    });
    afterEach(() => env.close());
    const cmd = (s: string, over: Partial<DigestCommandContext> = {}) => slackDigestCommand(s, { ...ctx, ...over });
    const shown = replyText;

    it('subscribe with no argument: this channel, daily at 07:00, every customer and severity, and the next three runs', async () => {
      const r = await cmd('subscribe');
      expect(r.text).toMatch(
        /^Subscribed: `d\w+` <#C0DIGEST1> daily at 07:00 \(America\/Chicago\), all customers, every severity/,
      );
      expect(r.text).toContain('Next runs: Thu 5 Nov, 07:00 CST · Fri 6 Nov, 07:00 CST · Sat 7 Nov, 07:00 CST');
    });

    it('subscribe reads days, a time, quoted and unquoted customers and a severity in one line', async () => {
      const r = await cmd('subscribe mon,wed,fri 06:30 "Mercy General Hospital" harborview hotel high');
      expect(r.text).toContain('on mon, wed, fri at 06:30');
      expect(r.text).toContain('Mercy General Hospital, Harborview Hotel, high severity and above');
      const [stored] = await env.db.store.listSubscriptions();
      expect(stored).toMatchObject({ cadence: 'mon,wed,fri', time: '06:30', minSeverity: 'high' });
      expect(stored!.customerIds).toHaveLength(2);
    });

    it('subscribe answers a bad day, a bad time and an unknown customer in one sentence each, and stores nothing', async () => {
      expect((await cmd('subscribe mon,funday')).text).toBe(
        '"funday" is not a day; use mon, tue, wed, thu, fri, sat or sun (for example mon,wed,fri).',
      );
      expect((await cmd('subscribe 25:00')).text).toBe(
        '"25:00" is not a time; use HH:MM on a 24-hour clock, from 00:00 to 23:59.',
      );
      expect((await cmd('subscribe Nowhere Clinic')).text).toBe(
        'No customer named "Nowhere Clinic" is visible to this key.',
      );
      expect(await env.db.store.listSubscriptions()).toEqual([]);
    });

    it('subscribe to a channel the bot is not in says how to invite it', async () => {
      expect((await cmd('subscribe <#C0OTHER|ops>')).text).toBe(
        "I'm not a member of <#C0OTHER>; run `/invite @Linen` in that channel, then try again.",
      );
    });

    it('managing a subscription that does not exist says how to list them', async () => {
      expect((await cmd('pause dzzzzz')).text).toBe(
        'There is no digest subscription `dzzzzz`; `/linen digest list` shows them.',
      );
    });

    it('only the configured admins may subscribe', async () => {
      expect((await cmd('subscribe', { adminUserIds: ['U0ADMIN'] })).text).toMatch(/Only the Linen admins/);
    });

    it('list shows each subscription with its channel and schedule', async () => {
      await cmd('subscribe');
      const [sub] = await env.db.store.listSubscriptions();
      expect(shown(await cmd('list'))).toContain(`\`${sub!.id}\` <#${CH}> daily at 07:00`);
    });

    it('pause and resume move the subscription between paused and active', async () => {
      await cmd('subscribe');
      const [sub] = await env.db.store.listSubscriptions();
      expect((await cmd(`pause ${sub!.id}`)).text).toContain('Paused');
      expect((await env.db.store.getSubscription(sub!.id))!.status).toBe('paused');
      expect((await cmd(`resume ${sub!.id}`)).text).toContain('Next runs:');
      expect((await env.db.store.getSubscription(sub!.id))!.status).toBe('active');
    });

    it('unsubscribe deletes the subscription', async () => {
      await cmd('subscribe');
      const [sub] = await env.db.store.listSubscriptions();
      expect((await cmd(`unsubscribe ${sub!.id}`)).text).toContain('Unsubscribed');
      expect(await env.db.store.getSubscription(sub!.id)).toBeNull();
    });

    it('preview builds the digest for the caller only, from the seeded signals', async () => {
      const preview = await cmd('preview');
      expect(preview.responseType).toBe('ephemeral');
      const { signals, highSignals, suggestedOrderPieces } = SEEDED_DIGEST;
      expect(preview.text).toContain(
        `Linen digest Thu 5 Nov: ${signals} open shortfall signals (${highSignals} high), ${suggestedOrderPieces} pieces suggested to order`,
      );
    });

    it('migrations are recorded once and re-running them is a no-op', async () => {
      const again = await env.db.another();
      expect(again).toBeTruthy();
      expect(await migrate(env.db.executor, SERVICE_MIGRATIONS)).toEqual([]);
    });

    it('posts the digest at 07:00, then what changed since: new and no-longer-open signals, with fill rates', async () => {
      await cmd('subscribe');
      env.clock.set('2026-11-05T12:59:00Z');
      expect((await env.tick()).claimed).toBe(0);
      env.clock.set('2026-11-05T13:00:05Z');
      const t1 = await env.tick();
      expect(t1).toMatchObject({ claimed: 1, signalFetches: 1, outcomes: { posted: 1 } });
      const first = env.slack.posts(CH)[0]!;
      expect(first.metadata?.event_payload.run_id).toBeTruthy();
      const body = JSON.stringify(first.blocks);
      const seeded = SEEDED_DIGEST;
      expect(body).toContain(`${seeded.streak.item} at ${seeded.streak.department}`);
      expect(body).toContain(`order ${seeded.breach.suggestedOrder}`);
      expect(body).toContain(seeded.ampersandDepartment.replace('&', '&amp;')); // API text escaped for mrkdwn
      expect(body).toMatch(/yesterday \d+% of par/);
      expect(first.blocks.length).toBeLessThanOrEqual(50);

      // Next day: one signal resolved, one dismissed, a new one appears.
      const signals = env.sandbox.data.signals;
      const streak = signals.find((s) => s.kind === 'shortfall_streak' && s.status === 'open')!;
      const breach = signals.find((s) => s.kind === 'circulation_breach' && s.status === 'open')!;
      streak.status = 'resolved';
      breach.status = 'dismissed';
      const reopened = signals.find((s) => s.kind === 'circulation_breach' && s.status === 'resolved')!;
      reopened.status = 'open';
      reopened.summary = `${reopened.summary} <!channel>`;
      env.clock.set('2026-11-06T13:00:30Z');
      const t2 = await env.tick();
      expect(t2.outcomes).toEqual({ posted: 1 });
      const second = env.slack.posts(CH)[1]!;
      expect(second.text).toContain('1 new, 2 no longer open');
      const b2 = JSON.stringify(second.blocks);
      expect(b2).toContain('No longer open');
      expect(b2).toContain(streak.summary.replace('&', '&amp;'));
      expect(b2).toContain('&lt;!channel&gt;');
      const runs = await env.db.store.listRuns({ status: 'posted' });
      expect(runs).toHaveLength(2);
      expect(
        (await env.db.store.previousDigest(runs[0]!.subscriptionId, new Date('2026-11-07T00:00:00Z')))!.shown.map(
          (s) => s.signalId,
        ),
      ).toContain(reopened.id);
    });

    it('stays quiet with nothing open and nothing changed, unless all-clear is asked for', async () => {
      for (const s of env.sandbox.data.signals) s.status = 'resolved';
      await cmd('subscribe');
      await cmd('subscribe all-clear');
      env.clock.set('2026-11-05T13:01:00Z');
      expect((await env.tick()).outcomes).toEqual({ quiet: 1, posted: 1 });
      expect(env.slack.posts(CH)[0]!.text).toContain('all clear');
    });

    it('two replicas claiming at once post each digest once; a dead replica is taken over without a double post', async () => {
      for (let i = 0; i < 6; i++)
        await cmd(`subscribe <#C0CH${i}|c${i}>`).then((r) => expect(r.text).toMatch(/not a member/));
      for (let i = 0; i < 6; i++) env.slack.members.add(`C0CH${i}`);
      for (let i = 0; i < 6; i++) await cmd(`subscribe <#C0CH${i}|c${i}>`);
      const other = env.engine({ workerId: 'w-other', store: (await env.db.another()).store });
      env.clock.set('2026-11-05T13:00:00Z');
      const [a, b] = await Promise.all([env.tick(), env.tick(other)]);
      expect((a.outcomes.posted ?? 0) + (b.outcomes.posted ?? 0)).toBe(6);
      expect(env.slack.posts()).toHaveLength(6);

      // Next morning a replica posts, then dies before recording it.
      const hung: (() => void)[] = [];
      const dying = env.engine({
        workerId: 'w-dying',
        leaseMs: 60_000,
        hooks: { afterPost: () => new Promise<void>((r) => hung.push(r)) },
      });
      env.clock.set('2026-11-06T13:00:00Z');
      const stuck = env.tick(dying);
      await expect.poll(() => env.slack.posts().length, { timeout: 5000 }).toBeGreaterThanOrEqual(7);
      await new Promise((r) => setTimeout(r, 300));
      const postedBeforeDeath = env.slack.posts().length;
      expect(postedBeforeDeath).toBe(12); // posted in every channel, none recorded
      expect(await env.tick(other)).toMatchObject({ claimed: 0 }); // lease still held
      env.clock.set('2026-11-06T13:01:30Z'); // lease expired
      const rescue = await env.tick(other);
      expect(rescue.outcomes).toEqual({ recovered: 6 });
      for (const r of hung) r();
      expect((await stuck).outcomes).toEqual({ lost: 6 }); // its late writes are refused
      const byRun = new Map<string, number>();
      for (const m of env.slack.posts())
        byRun.set(
          String(m.metadata!.event_payload.run_id),
          (byRun.get(String(m.metadata!.event_payload.run_id)) ?? 0) + 1,
        );
      expect([...byRun.values()].every((n) => n === 1)).toBe(true);
      expect(byRun.size).toBe(12);
      expect((await env.db.store.listRuns({ status: 'posted' })).length).toBe(12);
    });

    it('catches up after downtime: within the grace period sent late, older ones skipped', async () => {
      await cmd('subscribe');
      await cmd('subscribe 09:00');
      env.clock.set('2026-11-08T16:30:00Z'); // 10:30 CST on Sun 8 Nov: 07:00 missed by 3.5 h, 09:00 by 1.5 h
      const t = await env.tick();
      expect(t.skippedAtMaterialize).toBe(7); // 07:00 on 5-8 Nov, 09:00 on 5-7 Nov
      expect(t.outcomes).toEqual({ posted: 1 });
      const runs = await env.db.store.listRuns();
      expect(runs.filter((r) => r.status === 'skipped')).toHaveLength(7);
      expect(runs.find((r) => r.status === 'posted')!.scheduledFor.toISOString()).toBe('2026-11-08T15:00:00.000Z');
    });

    it('not_in_channel marks the subscription failing and tells its creator once; rate limits are waited out', async () => {
      await cmd('subscribe');
      await cmd('subscribe <#C0RATE|r>').then(() => env.slack.members.add('C0RATE'));
      await cmd('subscribe <#C0RATE|r>');
      env.slack.failures.set(CH, 'not_in_channel');
      env.slack.rateLimit = { count: 1, retryAfter: 1 };
      env.clock.set('2026-11-05T13:00:00Z');
      const started = Date.now();
      const t = await env.tick();
      expect(t.outcomes).toEqual({ failed: 1, posted: 1 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      const subs = await env.db.store.listSubscriptions({ channelId: CH });
      expect(subs[0]!.status).toBe('failing');
      expect(subs[0]!.failureReason).toMatch(/invite it with `\/invite @Linen`/);
      const dms = () => env.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.body.channel === USER);
      expect(dms()).toHaveLength(1);
      env.clock.set('2026-11-06T13:00:00Z');
      expect((await env.tick()).outcomes).toEqual({ posted: 1 });
      expect(dms()).toHaveLength(1);
      expect(shown(await cmd('list'))).toContain('*failing*');
    });
  });
}
