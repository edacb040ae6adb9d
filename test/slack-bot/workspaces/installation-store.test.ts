import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../base/secrets/crypto.ts';
import { reencryptAll } from '../../../base/secrets/reencrypt.ts';
import { forgetOrganization, forgetWorkspace } from '../../../chat/connections/forget.ts';
import { SEALED_COLUMNS } from '../../../service/store.ts';
import { SqlInstallationStore } from '../../../slack-bot/workspaces/installation-store.ts';
import { expectNoSecretInDump, secretsIn } from '../../support/db-dump.ts';
import { drivers, openTestDb, subscribeWorkspace, type TestDb } from '../../support/digest-db.ts';

const newKey = () => randomBytes(32).toString('base64');

function workspaceInstall(teamId: string, token: string, enterpriseId?: string): Installation<'v2', false> {
  return {
    team: { id: teamId, name: `Team ${teamId}` },
    enterprise: enterpriseId ? { id: enterpriseId } : undefined,
    user: { id: 'U0ADMIN', token: `xoxp-user-${token}`, scopes: undefined },
    bot: {
      id: 'B0BOT',
      userId: 'U0BOT',
      scopes: ['commands', 'chat:write'],
      token: `xoxb-${token}`,
      refreshToken: `xoxe-1-refresh-${token}`,
      expiresAt: 1_900_000_000,
    },
    appId: 'A0LINEN',
    tokenType: 'bot',
    isEnterpriseInstall: false,
    authVersion: 'v2',
  };
}

