import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SecretBox } from '../../../base/secrets/crypto.ts';
import { ConfigError, isConsoleMode, loadConfig, secretsOf } from '../../../service/config.ts';
import { main } from '../../../service/index.ts';
import { SqlInstallationStore } from '../../../slack-bot/workspaces/installation-store.ts';
import { openServiceStore } from '../../support/service-store.ts';

const KEY = randomBytes(32).toString('base64');
const MULTI = {
  SLACK_CLIENT_ID: '1111111111.2222222222',
  SLACK_CLIENT_SECRET: 'c0ffee00c0ffee00c0ffee00c0ffee00',
  SLACK_STATE_SECRET: 'state-secret-0123456789abcdef',
  SLACK_SIGNING_SECRET: 'abcdef0123456789abcdef',
  LINEN_ENCRYPTION_KEY: KEY,
  LINEN_BASE_URL: 'https://api.example.com/v1',
  LINEN_TIMEZONE: 'America/Chicago',
};

describe('multi-workspace configuration', () => {
  it('the OAuth settings without a bot token mean multi-workspace mode', () => {
    expect(isConsoleMode({ SLACK_CLIENT_ID: MULTI.SLACK_CLIENT_ID })).toBe(false);
    const config = loadConfig(MULTI);
    expect(config.slack!.botToken).toBeUndefined();
    expect(config.slack!.oauth).toEqual({
      clientId: MULTI.SLACK_CLIENT_ID,
      clientSecret: MULTI.SLACK_CLIENT_SECRET,
      stateSecret: MULTI.SLACK_STATE_SECRET,
      authorizeUrl: 'https://slack.com/oauth/v2/authorize',
    });
    expect(config.encryption?.box.currentKeyId).toMatch(/^[0-9a-f]{12}$/);
    // Each connected key carries its own timezone: LINEN_TIMEZONE is only the connect form's suggestion.
    expect(loadConfig({ ...MULTI, LINEN_TIMEZONE: undefined }).linen.timeZone).toBeUndefined();
    expect(() => loadConfig({ ...MULTI, LINEN_TIMEZONE: 'Mars/Base' })).toThrow(/LINEN_TIMEZONE must be an IANA/);
    const custom = loadConfig({ ...MULTI, SLACK_OAUTH_AUTHORIZE_URL: 'http://127.0.0.1:9/oauth/v2/authorize' });
    expect(custom.slack!.oauth?.authorizeUrl).toBe('http://127.0.0.1:9/oauth/v2/authorize');
  });

  it('the log scrubber knows the client secret, the state secret and every encryption key', () => {
    const old = randomBytes(32).toString('base64');
    const secrets = secretsOf(loadConfig({ ...MULTI, LINEN_ENCRYPTION_KEYS_OLD: old }));
    for (const s of [MULTI.SLACK_CLIENT_SECRET, MULTI.SLACK_STATE_SECRET, MULTI.SLACK_SIGNING_SECRET, KEY, old])
      expect(secrets).toContain(s);
  });

  it('single-workspace mode stays as it was', () => {
    const config = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: MULTI.SLACK_SIGNING_SECRET,
      LINEN_BASE_URL: MULTI.LINEN_BASE_URL,
      LINEN_TIMEZONE: 'UTC',
      LINEN_API_KEY: 'lk_live_x',
    });
    expect(config.slack).toMatchObject({ botToken: 'xoxb-1-2-3', oauth: undefined });
    expect(config.encryption).toBeUndefined();
  });

  const cases: [string, Record<string, string | undefined>, RegExp][] = [
    [
      'no encryption key',
      { ...MULTI, LINEN_ENCRYPTION_KEY: undefined },
      /^LINEN_ENCRYPTION_KEY is not set: multi-workspace mode stores every token and key encrypted with it/,
    ],
    [
      'a short encryption key',
      { ...MULTI, LINEN_ENCRYPTION_KEY: 'c2hvcnQ=' },
      /^LINEN_ENCRYPTION_KEY must be 32 random bytes/,
    ],
    [
      'a malformed old key',
      { ...MULTI, LINEN_ENCRYPTION_KEYS_OLD: 'nope' },
      /^LINEN_ENCRYPTION_KEYS_OLD must be 32 random bytes/,
    ],
    ['no client secret', { ...MULTI, SLACK_CLIENT_SECRET: undefined }, /^SLACK_CLIENT_SECRET is not set/],
    ['no client id', { ...MULTI, SLACK_CLIENT_ID: undefined }, /^SLACK_CLIENT_ID is not set/],
    ['a malformed client id', { ...MULTI, SLACK_CLIENT_ID: 'abc' }, /^SLACK_CLIENT_ID must be the Client ID/],
    ['no state secret', { ...MULTI, SLACK_STATE_SECRET: undefined }, /^SLACK_STATE_SECRET is not set/],
    ['a short state secret', { ...MULTI, SLACK_STATE_SECRET: 'short' }, /^SLACK_STATE_SECRET must be at least 16/],
    ['a Linen key for everyone', { ...MULTI, LINEN_API_KEY: 'lk_live_x' }, /^LINEN_API_KEY is for a single workspace/],
    ['Socket Mode', { ...MULTI, SLACK_APP_TOKEN: 'xapp-1-2' }, /^SLACK_APP_TOKEN is for a single workspace/],
    [
      'both modes',
      { ...MULTI, SLACK_BOT_TOKEN: 'xoxb-1-2' },
      /^SLACK_CLIENT_ID is for multi-workspace mode and SLACK_BOT_TOKEN/,
    ],
    [
      'a bad authorize URL',
      { ...MULTI, SLACK_OAUTH_AUTHORIZE_URL: 'ftp://x' },
      /^SLACK_OAUTH_AUTHORIZE_URL must be an http/,
    ],
  ];
  it.each(cases)('%s: one line naming the setting, no secret in it', (_what, env, want) => {
    let err: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const message = (err as Error).message;
    expect(message).toMatch(want);
    expect(message).not.toContain('\n');
    for (const secret of [KEY, MULTI.SLACK_CLIENT_SECRET, MULTI.SLACK_STATE_SECRET])
      expect(message).not.toContain(secret);
  });

  it('the bot refuses to start without LINEN_ENCRYPTION_KEY before opening anything', async () => {
    await expect(main([], { ...MULTI, LINEN_ENCRYPTION_KEY: undefined })).rejects.toThrow(
      /^LINEN_ENCRYPTION_KEY is not set/,
    );
  });
});

