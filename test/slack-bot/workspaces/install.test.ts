/**
 * Multi-workspace mode end to end: two workspaces install through /slack/install and /slack/oauth_redirect over
 * real HTTP (the state cookie carried like a browser), their installations stored sealed, kept across a restart,
 * one uninstalled, token rotation against the fake Slack, and a dump of the whole database without a token in it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../base/secrets/crypto.ts';
import { SqlInstallationStore } from '../../../slack-bot/workspaces/installation-store.ts';
import { expectNoSecretInDump, secretsIn } from '../../support/db-dump.ts';
import { drivers, openTestDb, subscribeWorkspace, type TestDb } from '../../support/digest-db.ts';
import { type BotUnderTest, type Harness, SIGNING_SECRET, startHarness } from '../../support/slack-harness.ts';
import { addWorkspace, installWorkspace, postCommand, postEvent } from '../../support/slack-install.ts';
import { createWaiters } from '../../support/waiters.ts';

const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const STATE_SECRET = 'state-secret-0123456789abcdef';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  for (const t of ['T0AAA', 'T0BBB']) addWorkspace(h.slack, t);
  addWorkspace(h.slack, 'T0GRID', { enterpriseId: 'E0GRID', orgWide: true });
});
afterAll(async () => {
  await h?.close();
});

function multiEnv(): Record<string, string | undefined> {
  return {
    SLACK_BOT_TOKEN: undefined,
    LINEN_API_KEY: undefined,
    SLACK_CLIENT_ID: h.slack.oauth.clientId,
    SLACK_CLIENT_SECRET: h.slack.oauth.clientSecret,
    SLACK_STATE_SECRET: STATE_SECRET,
    SLACK_OAUTH_AUTHORIZE_URL: h.slack.authorizeUrl,
    LINEN_ENCRYPTION_KEY: ENCRYPTION_KEY,
  };
}

describe.each(drivers)('multi-workspace install on %s', (driver) => {
  let db: TestDb;
  const bots: BotUnderTest[] = [];
  // One database for the suite (PGlite takes a while to start on a busy machine), emptied before each test.
  beforeAll(async () => {
    db = await openTestDb(driver);
  }, 120_000);
  afterEach(async () => {
    for (const b of bots.splice(0)) await b.stop();
  });
  afterAll(async () => {
    await db?.close();
  });

  /** A bot in multi-workspace mode on the test database, its logs observable, Slack's redirect URL set to it. */
  async function startMultiBot() {
    const bot = await h.startBotWith(multiEnv(), { start: { database: db.executor } });
    bots.push(bot);
    const origin = `http://127.0.0.1:${bot.bot.port}`;
    h.slack.oauth.redirectUrl = `${origin}/slack/oauth_redirect`;
    const { notify, waitFor } = createWaiters();
    const push = bot.logs.push.bind(bot.logs);
    bot.logs.push = (...lines) => {
      const n = push(...lines);
      notify();
      return n;
    };
    const waitForLog = (re: RegExp) => waitFor(() => bot.logs.find((l) => re.test(l)), 15_000, `a log line ${re}`);
    return { bot, origin, waitForLog };
  }

  async function freshDb() {
    await db.executor.query('TRUNCATE slack_installations, digest_run_shown, digest_runs, digest_subscriptions');
    h.slack.oauth.expiresIn = 43_200;
  }

  const installations = () =>
    new SqlInstallationStore({ db: db.executor, box: new SecretBox({ current: ENCRYPTION_KEY }) });
  const query = (teamId: string) => ({ teamId, enterpriseId: undefined, isEnterpriseInstall: false });

  /** `/linen help` from the workspace: its answer through response_url, or the log line saying it was refused. */
  async function askFrom(bot: BotUnderTest, teamId: string) {
    const sink = h.slack.responseUrl();
    const status = await postCommand(bot.url, SIGNING_SECRET, { teamId, text: 'help', responseUrl: sink.url });
    return { status, sink: sink.id };
  }

  it('installs two workspaces end to end, each with its own token, sealed, and both kept across a restart', async () => {
    await freshDb();
    const first = await startMultiBot();
    const mark = h.slack.calls.length;
    for (const team of ['T0AAA', 'T0BBB']) {
      const r = await installWorkspace(first.origin, team);
      expect(r.status).toBe(200);
      expect(r.page).toContain('Thank you!');
      expect(r.installCookies.join(';')).toMatch(/slack-app-oauth-state=[^;]+; Secure; HttpOnly/);
    }
    const exchanges = h.slack.calls.slice(mark).filter((c) => c.method === 'oauth.v2.access');
    expect(exchanges.map((c) => c.params.grant_type ?? 'code')).toEqual(['code', 'code']);

    const a = await installations().fetchInstallation(query('T0AAA'));
    const b = await installations().fetchInstallation(query('T0BBB'));
    expect(a.bot?.token).not.toBe(b.bot?.token);
    expect([a.bot?.token, b.bot?.token]).toEqual(h.slack.oauth.botTokens.slice(-2));
    expect(a.bot?.refreshToken).toBe(h.slack.oauth.refreshTokens.at(-2));
    expect(a.bot?.expiresAt).toBeGreaterThan(Date.now() / 1000 + 40_000);
    expect(a.bot?.scopes).toContain('users:read');

    await expectNoSecretInDump(
      db.executor,
      [...h.slack.oauth.botTokens, ...h.slack.oauth.refreshTokens, h.slack.oauth.clientSecret],
      [/T0AAA[\s\S]*T0BBB|T0BBB[\s\S]*T0AAA/],
    );

    // A new bot on the same database serves both workspaces.
    await first.bot.stop();
    const second = await startMultiBot();
    for (const team of ['T0AAA', 'T0BBB']) {
      const asked = await askFrom(second.bot, team);
      expect(asked.status).toBe(200);
      const [answer] = await h.slack.waitForPosts(asked.sink);
      expect(String(answer!.body.text)).not.toBe('');
    }
    expect(second.bot.logs.join('\n')).not.toMatch(/Authorization of incoming event did not succeed/);
    // Debug-level logs of both bots hold no token either.
    const secrets = [...h.slack.oauth.botTokens, ...h.slack.oauth.refreshTokens, h.slack.oauth.clientSecret];
    expect(secretsIn([...first.bot.logs, ...second.bot.logs].join('\n'), secrets)).toEqual([]);
  });

  it('refuses to finish an install whose state cookie is missing (another browser), and stores nothing', async () => {
    await freshDb();
    const { origin } = await startMultiBot();
    const calls = h.slack.calls.length;
    const r = await installWorkspace(origin, 'T0AAA', { withCookie: false });
    expect(r.status).toBe(400);
    expect(h.slack.calls.slice(calls).map((c) => c.method)).not.toContain('oauth.v2.access');
    expect(await installations().find(query('T0AAA'))).toBeUndefined();
  });

  it('app_uninstalled wipes that workspace (installation and digest subscriptions) and keeps the other', async () => {
    await freshDb();
    const { bot, origin, waitForLog } = await startMultiBot();
    for (const team of ['T0AAA', 'T0BBB']) await installWorkspace(origin, team);
    const sub = (teamId: string) => subscribeWorkspace(db.store, teamId);
    await sub('T0AAA');
    const kept = await sub('T0BBB');

    expect(await postEvent(bot.url, SIGNING_SECRET, 'T0AAA', { type: 'app_uninstalled' })).toBe(200);
    await waitForLog(/app_uninstalled: workspace T0AAA forgotten \(slack_installations 1, digest_subscriptions 1/);

    expect(await installations().find(query('T0AAA'))).toBeUndefined();
    expect((await installations().find(query('T0BBB')))?.bot?.token).toBeDefined();
    expect((await db.store.listSubscriptions()).map((s) => s.id)).toEqual([kept.id]);

    // The uninstalled workspace is no longer served; the other one is.
    await askFrom(bot, 'T0AAA');
    await waitForLog(/Authorization of incoming event did not succeed/);
    const asked = await askFrom(bot, 'T0BBB');
    await h.slack.waitForPosts(asked.sink);
  });

  it("an Enterprise Grid org-wide install serves the organization's workspaces, and its uninstall removes it", async () => {
    await freshDb();
    const { bot, origin, waitForLog } = await startMultiBot();
    const r = await installWorkspace(origin, 'T0GRID');
    expect(r.status).toBe(200);
    const org = { teamId: 'T0GRIDWS', enterpriseId: 'E0GRID', isEnterpriseInstall: true };
    const orgQuery = { teamId: undefined, enterpriseId: 'E0GRID', isEnterpriseInstall: true };
    const found = await installations().find(orgQuery);
    expect(found?.isEnterpriseInstall).toBe(true);
    expect(found?.enterpriseUrl).toBe('https://grid.enterprise.slack.com/');

    const sink = h.slack.responseUrl();
    await postCommand(bot.url, SIGNING_SECRET, { ...org, text: 'help', responseUrl: sink.url });
    await h.slack.waitForPosts(sink.id);

    expect(await postEvent(bot.url, SIGNING_SECRET, org, { type: 'app_uninstalled' })).toBe(200);
    await waitForLog(/app_uninstalled: organization E0GRID forgotten \(1 installation\)/);
    expect(await installations().find(orgQuery)).toBeUndefined();
  });

  it('tokens_revoked with the bot token wipes that workspace', async () => {
    await freshDb();
    const { bot, origin, waitForLog } = await startMultiBot();
    await installWorkspace(origin, 'T0AAA');
    const status = await postEvent(bot.url, SIGNING_SECRET, 'T0AAA', {
      type: 'tokens_revoked',
      tokens: { oauth: [], bot: ['U0BOTT0AAA'] },
    });
    expect(status).toBe(200);
    await waitForLog(/tokens_revoked: workspace T0AAA forgotten/);
    expect(await installations().find(query('T0AAA'))).toBeUndefined();
  });

  it('refreshes a bot token about to expire before using it, stores the new one sealed, and drops the old one', async () => {
    await freshDb();
    // Slack issues a token that expires within the two hours Bolt refreshes ahead of.
    h.slack.oauth.expiresIn = 3600;
    const { bot, origin } = await startMultiBot();
    await installWorkspace(origin, 'T0AAA');
    const oldToken = (await installations().fetchInstallation(query('T0AAA'))).bot!.token;
    h.slack.oauth.expiresIn = 43_200;

    // A listener that calls the Web API with the workspace's token from Bolt's authorize.
    bot.bot.slack!.app.command('/probe', async ({ ack, client }) => {
      await ack();
      await client.auth.test();
    });
    const before = h.slack.calls.length;
    const probe = () =>
      postCommand(bot.url, SIGNING_SECRET, { teamId: 'T0AAA', text: '', responseUrl: 'http://x', command: '/probe' });
    expect(await probe()).toBe(200);
    await h.slack.waitForCall('auth.test', 15_000, before);
    const refreshed = await installations().fetchInstallation(query('T0AAA'));
    const newToken = refreshed.bot!.token;
    expect(newToken).not.toBe(oldToken);
    expect(refreshed.bot!.expiresAt).toBeGreaterThan(Date.now() / 1000 + 40_000);

    const since = () => h.slack.calls.slice(before);
    const refreshes = since().filter((c) => c.method === 'oauth.v2.access');
    expect(refreshes.map((c) => c.params.grant_type)).toEqual(['refresh_token']);
    const tests = since().filter((c) => c.method === 'auth.test');
    expect(tests.map((c) => c.authorization)).toEqual([`Bearer ${newToken}`]);

    // The next request uses the new token without refreshing again.
    const mark = h.slack.calls.length;
    expect(await probe()).toBe(200);
    const next = await h.slack.waitForCall('auth.test', 15_000, mark);
    expect(next.authorization).toBe(`Bearer ${newToken}`);
    expect(h.slack.calls.slice(mark).filter((c) => c.method === 'oauth.v2.access')).toEqual([]);

    await expectNoSecretInDump(db.executor, [oldToken, newToken, ...h.slack.oauth.refreshTokens]);
    expect(secretsIn(bot.logs.join('\n'), [oldToken, newToken, ...h.slack.oauth.refreshTokens])).toEqual([]);
  });
});
