/**
 * Digests in installed workspaces, end to end: two workspaces install through /slack/install and
 * /slack/oauth_redirect, each connects its own key and subscribes a digest in a channel, and the worker posts each
 * digest with its own workspace's bot token (never the other's), refreshes a rotating token that has expired before
 * it posts, searches a channel's history and tells a creator with the workspace's own token, and stops a
 * subscription whose workspace has no installation any more without posting it. A workspace of an Enterprise Grid
 * organization that installed the app org-wide posts with the organization's token, and goes with the organization.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../base/secrets/crypto.ts';
import { ManualClock } from '../../../chat/digests/clock.ts';
import { SqlInstallationStore } from '../../../slack-bot/workspaces/installation-store.ts';
import { drivers } from '../../support/digest-db.ts';
import { useInstalledWorkspaces } from '../../support/installed-workspaces.ts';
import { allText, SIGNING_SECRET } from '../../support/slack-harness.ts';
import { postEvent } from '../../support/slack-install.ts';
import { ADMIN, connectThroughModal } from '../../support/workspace-bot.ts';

const TEAM_A = 'T0AAA';
const TEAM_B = 'T0BBB';
const KEY_A = 'lk_live_demo_mercy_ops';
const KEY_B = 'lk_live_demo_harbor_hotel';
/** An Enterprise Grid organization that installed the app org-wide (from T0GRID), and one of its workspaces. */
const GRID = { installedFrom: 'T0GRID', enterpriseId: 'E0GRID', workspace: 'T0GRIDWS' };