describe('npm run reencrypt', () => {
  it('moves every installation to the current key, then finds nothing left to move', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'linen-reencrypt-'));
    try {
      const oldKey = randomBytes(32).toString('base64');
      const seed = await openServiceStore({ dataDir: dir });
      const before = new SqlInstallationStore({ db: seed.executor, box: new SecretBox({ current: oldKey }) });
      for (const teamId of ['T0AAA', 'T0BBB']) {
        await before.storeInstallation({
          team: { id: teamId },
          enterprise: undefined,
          user: { id: 'U0A', token: undefined, scopes: undefined },
          bot: { id: 'B0', userId: 'U0B', scopes: ['commands'], token: `xoxb-${teamId}-secret` },
          isEnterpriseInstall: false,
          authVersion: 'v2',
        });
      }
      await seed.close();
      const lines: string[] = [];
      const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => {
        lines.push(line);
      });
      try {
        const env = { LINEN_DATA_DIR: dir, LINEN_ENCRYPTION_KEY: KEY, LINEN_ENCRYPTION_KEYS_OLD: oldKey };
        expect(await main(['--reencrypt'], env)).toBe(0);
        expect(await main(['--reencrypt'], env)).toBe(0);
        await expect(main(['--reencrypt'], { LINEN_DATA_DIR: dir })).rejects.toThrow(
          /^LINEN_ENCRYPTION_KEY is not set/,
        );
      } finally {
        spy.mockRestore();
      }
      const keyId = new SecretBox({ current: KEY }).currentKeyId;
      expect(lines).toEqual([
        `linen-bot: re-encrypted 2 stored secrets with key ${keyId} (slack_installations 2, workspace_keys 0); none is sealed with an older key now.`,
        `linen-bot: re-encrypted 0 stored secrets with key ${keyId} (slack_installations 0, workspace_keys 0); none is sealed with an older key now.`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
