/**
 * Settings from the environment. A missing or malformed setting stops start-up with one line naming it
 * (a ConfigError, printed without a stack). With no Slack setting at all the bot runs in console mode.
 */
import { isIP } from 'node:net';
import { isValidTimeZone } from '../shared/dates.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface SlackConfig {
  botToken: string;
  /** Required in HTTP mode; optional in Socket Mode. */
  signingSecret: string | undefined;
  /** Socket Mode when set. */
  appToken: string | undefined;
  /** Web API base, ending with `/` (default https://slack.com/api/). */
  apiUrl: string | undefined;
}

export interface LinenConfig {
  baseUrl: string;
  /** Absent: the bot starts and answers every command that no key is configured. */
  apiKey: string | undefined;
  timeZone: string;
}

export interface BotConfig {
  mode: 'http' | 'socket';
  slack: SlackConfig;
  linen: LinenConfig;
  port: number;
  /** `BIND_ADDRESS`: the address the HTTP receiver and the health server listen on; unset: all interfaces. */
  host: string | undefined;
  /** Digest storage on this PostgreSQL server (several replicas); unset: PGlite under `dataDir`. */
  databaseUrl: string | undefined;
  /** `LINEN_DATA_DIR` (default `./data`): where the embedded digest store lives. */
  dataDir: string;
  digests: DigestConfig;
}

export interface DigestConfig {
  /** Slack user ids allowed to manage digest subscriptions (`LINEN_ADMIN_USER_IDS`); empty: anyone. */
  adminUserIds: string[];
  /** A digest missed by less than this is sent late (`LINEN_DIGEST_GRACE_MINUTES`, default 120). */
  graceMinutes: number;
}

export const DEFAULT_DATA_DIR = './data';
export const DEFAULT_GRACE_MINUTES = 120;
/** A week: longer than that, a "late" digest would only confuse. */
const MAX_GRACE_MINUTES = 7 * 24 * 60;