describe.each(drivers)('digests in installed workspaces (%s)', (driver) => {
  const encryptionKey = randomBytes(32).toString('base64');
  // The digest worker's clock: Fri 20 Nov 2026, 12:00 CST, as the harness's command clock.
  const clock = new ManualClock('2026-11-20T18:00:00Z');
  const suite = useInstalledWorkspaces(driver, {
    workspaces: [TEAM_A, TEAM_B, { teamId: GRID.installedFrom, enterpriseId: GRID.enterpriseId, orgWide: true }],
    encryptionKey,
    digests: { clock, tickMs: 3_600_000, pacingMs: 0 },
    // Each key carries its own timezone; the connect form suggests the admin's own from Slack.
    env: { LINEN_TIMEZONE: undefined },
  });

  /** The workspace a token was issued to, as Slack knows it. */
  const teamOfToken = (authorization: string | undefined) =>
    suite.h.slack.oauth.authTest(authorization?.replace(/^Bearer /, '') ?? '')?.team_id;
  const callsTo = (method: string, channel: string, since: number) =>
    suite.h.slack.calls.slice(since).filter((c) => c.method === method && c.params.channel === channel);
  /** Subscribes a tickets digest in a new channel of the workspace (its first digest is never quiet). */
  const subscribe = async (teamId: string, channelId: string, enterpriseId?: string) => {
    suite.h.slack.channels.set(channelId, { name: channelId.toLowerCase(), member: true });
    const answer = await suite.bot.ask('digest subscribe tickets', { teamId, channelId, userId: ADMIN, enterpriseId });
    expect(allText(answer)).toMatch(/Subscribed/);
  };
  const tickAt = (iso: string) => {
    clock.set(iso);
    return suite.bot.bot.digests.worker!.tick();
  };

  beforeAll(async () => {
    for (const [teamId, apiKey] of [
      [TEAM_A, KEY_A],
      [TEAM_B, KEY_B],
    ] as const) {
      expect((await connectThroughModal(suite.h, suite.bot, { teamId, apiKey })).response_action).toBe('update');
    }
  });

  it("each workspace's digest posts with its own workspace's bot token, never the other's", async () => {
    await subscribe(TEAM_A, 'C0AROOM01');
    await subscribe(TEAM_B, 'C0BROOM01');
    const since = suite.h.slack.calls.length;
    // Saturday 07:00 CST: both first digests are due.
    const tick = await tickAt('2026-11-21T13:00:20Z');
    expect(tick.outcomes).toEqual({ posted: 2 });
    const [postA] = callsTo('chat.postMessage', 'C0AROOM01', since);
    const [postB] = callsTo('chat.postMessage', 'C0BROOM01', since);
    expect(teamOfToken(postA?.authorization)).toBe(TEAM_A);
    expect(teamOfToken(postB?.authorization)).toBe(TEAM_B);
    expect(postA!.authorization).not.toBe(postB!.authorization);
    expect(JSON.stringify(postA!.params)).toContain('Mercy General Hospital');
    expect(JSON.stringify(postB!.params)).toContain('Harborview Hotel');
  });

  it("a workspace's expired bot token is refreshed before its digest posts", async () => {
    const installations = new SqlInstallationStore({
      db: suite.db.executor,
      box: new SecretBox({ current: encryptionKey }),
    });
    await subscribe(TEAM_A, 'C0AROOM02');
    // The token expires after the command (whose own request would have refreshed it), before the digest is due.
    const query = { teamId: TEAM_A, enterpriseId: undefined, isEnterpriseInstall: false };
    const installed = await installations.fetchInstallation(query);
    const oldToken = installed.bot!.token;
    await installations.storeInstallation({
      ...installed,
      bot: { ...installed.bot!, expiresAt: Math.floor(Date.now() / 1000) - 60 },
    });
    const since = suite.h.slack.calls.length;
    await tickAt('2026-11-22T13:00:20Z');
    const refreshes = suite.h.slack.calls
      .slice(since)
      .filter((c) => c.method === 'oauth.v2.access' && c.params.grant_type === 'refresh_token');
    expect(refreshes).toHaveLength(1);
    const [post] = callsTo('chat.postMessage', 'C0AROOM02', since);
    const newToken = (await installations.fetchInstallation(query)).bot!.token;
    expect(newToken).not.toBe(oldToken);
    expect(post?.authorization).toBe(`Bearer ${newToken}`);
    expect(teamOfToken(post?.authorization)).toBe(TEAM_A);
  });

  it("after an unsure post, the channel's history is searched with the workspace's own token", async () => {
    await subscribe(TEAM_B, 'C0BROOM02');
    // A 5xx-like answer may hide a message that went out: each retry first looks for it in the channel.
    suite.h.slack.failMethod('chat.postMessage', 'internal_error');
    try {
      const since = suite.h.slack.calls.length;
      await tickAt('2026-11-23T13:00:20Z');
      const searches = callsTo('conversations.history', 'C0BROOM02', since);
      expect(searches.length).toBeGreaterThan(0);
      expect(searches.map((c) => teamOfToken(c.authorization))).toEqual(searches.map(() => TEAM_B));
    } finally {
      suite.h.slack.failMethod('chat.postMessage', null);
    }
  });

  it("a creator is told of a stopped digest with the workspace's own token", async () => {
    await subscribe(TEAM_A, 'C0AROOM03');
    await subscribe(TEAM_B, 'C0BROOM03');
    // Every post now fails for good: each subscription stops and its creator gets a direct message.
    suite.h.slack.failMethod('chat.postMessage', 'not_in_channel');
    try {
      const since = suite.h.slack.calls.length;
      await tickAt('2026-11-24T13:00:20Z');
      const dms = suite.h.slack.calls
        .slice(since)
        .filter((c) => c.method === 'chat.postMessage' && c.params.channel === ADMIN);
      const toldIn = (channel: string) =>
        dms.filter((c) => String(c.params.text).includes(channel)).map((c) => teamOfToken(c.authorization));
      expect(toldIn('C0AROOM03')).toEqual([TEAM_A]);
      expect(toldIn('C0BROOM03')).toEqual([TEAM_B]);
    } finally {
      suite.h.slack.failMethod('chat.postMessage', null);
    }
  });

  it('a subscription whose workspace has no installation is stopped with a log line, never posted', async () => {
    await subscribe(TEAM_A, 'C0AROOM04');
    await subscribe(TEAM_B, 'C0BROOM04');
    // The installation went while the subscription stayed (an uninstall racing the worker).
    await suite.db.executor.query('DELETE FROM slack_installations WHERE team_id = $1', [TEAM_B]);
    const since = suite.h.slack.calls.length;
    await tickAt('2026-11-25T13:00:20Z');
    expect(callsTo('chat.postMessage', 'C0BROOM04', since)).toEqual([]);
    expect(
      suite.h.slack.calls.slice(since).filter((c) => c.authorization && teamOfToken(c.authorization) === TEAM_B),
    ).toEqual([]);
    expect(callsTo('chat.postMessage', 'C0AROOM04', since)).toHaveLength(1);
    const subs = await suite.db.store.listSubscriptions({ orgId: TEAM_B, channelId: 'C0BROOM04' });
    expect(subs.map((s) => s.status)).toEqual(['failing']);
    await suite.bot.waitForLog(/stopped a digest whose workspace no longer has the app installed.*T0BBB/);
    expect(suite.bot.logs.join('\n')).not.toContain(KEY_B);
  });
  it("a workspace served by its organization's org-wide install posts with the organization's token, and goes with it", async () => {
    const from = { teamId: GRID.workspace, enterpriseId: GRID.enterpriseId };
    expect((await connectThroughModal(suite.h, suite.bot, { ...from, apiKey: KEY_A })).response_action).toBe('update');
    // Without LINEN_TIMEZONE, the form offered the admin's own timezone from Slack, and the key keeps it.
    const form = suite.h.slack.views.at(-1)!.view.blocks.find((b: { block_id: string }) => b.block_id === 'timezone');
    expect(form.element.initial_value).toBe('America/Chicago');
    expect(allText(await suite.bot.ask('status', { ...from, userId: ADMIN }))).toContain('America/Chicago');
    await subscribe(GRID.workspace, 'C0GRIDROOM', GRID.enterpriseId);
    await subscribe(TEAM_A, 'C0AROOM05');
    const since = suite.h.slack.calls.length;
    await tickAt('2026-11-26T13:00:20Z');
    const [post] = callsTo('chat.postMessage', 'C0GRIDROOM', since);
    // The organization's token was issued through the workspace the org-wide install was made from.
    expect(teamOfToken(post?.authorization)).toBe(GRID.installedFrom);
    expect(JSON.stringify(post!.params)).toContain('Mercy General Hospital');

    // The organization uninstalls: the workspace it served keeps neither its key nor its digest.
    const org = { teamId: GRID.installedFrom, enterpriseId: GRID.enterpriseId, isEnterpriseInstall: true };
    expect(await postEvent(suite.bot.url, SIGNING_SECRET, org, { type: 'app_uninstalled' })).toBe(200);
    await suite.bot.waitForLog(
      /app_uninstalled: organization E0GRID forgotten \(1 installation, and the workspaces it served: T0GRIDWS\)/,
    );
    expect(await suite.db.store.listSubscriptions({ orgId: GRID.workspace })).toEqual([]);
    const keys = await suite.db.executor.query('SELECT 1 FROM workspace_keys WHERE team_id = $1', [GRID.workspace]);
    expect(keys).toEqual([]);
    // Workspaces with an installation of their own keep theirs.
    expect((await suite.db.store.listSubscriptions({ orgId: TEAM_A })).length).toBeGreaterThan(0);
  });
});
