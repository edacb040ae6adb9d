/**
 * Digests against the sandbox over HTTP and a fake Slack on loopback, on PGlite and on PostgreSQL: a digest too
 * long for one message, the Slack errors that stop a subscription (and tell its creator once), transient errors
 * given up after a few attempts, a key reference no longer configured, and `#channel` arguments.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import type { DigestCommandContext } from '../../../chat/digests/digest-answers.ts';
import type { Logger } from '../../../chat/digests/engine.ts';
import { inScope } from '../../../chat/digests/kinds/shortfall.ts';
import type { InventorySignal } from '../../../sandbox/model.ts';
import { drivers } from '../../support/digest-db.ts';
import {
  CH,
  commandContext,
  type DigestEnv,
  replyText,
  slackDigestCommand,
  startDigestEnv,
  TZ,
  USER,
} from '../../support/digest-env.ts';
import { validateMessage } from '../../support/slack-blockkit.ts';

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m, d) => lines.push(`info ${m} ${JSON.stringify(d ?? {})}`),
    warn: (m, d) => lines.push(`warn ${m} ${JSON.stringify(d ?? {})}`),
  };
}

for (const driver of drivers) {
  describe(`digest delivery problems on ${driver}`, () => {
    let env: DigestEnv;
    let ctx: DigestCommandContext;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
      ctx = commandContext(env);
    });
    afterEach(() => env.close());
    const cmd = (s: string, over: Partial<DigestCommandContext> = {}) => slackDigestCommand(s, { ...ctx, ...over });
    const all = replyText;
    const postsTo = (channel: string) =>
      env.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.body.channel === channel);

    it('a digest too long for one message stays within Block Kit limits and summarises the rest with counts', async () => {
      const data = env.sandbox.data;
      const template = data.signals.find((s) => s.kind === 'shortfall_streak' && s.status === 'open')!;
      const customers = data.customers;
      const severities = ['high', 'medium', 'low'] as const;
      for (let i = 0; i < 600; i++) {
        const c = customers[i % customers.length]!;
        const dept = c.departments[i % Math.max(1, c.departments.length)] ?? null;
        const extra: InventorySignal = {
          ...template,
          id: `${template.id}x${i}`,
          kind: i % 5 === 0 ? 'circulation_breach' : 'shortfall_streak',
          severity: severities[i % 3]!,
          customer_id: c.id,
          department_id: i % 5 === 0 ? null : (dept?.id ?? null),
          item_id: `item_bulk_${i}`,
          item_name: `Bulk item ${i} & co <!here>`,
          suggested_order_qty: i % 5 === 0 ? 10 + i : null,
          summary: `Bulk item ${i} under 80% of par for ${3 + (i % 9)} straight days at ${c.name}; ${'a long explanation that keeps going '.repeat(4)}@channel`,
        };
        data.signals.push(extra);
      }
      await cmd('subscribe');
      env.clock.set('2026-11-05T13:00:05Z');
      expect((await env.tick()).outcomes).toEqual({ posted: 1 });
      const [msg] = env.slack.posts(CH);
      expect(validateMessage({ text: msg!.text, blocks: msg!.blocks })).toEqual([]);
      expect(msg!.blocks.length).toBeLessThanOrEqual(50);
      const blocks = msg!.blocks as { type: string; text?: { text: string }; elements?: { text: string }[] }[];
      for (const b of blocks) if (b.text) expect(b.text.text.length).toBeLessThanOrEqual(3000);

      const open = data.signals.filter((s) =>
        inScope(s as never, { customerIds: [], minSeverity: 'low', allClear: false, timeZone: TZ }),
      );
      expect(msg!.text).toContain(`${open.length} open shortfall signals`);
      const listed = blocks
        .filter((b) => b.type === 'section')
        .flatMap((b) => b.text!.text.split('\n'))
        .filter((l) => /^:(red_circle|large_orange_circle|white_circle):/.test(l));
      const summary = blocks
        .flatMap((b) => b.elements ?? [])
        .map((e) => e.text)
        .find((t) => t.startsWith('…and '));
      const m = /^…and (\d+) more signals \((\d+) high, (\d+) medium, (\d+) low\) across (\d+) customers?\.$/.exec(
        summary ?? '',
      );
      expect(m, summary).not.toBeNull();
      const [left, high, medium, low] = m!.slice(1, 5).map(Number);
      expect(high! + medium! + low!).toBe(left);
      // Every signal here has a group of its own: the lines shown plus the count left out are all of them.
      expect(listed.length + left!).toBe(open.length);
      expect(listed.length).toBeGreaterThan(10);
      // API text stays inert, even cut short.
      expect(JSON.stringify(msg!.blocks)).not.toMatch(/<!here>|(?<!\u200b)@channel/);
      // What the digest showed is recorded in full (the next digest's changes are computed against all of it).
      const runs = await env.db.store.listRuns({ status: 'posted' });
      expect(
        (await env.db.store.previousDigest(runs[0]!.subscriptionId, new Date('2026-11-06T00:00:00Z')))!.shown,
      ).toHaveLength(open.length);
    });

    for (const code of ['channel_not_found', 'is_archived'] as const) {
      it(`${code}: the subscription is marked failing and its creator told once`, async () => {
        const logger = capture();
        const engine = env.engine({ logger });
        await cmd('subscribe');
        env.slack.failures.set(CH, code);
        env.clock.set('2026-11-05T13:00:00Z');
        expect((await env.tick(engine)).outcomes).toEqual({ failed: 1 });
        const [sub] = await env.db.store.listSubscriptions();
        expect(sub!.status).toBe('failing');
        expect(sub!.failureReason).toMatch(
          code === 'is_archived' ? /is archived/ : /no longer exists or the bot cannot see it/,
        );
        expect(postsTo(CH)).toHaveLength(1); // not retried
        const dms = postsTo(USER);
        expect(dms).toHaveLength(1);
        expect(String(dms[0]!.body.text)).toContain(`/linen digest resume ${sub!.id}`);
        expect(logger.lines.some((l) => l.includes('subscription failing') && l.includes(code))).toBe(true);
        env.clock.set('2026-11-06T13:00:00Z');
        expect(await env.tick(engine)).toMatchObject({ claimed: 0 });
        expect(postsTo(CH)).toHaveLength(1);
        expect(postsTo(USER)).toHaveLength(1);
        expect((await env.db.store.listRuns()).map((r) => [r.status, r.error])).toEqual([['failed', code]]);
        // Resuming checks the channel again and says what is wrong.
        expect((await cmd(`resume ${sub!.id}`)).text).toMatch(
          code === 'is_archived' ? /is archived; pick another channel/ : /I can't see <#C0DIGEST1>/,
        );
      });
    }

    for (const code of ['invalid_auth', 'token_revoked'] as const) {
      it(`${code}: failing, the creator cannot be told (logged), and nothing is retried`, async () => {
        const logger = capture();
        const engine = env.engine({ logger });
        await cmd('subscribe');
        await cmd('subscribe 08:00');
        env.slack.authError = code;
        env.clock.set('2026-11-05T14:00:00Z');
        expect((await env.tick(engine)).outcomes).toEqual({ failed: 2 });
        const subs = await env.db.store.listSubscriptions();
        expect(subs.map((s) => s.status)).toEqual(['failing', 'failing']);
        expect(subs[0]!.failureReason).toBe('the bot token was revoked or is no longer valid; reinstall the app');
        // One post attempt per digest, one DM attempt per subscription (refused too), then nothing more.
        expect(postsTo(CH)).toHaveLength(2);
        expect(postsTo(USER)).toHaveLength(2);
        expect(
          logger.lines.filter((l) => l.startsWith('warn could not tell the creator') && l.includes(code)),
        ).toHaveLength(2);
        const calls = env.slack.calls.length;
        for (const at of [
          '2026-11-05T16:00:00Z',
          '2026-11-06T13:00:00Z',
          '2026-11-06T14:00:00Z',
          '2026-11-07T14:00:00Z',
        ]) {
          env.clock.set(at);
          expect(await env.tick(engine)).toMatchObject({ materialized: 0, claimed: 0 });
        }
        expect(env.slack.calls.length).toBe(calls);
      });
    }

    it('transient errors are retried a few times, then the run is marked failed (the subscription stays active)', async () => {
      const engine = env.engine({ retry: { retries: 2, baseDelayMs: 1 }, maxAttempts: 3, retryDelayMs: 60_000 });
      await cmd('subscribe');
      env.slack.serverErrors.count = 1_000;
      env.clock.set('2026-11-05T13:00:00Z');
      const outcomes = [];
      for (let i = 0; i < 4; i++) {
        outcomes.push((await env.tick(engine)).outcomes);
        env.clock.advance(61_000);
      }
      expect(outcomes).toEqual([{ retry: 1 }, { retry: 1 }, { retry: 1 }, { failed: 1 }]);
      expect(postsTo(CH)).toHaveLength(9); // 3 attempts of 1 + 2 retries each
      const [run] = await env.db.store.listRuns();
      expect(run!.status).toBe('failed');
      expect(run!.error).toMatch(/^gave up after 3 attempts: Slack /);
      expect((await env.db.store.listSubscriptions())[0]!.status).toBe('active');
      expect(postsTo(USER)).toHaveLength(0);
      // Slack recovers: the next morning's digest goes out.
      env.slack.serverErrors.count = 0;
      env.clock.set('2026-11-06T13:00:00Z');
      expect((await env.tick(engine)).outcomes).toEqual({ posted: 1 });
    });

    it('a subscription whose key reference matches no configured key: reported clearly, not retried', async () => {
      const gone = keyRefOf('lk_live_rotated_away_key');
      const r = await cmd('subscribe', { keyRef: gone });
      const id = /`(d\w+)`/.exec(r.text)![1]!;
      await cmd('subscribe 08:00');
      expect(all(await cmd('list'))).toContain(
        `\`${id}\` <#${CH}> daily at 07:00 (America/Chicago), all customers, every severity · *was set up with a Linen API key that is no longer configured`,
      );
      expect((await cmd(`preview ${id}`)).text).toBe(
        `\`${id}\` was set up with a Linen API key that is no longer configured; unsubscribe it and subscribe again with the current key.`,
      );
      env.clock.set('2026-11-05T14:00:00Z');
      expect((await env.tick()).outcomes).toEqual({ failed: 1, posted: 1 });
      const sub = (await env.db.store.getSubscription(id))!;
      expect(sub.status).toBe('failing');
      expect(sub.failureReason).toMatch(/Linen API key it was set up with is no longer configured/);
      const dm = postsTo(USER);
      expect(dm).toHaveLength(1);
      expect(String(dm[0]!.body.text)).toContain('no longer configured');
      expect(String(dm[0]!.body.text)).not.toContain('lk_live');
      expect((await cmd(`resume ${id}`)).text).toContain('no longer configured');
      env.clock.set('2026-11-06T14:00:00Z');
      expect(await env.tick()).toMatchObject({ claimed: 1, outcomes: { posted: 1 } }); // only the other one
    });

    it('#channel arguments: a link, an id, or a bare name looked up page by page; a clear sentence when not found', async () => {
      for (const [name, id] of [
        ['general', 'C0GEN0001'],
        ['random', 'C0RND0001'],
        ['old-ops', 'C0OLD0001'],
        ['linen-ops', 'C0OPS0001'],
        ['secret-ops', 'G0SEC0001'],
      ]) {
        env.slack.channels.set(name!, { id: id!, archived: name === 'old-ops' });
        env.slack.members.add(id!);
      }
      expect((await cmd('subscribe #linen-ops weekdays 06:30')).text).toMatch(
        /^Subscribed: `d\w+` <#C0OPS0001> on weekdays at 06:30/,
      );
      expect((await cmd('subscribe #secret-ops')).text).toMatch(/^Subscribed: `d\w+` <#G0SEC0001> daily/);
      expect((await cmd('subscribe <#C0GEN0001|general> high')).text).toMatch(
        /^Subscribed: `d\w+` <#C0GEN0001> daily at 07:00 .*high severity and above/,
      );
      expect((await cmd('subscribe C0RND0001')).text).toMatch(/^Subscribed: `d\w+` <#C0RND0001>/);
      expect((await cmd('subscribe #nowhere')).text).toBe(
        "I can't find a channel named #nowhere: check the spelling, and if it is private, run `/invite @Linen` in it first.",
      );
      expect((await cmd('subscribe #old-ops')).text).toMatch(/can't find a channel named #old-ops/);
      expect((await cmd('subscribe #Bad!Name')).text).toMatch(/is not a channel name/);
      const lists = env.slack.calls.filter((c) => c.method === 'conversations.list');
      expect(lists.every((c) => c.body.types === 'public_channel,private_channel')).toBe(true);
      expect(lists.some((c) => c.body.cursor)).toBe(true); // followed the pages
      expect((await env.db.store.listSubscriptions()).map((s) => s.channelId).sort()).toEqual([
        'C0GEN0001',
        'C0OPS0001',
        'C0RND0001',
        'G0SEC0001',
      ]);
    });
  });
}
