/**
 * Add to Slack, then /linen connect, end to end: two workspaces install through /slack/install and
 * /slack/oauth_redirect, each admin connects the workspace's own key through the modal (with the workspace's own
 * token), each workspace sees only its own data, uninstalling one wipes its Linen keys with its installation and
 * keeps the other, and a dump of the whole database holds no Linen key in any encoding.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectNoSecretInDump } from '../../support/db-dump.ts';
import { drivers } from '../../support/digest-db.ts';
import { useInstalledWorkspaces } from '../../support/installed-workspaces.ts';
import { allText, SIGNING_SECRET } from '../../support/slack-harness.ts';
import { postEvent } from '../../support/slack-install.ts';
import { createWaiters } from '../../support/waiters.ts';
import { ADMIN, connectThroughModal } from '../../support/workspace-bot.ts';

const TEAM_A = 'T0AAA';
const TEAM_B = 'T0BBB';
const KEY_A = 'lk_live_demo_mercy_ops';
const KEY_B = 'lk_live_demo_harbor_hotel';

describe.each(drivers)('installed workspaces connect their own keys (%s)', (driver) => {
  const suite = useInstalledWorkspaces(driver, {
    workspaces: [TEAM_A, TEAM_B],
    encryptionKey: randomBytes(32).toString('base64'),
    digests: { worker: false },
  });
  let waitForLog: (re: RegExp) => Promise<string>;

  beforeAll(() => {
    const { bot } = suite;
    const { notify, waitFor } = createWaiters();
    const push = bot.logs.push.bind(bot.logs);
    bot.logs.push = (...lines) => {
      const n = push(...lines);
      notify();
      return n;
    };
    waitForLog = (re) => waitFor(() => bot.logs.find((l) => re.test(l)), 15_000, `a log line ${re}`);
  });

  it('an installed workspace that has not connected answers how to connect', async () => {
    expect((await suite.bot.ask('signals', { teamId: TEAM_A, userId: ADMIN })).text).toMatch(
      /has not connected a Linen key yet/,
    );
  });

  it("each admin connects the workspace's own key through the modal, opened with the workspace's token", async () => {
    const tokens = suite.h.slack.oauth.botTokens;
    for (const [teamId, apiKey] of [
      [TEAM_A, KEY_A],
      [TEAM_B, KEY_B],
    ] as const) {
      const ack = await connectThroughModal(suite.h, suite.bot, { teamId, apiKey });
      expect(ack.response_action).toBe('update');
      const opened = suite.h.slack.views.at(-1)!;
      expect(tokens).toContain(opened.authorization?.replace('Bearer ', ''));
      const info = suite.h.slack.calls.filter((c) => c.method === 'users.info').at(-1)!;
      expect(info.authorization).toBe(opened.authorization);
    }
    const [openedA, openedB] = suite.h.slack.views.slice(-2);
    expect(openedA!.authorization).not.toBe(openedB!.authorization);
  });

  it('each workspace sees only its own data', async () => {
    const a = allText(await suite.bot.ask('tickets', { teamId: TEAM_A, userId: ADMIN }));
    const b = allText(await suite.bot.ask('tickets', { teamId: TEAM_B, userId: ADMIN }));
    expect(a).toContain('Mercy General Hospital');
    expect(a).not.toContain('Harborview Hotel');
    expect(b).toContain('Harborview Hotel');
    expect(b).not.toContain('Mercy');
  });

  it('the database dump holds no Linen key in any encoding', async () => {
    await expectNoSecretInDump(suite.db.executor, [KEY_A, KEY_B], [/workspace_keys[\s\S]*\(T0AAA,\*,key_/]);
  });

  it('uninstalling one workspace wipes its keys with its installation and keeps the other', async () => {
    expect(await postEvent(suite.bot.url, SIGNING_SECRET, TEAM_A, { type: 'app_uninstalled' })).toBe(200);
    await waitForLog(/app_uninstalled: workspace T0AAA forgotten \(.*workspace_connections 1/);
    const keys = await suite.db.executor.query<{ team_id: string }>('SELECT team_id FROM workspace_keys');
    expect(keys.map((k) => k.team_id)).toEqual([TEAM_B]);
    const b = allText(await suite.bot.ask('tickets', { teamId: TEAM_B, userId: ADMIN }));
    expect(b).toContain('Harborview Hotel');
    expect(suite.bot.logs.join('\n')).not.toContain(KEY_A);
    expect(suite.bot.logs.join('\n')).not.toContain(KEY_B);
  });
});