/** `LINEN_ADMIN_USER_IDS` and `LINEN_DIGEST_GRACE_MINUTES` (console mode reads them too). */
export function loadDigestConfig(env: Env): DigestConfig {
  const adminsRaw = text(env, 'LINEN_ADMIN_USER_IDS');
  const adminUserIds = (adminsRaw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = adminUserIds.find((id) => !/^[UW][A-Z0-9]{2,}$/.test(id));
  if (bad !== undefined) {
    throw new ConfigError(
      `LINEN_ADMIN_USER_IDS must be Slack user ids separated by commas, like U024BE7LH,U0G9QF9C6 (got "${bad}").`,
    );
  }
  const graceRaw = text(env, 'LINEN_DIGEST_GRACE_MINUTES');
  let graceMinutes = DEFAULT_GRACE_MINUTES;
  if (graceRaw !== undefined) {
    if (!/^\d+$/.test(graceRaw) || Number(graceRaw) > MAX_GRACE_MINUTES) {
      throw new ConfigError(
        `LINEN_DIGEST_GRACE_MINUTES must be a whole number of minutes from 0 to ${MAX_GRACE_MINUTES} (got "${graceRaw}").`,
      );
    }
    graceMinutes = Number(graceRaw);
  }
  return { adminUserIds, graceMinutes };
}

type Env = Record<string, string | undefined>;

const SLACK_VARS = ['SLACK_BOT_TOKEN', 'SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'] as const;

function text(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const v = raw.trim();
  return v === '' ? undefined : v;
}

function required(env: Env, name: string, hint: string): string {
  const v = text(env, name);
  if (v === undefined) throw new ConfigError(`${name} is not set: ${hint}`);
  return v;
}

function noSpaces(name: string, v: string): string {
  if (/\s/.test(v)) throw new ConfigError(`${name} contains spaces or line breaks; paste it again.`);
  return v;
}

function httpUrl(name: string, v: string): URL {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ConfigError(`${name} is not a URL (got "${v}").`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new ConfigError(`${name} must be an http(s) URL (got "${v}").`);
  return u;
}

/** True when no Slack setting is present: `npm start` then runs the console on embedded defaults. */
export function isConsoleMode(env: Env): boolean {
  return SLACK_VARS.every((n) => text(env, n) === undefined);
}

export function loadConfig(env: Env): BotConfig {
  const botToken = noSpaces(
    'SLACK_BOT_TOKEN',
    required(env, 'SLACK_BOT_TOKEN', 'the Bot User OAuth Token (xoxb-...) from "OAuth & Permissions".'),
  );
  if (!botToken.startsWith('xoxb-'))
    throw new ConfigError('SLACK_BOT_TOKEN must be a bot token starting with xoxb- (from "OAuth & Permissions").');

  const appTokenRaw = text(env, 'SLACK_APP_TOKEN');
  const appToken = appTokenRaw === undefined ? undefined : noSpaces('SLACK_APP_TOKEN', appTokenRaw);
  if (appToken !== undefined && !appToken.startsWith('xapp-')) {
    throw new ConfigError(
      'SLACK_APP_TOKEN must be an app-level token starting with xapp- (with the connections:write scope).',
    );
  }
  const mode = appToken ? 'socket' : 'http';

  const secretRaw = text(env, 'SLACK_SIGNING_SECRET');
  if (mode === 'http' && secretRaw === undefined) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET is not set: the Signing Secret from "Basic Information" (or set SLACK_APP_TOKEN for Socket Mode).',
    );
  }
  const signingSecret = secretRaw === undefined ? undefined : noSpaces('SLACK_SIGNING_SECRET', secretRaw);
  if (signingSecret !== undefined && !/^[A-Za-z0-9]{16,}$/.test(signingSecret)) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET is malformed: expected the hexadecimal Signing Secret from "Basic Information".',
    );
  }

  const apiUrlRaw = text(env, 'SLACK_API_URL');
  let apiUrl: string | undefined;
  if (apiUrlRaw !== undefined) {
    const u = httpUrl('SLACK_API_URL', apiUrlRaw);
    apiUrl = u.href.endsWith('/') ? u.href : `${u.href}/`;
  }

  const baseUrlRaw = required(
    env,
    'LINEN_BASE_URL',
    'the Linen API base URL including /v1, e.g. https://api.example.com/v1.',
  );
  const base = httpUrl('LINEN_BASE_URL', baseUrlRaw);
  if (base.search || base.hash || base.username || base.password) {
    throw new ConfigError('LINEN_BASE_URL must not carry a query, fragment or credentials.');
  }

  const keyRaw = text(env, 'LINEN_API_KEY');
  const apiKey = keyRaw === undefined ? undefined : noSpaces('LINEN_API_KEY', keyRaw);

  const timeZone = required(env, 'LINEN_TIMEZONE', "the organization's IANA timezone, e.g. America/Chicago.");
  if (!isValidTimeZone(timeZone))
    throw new ConfigError(`LINEN_TIMEZONE must be an IANA timezone such as America/Chicago (got "${timeZone}").`);

  const portRaw = text(env, 'PORT');
  let port = 3000;
  if (portRaw !== undefined) {
    if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65_535)
      throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${portRaw}").`);
    port = Number(portRaw);
  }

  const host = text(env, 'BIND_ADDRESS');
  if (host !== undefined && isIP(host) === 0) {
    throw new ConfigError(
      `BIND_ADDRESS must be an IP address of this machine, such as 127.0.0.1, 0.0.0.0 or :: (got "${host}").`,
    );
  }

  const dbRaw = text(env, 'DATABASE_URL');
  if (dbRaw !== undefined && !/^postgres(ql)?:\/\//.test(dbRaw)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL.');
  }

  return {
    mode,
    slack: { botToken, signingSecret, appToken, apiUrl },
    linen: { baseUrl: base.href.replace(/\/+$/, ''), apiKey, timeZone },
    port,
    host,
    databaseUrl: dbRaw,
    dataDir: text(env, 'LINEN_DATA_DIR') ?? DEFAULT_DATA_DIR,
    digests: loadDigestConfig(env),
  };
}

/** Every secret of a configuration, for the log scrubber. */
export function secretsOf(config: BotConfig): string[] {
  return [
    config.slack.botToken,
    config.slack.signingSecret,
    config.slack.appToken,
    config.linen.apiKey,
    config.databaseUrl,
  ].filter((s): s is string => typeof s === 'string' && s !== '');
}
