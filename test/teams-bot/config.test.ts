/**
 * Teams' settings as an operator writes them: which mode each combination starts, and one sentence naming the
 * setting at fault for each mistake, never the client secret.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, isConsoleMode, loadConfig } from '../../service/config.ts';

const SECRET = 'Qx8~averysecretclientsecretvalue000';
const TEAMS = {
  TEAMS_CLIENT_ID: '0f9d9c1e-5b1a-4c1e-9f3a-1a2b3c4d5e6f',
  TEAMS_CLIENT_SECRET: SECRET,
  TEAMS_TENANT_ID: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
};
const LINEN = {
  LINEN_BASE_URL: 'https://api.example.com/v1',
  LINEN_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
};
const SLACK_ONE = { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef' };

describe('Teams settings', () => {
  it('the three TEAMS_ settings start Teams; without LINEN_API_KEY, organizations connect their own keys', () => {
    expect(isConsoleMode(TEAMS)).toBe(false);
    const c = loadConfig({ ...TEAMS, ...LINEN });
    expect(c.slack).toBeUndefined();
    expect(c.teams).toMatchObject({
      clientId: TEAMS.TEAMS_CLIENT_ID,
      tenantId: TEAMS.TEAMS_TENANT_ID,
      openIdMetadataUrl: 'https://login.botframework.com/v1/.well-known/openidconfiguration',
      loginUrl: 'https://login.microsoftonline.com',
      adminUserIds: [],
    });
    expect(c.connected).toBe(true);
  });

  it('with LINEN_API_KEY, one organization: the operator’s key answers, no encryption key needed', () => {
    const c = loadConfig({
      ...TEAMS,
      LINEN_BASE_URL: LINEN.LINEN_BASE_URL,
      LINEN_API_KEY: 'lk_live_x',
      LINEN_TIMEZONE: 'UTC',
    });
    expect(c.connected).toBe(false);
  });

  it('with Slack settings too, one process serves both', () => {
    const c = loadConfig({ ...TEAMS, ...SLACK_ONE, ...LINEN, LINEN_API_KEY: 'lk_live_x', LINEN_TIMEZONE: 'UTC' });
    expect(c.slack).toBeDefined();
    expect(c.teams).toBeDefined();
  });

  it('reads TEAMS_ADMIN_USER_IDS as Entra object ids or Teams user ids', () => {
    const ids = ['1d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a', '29:1AbC-dEf_123'];
    expect(
      loadConfig({ ...TEAMS, ...LINEN, TEAMS_ADMIN_USER_IDS: ` ${ids.join(' , ')} ` }).teams?.adminUserIds,
    ).toEqual(ids);
  });

  const cases: [Record<string, string>, RegExp][] = [
    [{ TEAMS_CLIENT_ID: TEAMS.TEAMS_CLIENT_ID }, /^TEAMS_CLIENT_SECRET is not set/],
    [{ ...TEAMS, TEAMS_TENANT_ID: '' }, /^TEAMS_TENANT_ID is not set/],
    [
      { ...TEAMS, TEAMS_CLIENT_ID: 'linen-bot' },
      /^TEAMS_CLIENT_ID must be the bot's Microsoft App ID, a GUID \(got "linen-bot"\)\.$/,
    ],
    [{ ...TEAMS, TEAMS_TENANT_ID: 'contoso.onmicrosoft.com' }, /^TEAMS_TENANT_ID must be the home tenant's id, a GUID/],
    [
      { ...TEAMS, TEAMS_OPENID_METADATA_URL: 'http://login.example.com/v1/.well-known/openidconfiguration' },
      /^TEAMS_OPENID_METADATA_URL must be an https URL \(plain http only on this machine, for tests\)/,
    ],
    [
      { ...TEAMS, TEAMS_OPENID_METADATA_URL: 'https://login.example.com/v1/.well-known/keys' },
      /^TEAMS_OPENID_METADATA_URL must end with \/openidconfiguration/,
    ],
    [{ ...TEAMS, TEAMS_LOGIN_URL: 'https://login.example.com/?tenant=x' }, /^TEAMS_LOGIN_URL must not carry a query/],
    [
      { ...TEAMS, TEAMS_ADMIN_USER_IDS: 'dana@mercy.org' },
      /^TEAMS_ADMIN_USER_IDS must be Microsoft Entra object ids \(GUIDs\) separated by commas \(got "dana@mercy\.org"\)\.$/,
    ],
    [
      { ...TEAMS, LINEN_ENCRYPTION_KEY: '' },
      /^LINEN_ENCRYPTION_KEY is not set: organizations connect their own Linen keys here/,
    ],
    [
      { ...TEAMS, ...SLACK_ONE, ...LINEN },
      /^LINEN_API_KEY is not set: with SLACK_BOT_TOKEN \(one workspace\) Teams answers with LINEN_API_KEY too/,
    ],
  ];
  for (const [env, want] of cases) {
    it(want.source, () => {
      let error: unknown;
      try {
        loadConfig({ ...LINEN, ...env });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(want);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).message).not.toContain(SECRET);
    });
  }
});

describe('npm start -- --teams', () => {
  it('with Teams settings, refuses in one line: --teams is the console’s rendering, not a mode', async () => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...TEAMS, ...LINEN };
    const r = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', join('service', 'index.ts'), '--teams'],
        { env },
        (err, _o, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr }),
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^linen-bot: --teams shows the console as Teams renders answers; it is for the console/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toContain(SECRET);
  });
});