describe.each(drivers)('installation store on %s', (driver) => {
  let db: TestDb;
  // One database for the suite (PGlite takes a while to start on a busy machine), emptied before each test.
  beforeAll(async () => {
    db = await openTestDb(driver);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  async function setup(box = new SecretBox({ current: newKey() })) {
    await db.executor.query('TRUNCATE slack_installations, digest_run_shown, digest_runs, digest_subscriptions');
    return { box, store: new SqlInstallationStore({ db: db.executor, box }) };
  }

  it('fetches each workspace its own installation, with its refresh token and expiry', async () => {
    const { store } = await setup();
    await store.storeInstallation(workspaceInstall('T0AAA', 'aaa-token-1234567890'));
    await store.storeInstallation(workspaceInstall('T0BBB', 'bbb-token-1234567890'));
    const a = await store.fetchInstallation({ teamId: 'T0AAA', enterpriseId: undefined, isEnterpriseInstall: false });
    const b = await store.fetchInstallation({ teamId: 'T0BBB', enterpriseId: undefined, isEnterpriseInstall: false });
    expect(a.bot?.token).toBe('xoxb-aaa-token-1234567890');
    expect(a.bot?.refreshToken).toBe('xoxe-1-refresh-aaa-token-1234567890');
    expect(a.bot?.expiresAt).toBe(1_900_000_000);
    expect(b.bot?.token).toBe('xoxb-bbb-token-1234567890');
    await expect(
      store.fetchInstallation({ teamId: 'T0CCC', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow(/no installation for workspace T0CCC/);
  });

  it('a second install of a workspace replaces the first', async () => {
    const { store } = await setup();
    await store.storeInstallation(workspaceInstall('T0AAA', 'first-token-1234567890'));
    await store.storeInstallation(workspaceInstall('T0AAA', 'second-token-1234567890'));
    const a = await store.fetchInstallation({ teamId: 'T0AAA', enterpriseId: undefined, isEnterpriseInstall: false });
    expect(a.bot?.token).toBe('xoxb-second-token-1234567890');
    const rows = await db.executor.query('SELECT id FROM slack_installations');
    expect(rows).toHaveLength(1);
  });

  it('keeps an org-wide install by its enterprise, and a workspace of the organization finds it', async () => {
    const { store } = await setup();
    const org: Installation<'v2', true> = {
      ...workspaceInstall('T0IGNORED', 'org-token-1234567890'),
      team: undefined,
      enterprise: { id: 'E0ORG', name: 'Grid' },
      isEnterpriseInstall: true,
      enterpriseUrl: 'https://grid.enterprise.slack.com/',
    };
    await store.storeInstallation(org);
    const viaOrg = await store.fetchInstallation({
      enterpriseId: 'E0ORG',
      teamId: undefined,
      isEnterpriseInstall: true,
    });
    expect(viaOrg.bot?.token).toBe('xoxb-org-token-1234567890');
    const viaTeam = await store.fetchInstallation({
      teamId: 'T0INORG',
      enterpriseId: 'E0ORG',
      isEnterpriseInstall: false,
    });
    expect(viaTeam.isEnterpriseInstall).toBe(true);
    expect(await forgetOrganization(db.executor, 'E0ORG')).toEqual({ installations: 1, workspaces: [] });
    await expect(
      store.fetchInstallation({ enterpriseId: 'E0ORG', teamId: undefined, isEnterpriseInstall: true }),
    ).rejects.toThrow(/no installation for organization E0ORG/);
  });

  it('stores no token in any encoding: the dump of the whole database holds only sealed values', async () => {
    const { store } = await setup();
    const tokens = ['aaa-token-1234567890', 'bbb-token-1234567890'];
    for (const [i, t] of tokens.entries()) await store.storeInstallation(workspaceInstall(`T0${i}`, t));
    const secrets = tokens.flatMap((t) => [`xoxb-${t}`, `xoxp-user-${t}`, `xoxe-1-refresh-${t}`]);
    await expectNoSecretInDump(db.executor, secrets, ['slack_installations', 'T00']);
    // The check itself finds a token stored in clear or encoded.
    expect(secretsIn(`x${Buffer.from(`{"t":"${secrets[0]}"}`).toString('base64')}`, secrets)).toHaveLength(1);
  });

  it('forgetWorkspace deletes the workspace installation and digest subscriptions, and keeps the others', async () => {
    const { store } = await setup();
    await store.storeInstallation(workspaceInstall('T0AAA', 'aaa-token-1234567890'));
    await store.storeInstallation(workspaceInstall('T0BBB', 'bbb-token-1234567890'));
    const sub = (teamId: string) => subscribeWorkspace(db.store, teamId);
    await sub('T0AAA');
    const kept = await sub('T0BBB');
    const deleted = await forgetWorkspace(db.executor, 'T0AAA');
    expect(deleted).toEqual({
      alerts: 0,
      connection_admins: 0,
      home_follows: 0,
      teams_conversations: 0,
      slack_installations: 1,
      digest_subscriptions: 1,
      workspace_connections: 0,
    });
    expect((await db.store.listSubscriptions()).map((s) => s.id)).toEqual([kept.id]);
    const b = await store.fetchInstallation({ teamId: 'T0BBB', enterpriseId: undefined, isEnterpriseInstall: false });
    expect(b.bot?.token).toBe('xoxb-bbb-token-1234567890');
    await expect(
      store.fetchInstallation({ teamId: 'T0AAA', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow();
  });

  it('re-encrypting moves every value to the new key, and running it again moves nothing', async () => {
    const oldKey = newKey();
    const { store } = await setup(new SecretBox({ current: oldKey }));
    await store.storeInstallation(workspaceInstall('T0AAA', 'aaa-token-1234567890'));
    await store.storeInstallation(workspaceInstall('T0BBB', 'bbb-token-1234567890'));
    const rotated = new SecretBox({ current: newKey(), old: [oldKey] });
    expect(await reencryptAll(db.executor, rotated, SEALED_COLUMNS)).toEqual({
      slack_installations: 2,
      workspace_keys: 0,
    });
    expect(await reencryptAll(db.executor, rotated, SEALED_COLUMNS)).toEqual({
      slack_installations: 0,
      workspace_keys: 0,
    });
    // Only the new key is needed now.
    const onlyNew = new SqlInstallationStore({ db: db.executor, box: rotated });
    const a = await onlyNew.fetchInstallation({ teamId: 'T0AAA', enterpriseId: undefined, isEnterpriseInstall: false });
    expect(a.bot?.token).toBe('xoxb-aaa-token-1234567890');
    const rows = await db.executor.query<{ s: string }>('SELECT installation_sealed AS s FROM slack_installations');
    for (const r of rows) expect(r.s.split('.')[1]).toBe(rotated.currentKeyId);
  });
});
