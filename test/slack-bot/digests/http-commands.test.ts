/**
 * `/linen digest ...` through the bot's real HTTP receiver: signed slash commands, answers through the
 * response_url sink, the bot's own digest store (PGlite under LINEN_DATA_DIR, or PostgreSQL via DATABASE_URL)
 * and its digest worker posting to the fake Slack Web API.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../chat/digests/clock.ts';
import { dropSchema, freshSchema, PG_URL } from '../../support/digest-db.ts';
import {
  allText,
  BOT_TOKEN,
  type BotUnderTest,
  buttons,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  TZ,
} from '../../support/slack-harness.ts';

const ADMIN = 'U0ADMIN';
const OPS = 'C0OPS0001';

for (const driver of PG_URL ? (['pglite', 'pg'] as const) : (['pglite'] as const)) {
  describe(`/linen digest over HTTP (${driver})`, () => {
    let h: Harness;
    let bot: BotUnderTest;
    let schema: string | undefined;
    // Fri 20 Nov 2026, 12:00 CST: the bot's command clock (see the harness) is 18:00Z the same day.
    const clock = new ManualClock('2026-11-20T18:00:00Z');

    beforeAll(async () => {
      h = await startHarness();
      const env: Record<string, string> = {
        LINEN_ADMIN_USER_IDS: `${ADMIN},U0OTHERADMIN`,
        LINEN_DIGEST_GRACE_MINUTES: '90',
      };
      if (driver === 'pg') {
        schema = freshSchema();
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`CREATE SCHEMA ${schema}`);
        await c.end();
        const url = new URL(PG_URL!);
        url.searchParams.set('options', `-c search_path=${schema}`);
        env.DATABASE_URL = url.href;
      }
      bot = await h.startBotWith(env, { start: { digests: { clock, tickMs: 3_600_000, pacingMs: 0 } } });
      h.slack.channels.set('C0LINEN', { name: 'linen-ops-room', member: true });
      h.slack.channels.set('C0GEN0001', { name: 'general', member: false });
      h.slack.channels.set('C0RND0001', { name: 'random', member: true });
      h.slack.channels.set(OPS, { name: 'linen-ops', member: true });
    });
    afterAll(async () => {
      await h?.close();
      if (schema) await dropSchema(PG_URL!, schema);
    });

    const ask = (text: string, userId = ADMIN, channelId = 'C0LINEN') => bot.ask(text, { userId, channelId });
    const noShare = (m: Record<string, any>) => {
      expect(m.response_type).toBe('ephemeral');
      expect(buttons(m).some((b) => b.actionId === 'linen_share')).toBe(false);
    };

    it('the bot opened its store where configured and started the worker', () => {
      expect(bot.bot.database.driver).toBe(driver);
      expect(bot.bot.digests.worker).not.toBeNull();
      expect(
        bot.logs.some((l) =>
          l.includes(driver === 'pg' ? 'digests: stored in PostgreSQL' : 'digests: stored in PGlite under'),
        ),
      ).toBe(true);
      expect(bot.logs.some((l) => l.includes('(grace 90 min)'))).toBe(true);
    });

    it('subscribe -> list -> preview -> pause -> resume -> unsubscribe, with the worker posting in between', async () => {
      const sub = await ask('digest subscribe #linen-ops weekdays 06:30 "Mercy General Hospital" high');
      noShare(sub);
      const text = allText(sub);
      const id = /`(d\w+)`/.exec(text)![1]!;
      expect(text).toContain(
        `Subscribed: \`${id}\` <#${OPS}> on weekdays at 06:30 (America/Chicago), Mercy General Hospital, high severity and above.`,
      );
      expect(text).toContain('Next runs: Mon 23 Nov, 06:30 CST · Tue 24 Nov, 06:30 CST · Wed 25 Nov, 06:30 CST.');
      const stored = (await bot.bot.digests.store.getSubscription(id))!;
      expect(stored).toMatchObject({
        channelId: OPS,
        createdBy: ADMIN,
        orgId: 'T0LINEN',
        cadence: 'weekdays',
        time: '06:30',
        minSeverity: 'high',
      });
      expect(stored.keyRef).toMatch(/^key_[0-9a-f]{16}$/);

      const list = await ask('digest list', 'U0SOMEONE');
      noShare(list);
      expect(allText(list)).toContain(`\`${id}\` <#${OPS}> on weekdays at 06:30`);

      const preview = await ask(`digest preview ${id}`, 'U0SOMEONE');
      noShare(preview);
      const p = allText(preview);
      expect(preview.blocks[0].text.text).toMatch(/^Linen shortfall digest · /);
      expect(p).toContain('Mercy General Hospital');
      expect(p).not.toContain('Harborview Hotel');
      expect(p).toContain('Preview, only you can see it');

      const paused = await ask(`digest pause ${id}`);
      noShare(paused);
      expect(allText(paused)).toContain(`Paused \`${id}\``);
      expect((await bot.bot.digests.store.getSubscription(id))!.status).toBe('paused');
      const resumed = await ask(`digest resume ${id}`);
      expect(allText(resumed)).toContain('Next runs: Mon 23 Nov, 06:30 CST');

      // Monday 06:30 CST: the bot's worker posts the digest in #linen-ops, once.
      clock.set('2026-11-23T12:30:20Z');
      const tick = await bot.bot.digests.worker!.tick();
      expect(tick.outcomes).toEqual({ posted: 1 });
      const posted = h.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.params.channel === OPS);
      expect(posted).toHaveLength(1);
      // Scheduled posts go as JSON bodies (slack-bot/digests/post-message.ts).
      expect(posted[0]!.params.metadata).toMatchObject({
        event_type: 'linen_digest',
        event_payload: { subscription_id: id },
      });
      expect(String(posted[0]!.params.text)).toMatch(/^Linen digest Mon 23 Nov: \d+ open shortfall signals/);
      expect(posted[0]!.authorization).toBe('Bearer xoxb-1111-2222-linentesttoken');
      expect((await bot.bot.digests.worker!.tick()).claimed).toBe(0);

      const gone = await ask(`digest unsubscribe ${id}`);
      noShare(gone);
      expect(allText(gone)).toContain(`Unsubscribed \`${id}\`: no more digests in <#${OPS}>.`);
      expect(await bot.bot.digests.store.getSubscription(id)).toBeNull();
    });

    it('only the configured admins manage subscriptions', async () => {
      for (const cmd of [
        'digest subscribe',
        'digest pause dabcde',
        'digest resume dabcde',
        'digest unsubscribe dabcde',
      ]) {
        const m = await ask(cmd, 'U0NOTADMIN');
        noShare(m);
        expect(allText(m)).toContain('Only the Linen admins of this workspace can manage digests; ask one of them.');
      }
      expect(allText(await ask('digest subscribe', 'U0OTHERADMIN'))).toMatch(
        /Subscribed: `d\w+` <#C0LINEN> daily at 07:00/,
      );
    });

    it('a channel the bot is not in: how to invite it; a channel it cannot find: a clear sentence', async () => {
      const m = await ask('digest subscribe #general');
      noShare(m);
      expect(allText(m)).toContain(
        "I'm not a member of <#C0GEN0001>; run `/invite @Linen` in that channel, then try again.",
      );
      expect(allText(await ask('digest subscribe <#C0GEN0001|general>'))).toContain(
        'run `/invite @Linen` in that channel',
      );
      expect(allText(await ask('digest subscribe <#C0PRIV999|secret>'))).toContain(
        "I can't see <#C0PRIV999>; if it is private, run `/invite @Linen` there first.",
      );
      expect(allText(await ask('digest subscribe #does-not-exist'))).toContain(
        "I can't find a channel named #does-not-exist: check the spelling, and if it is private, run `/invite @Linen` in it first.",
      );
      expect(allText(await ask('digest subscribe #random 25:00'))).toContain('"25:00" is not a time');
      expect(allText(await ask('digest pause dnope1'))).toContain('There is no digest subscription `dnope1`');
    });

    if (driver === 'pglite') {
      it('npm start in HTTP mode opens the store and starts the worker; SIGTERM stops both cleanly', async () => {
        const dataDir = mkdtempSync(join(tmpdir(), 'linen-sigterm-'));
        const env: NodeJS.ProcessEnv = {};
        for (const [k, v] of Object.entries(process.env))
          if (!/^(SLACK_|LINEN_|PORT$|DATABASE_URL$)/.test(k)) env[k] = v;
        // As `npm start` runs it: one node process with tsx's loader, so the signal reaches the bot itself.
        const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'service', 'index.ts')], {
          env: {
            ...env,
            SLACK_BOT_TOKEN: BOT_TOKEN,
            SLACK_SIGNING_SECRET: SIGNING_SECRET,
            SLACK_API_URL: h.slack.apiUrl,
            LINEN_BASE_URL: h.sandbox.baseUrl,
            LINEN_API_KEY: 'lk_live_demo_all_access',
            LINEN_TIMEZONE: TZ,
            PORT: '0',
            LINEN_DATA_DIR: dataDir,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
        await expect.poll(() => out, { timeout: 20_000 }).toMatch(/digests: worker .* started \(grace 120 min\)/);
        expect(out).toContain(`digests: stored in PGlite under ${dataDir}`);
        expect(out).toMatch(/listening on port \d+/);
        child.kill('SIGTERM');
        expect(await exited).toBe(0);
        expect(out).toContain('stopping');
        expect(out).not.toMatch(/ERROR|lk_live_demo_all_access/);
        rmSync(dataDir, { recursive: true, force: true });
      }, 30_000);
    }

    it('help lists the digest commands; every message passed the Block Kit validator; no secret leaked', async () => {
      const help = await ask('help');
      expect(allText(help)).toContain('/linen digest subscribe [shortfall|receivables|tickets|budgets] [#channel]');
      expect(allText(await ask('digest'))).toContain('/linen digest list');
      expect(h.problems).toEqual([]);
      const everything = [
        ...bot.logs,
        ...h.slack.posts.map((p) => JSON.stringify(p.body)),
        ...h.slack.calls.map((c) => JSON.stringify(c.params)),
      ].join('\n');
      expect(everything).not.toContain('lk_live_demo_all_access');
      if (PG_URL && driver === 'pg') expect(bot.logs.join('\n')).not.toContain(PG_URL);
    });
  });
}
