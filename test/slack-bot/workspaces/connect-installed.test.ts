/**
 * Add to Slack, then /linen connect, end to end: two workspaces install through /slack/install and
 * /slack/oauth_redirect, each admin connects the workspace's own key through the modal (with the workspace's own
 * token), each workspace sees only its own data, uninstalling one wipes its Linen keys with its installation and
 * keeps the other, and a dump of the whole database holds no Linen key in any encoding.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase, secretsIn } from '../../support/db-dump.ts';
import { drivers, openTestDb, type TestDb } from '../../support/digest-db.ts';
import { allText, type BotUnderTest, type Harness, SIGNING_SECRET, startHarness } from '../../support/slack-harness.ts';
import { addWorkspace, installWorkspace, postEvent } from '../../support/slack-install.ts';
import { createWaiters } from '../../support/waiters.ts';
import { ADMIN, connectThroughModal, knowUsers } from '../../support/workspace-bot.ts';

const TEAM_A = 'T0AAA';
const TEAM_B = 'T0BBB';
const KEY_A = 'lk_live_demo_mercy_ops';
const KEY_B = 'lk_live_demo_harbor_hotel';

describe.each(drivers)('installed workspaces connect their own keys (%s)', (driver) => {
  let h: Harness;
  let db: TestDb;
  let bot: BotUnderTest;
  let waitForLog: (re: RegExp) => Promise<string>;

  beforeAll(async () => {
    h = await startHarness();
    knowUsers(h);
    for (const t of [TEAM_A, TEAM_B]) addWorkspace(h.slack, t);
    db = await openTestDb(driver);
    await db.store.executor.query('TRUNCATE slack_installations, workspace_connections CASCADE');
    bot = await h.startBotWith(
      {
        SLACK_BOT_TOKEN: undefined,
        LINEN_API_KEY: undefined,
        SLACK_CLIENT_ID: h.slack.oauth.clientId,
        SLACK_CLIENT_SECRET: h.slack.oauth.clientSecret,
        SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
        SLACK_OAUTH_AUTHORIZE_URL: h.slack.authorizeUrl,
        LINEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      },
      { start: { digestStore: db.store, digests: { worker: false } } },
    );
    const origin = `http://127.0.0.1:${bot.bot.port}`;
    h.slack.oauth.redirectUrl = `${origin}/slack/oauth_redirect`;
    const { notify, waitFor } = createWaiters();
    const push = bot.logs.push.bind(bot.logs);
    bot.logs.push = (...lines) => {
      const n = push(...lines);
      notify();
      return n;
    };
    waitForLog = (re) => waitFor(() => bot.logs.find((l) => re.test(l)), 15_000, `a log line ${re}`);
    for (const team of [TEAM_A, TEAM_B]) expect((await installWorkspace(origin, team)).status).toBe(200);
    // Starting an embedded database (PGlite) is the slow part of this hook on a busy machine.
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    await db?.close();
  });

  it('an installed workspace that has not connected answers how to connect', async () => {
    expect((await bot.ask('signals', { teamId: TEAM_A, userId: ADMIN })).text).toMatch(
      /has not connected a Linen key yet/,
    );
  });

  it("each admin connects the workspace's own key through the modal, opened with the workspace's token", async () => {
    const tokens = h.slack.oauth.botTokens;
    for (const [teamId, apiKey] of [
      [TEAM_A, KEY_A],
      [TEAM_B, KEY_B],
    ] as const) {
      const ack = await connectThroughModal(h, bot, { teamId, apiKey });
      expect(ack.response_action).toBe('update');
      const opened = h.slack.views.at(-1)!;
      expect(tokens).toContain(opened.authorization?.replace('Bearer ', ''));
      const info = h.slack.calls.filter((c) => c.method === 'users.info').at(-1)!;
      expect(info.authorization).toBe(opened.authorization);
    }
    const [openedA, openedB] = h.slack.views.slice(-2);
    expect(openedA!.authorization).not.toBe(openedB!.authorization);
  });

  it('each workspace sees only its own data', async () => {
    const a = allText(await bot.ask('tickets', { teamId: TEAM_A, userId: ADMIN }));
    const b = allText(await bot.ask('tickets', { teamId: TEAM_B, userId: ADMIN }));
    expect(a).toContain('Mercy General Hospital');
    expect(a).not.toContain('Harborview Hotel');
    expect(b).toContain('Harborview Hotel');
    expect(b).not.toContain('Mercy');
  });

  it('the database dump holds no Linen key in any encoding', async () => {
    const dump = await dumpDatabase(db.store.executor);
    expect(dump).toMatch(/workspace_keys[\s\S]*\(T0AAA,\*,key_/);
    expect(secretsIn(dump, [KEY_A, KEY_B])).toEqual([]);
  });

  it('uninstalling one workspace wipes its keys with its installation and keeps the other', async () => {
    expect(await postEvent(bot.url, SIGNING_SECRET, TEAM_A, { type: 'app_uninstalled' })).toBe(200);
    await waitForLog(/app_uninstalled: workspace T0AAA forgotten \(.*workspace_connections 1/);
    const keys = await db.store.executor.query<{ team_id: string }>('SELECT team_id FROM workspace_keys');
    expect(keys.map((k) => k.team_id)).toEqual([TEAM_B]);
    const b = allText(await bot.ask('tickets', { teamId: TEAM_B, userId: ADMIN }));
    expect(b).toContain('Harborview Hotel');
    expect(bot.logs.join('\n')).not.toContain(KEY_A);
    expect(bot.logs.join('\n')).not.toContain(KEY_B);
  });
});
