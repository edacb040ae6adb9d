/**
 * Settings from the environment. A missing or malformed setting stops start-up with one line naming it
 * (a ConfigError, printed without a stack). With no Slack setting at all the bot runs in console mode.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { isValidTimeZone } from '../shared/dates.ts';
import type { LogFormat } from './logger.ts';
import { EncryptionKeyError, type SecretBox, secretBoxFromEnv } from './secrets/crypto.ts';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface SlackConfig {
  /** Single-workspace mode; undefined in multi-workspace mode, where each workspace's token comes from its install. */
  botToken: string | undefined;
  /** Multi-workspace mode ("Add to Slack"): the app's OAuth credentials. */
  oauth: OAuthConfig | undefined;
  /** Required in HTTP mode; optional in Socket Mode. */
  signingSecret: string | undefined;
  /** Socket Mode when set. */
  appToken: string | undefined;
  /** Web API base, ending with `/` (default https://slack.com/api/). */
  apiUrl: string | undefined;
}

export interface OAuthConfig {
  clientId: string;
  clientSecret: string;
  /** Signs the OAuth `state` (Bolt's built-in state store). */
  stateSecret: string;
  /** Slack's authorize page (`SLACK_OAUTH_AUTHORIZE_URL`, default https://slack.com/oauth/v2/authorize). */
  authorizeUrl: string;
}

/** `LINEN_ENCRYPTION_KEY` (and `LINEN_ENCRYPTION_KEYS_OLD`): seals tokens and keys at rest. */
export interface EncryptionConfig {
  box: SecretBox;
  /** The keys as set, for the log scrubber. */
  keyTexts: string[];
}

export const DEFAULT_AUTHORIZE_URL = 'https://slack.com/oauth/v2/authorize';

export interface LinenConfig {
  baseUrl: string;
  /** `LINEN_ALLOWED_BASE_URLS`: the API addresses a workspace may connect a key to (default: `baseUrl`). */
  allowedBaseUrls: string[];
  /** Absent: the bot starts and answers every command that no key is configured. */
  apiKey: string | undefined;
  /**
   * The organization's timezone. In multi-workspace mode each connected key carries its own, and this (optional
   * there) is only what the connect form suggests.
   */
  timeZone: string | undefined;
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
  /** Required in multi-workspace mode; validated whenever set. */
  encryption: EncryptionConfig | undefined;
  /** `GET /metrics`: on its own port, or on `port` behind a bearer token (absent: neither). */
  metrics?: MetricsConfig | undefined;
  /** `LOG_FORMAT`: plain text lines (default) or one JSON object a line. */
  logFormat?: LogFormat | undefined;
  /** `EXCEL_ADDIN_DIR` (default `dist/excel-addin`): the built Excel add-in, served at `/excel/` in HTTP mode. */
  excelAddinDir?: string | undefined;
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

const SLACK_VARS = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
] as const;

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

/** Where the bot's store is: `DATABASE_URL` (PostgreSQL), else PGlite under `LINEN_DATA_DIR`. */
export function loadStorageConfig(env: Env): { databaseUrl: string | undefined; dataDir: string } {
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL.');
  }
  return { databaseUrl, dataDir: text(env, 'LINEN_DATA_DIR') ?? DEFAULT_DATA_DIR };
}

/** True when the app's OAuth credentials are set without a bot token: one bot for the workspaces that install it. */
function isMultiWorkspace(env: Env): boolean {
  const oauthVars = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  return text(env, 'SLACK_BOT_TOKEN') === undefined && oauthVars.some((n) => text(env, n) !== undefined);
}

/** `LINEN_ENCRYPTION_KEY` and `LINEN_ENCRYPTION_KEYS_OLD`, validated; undefined when no key is set. */
export function loadEncryptionConfig(env: Env): EncryptionConfig | undefined {
  let box: SecretBox | undefined;
  try {
    box = secretBoxFromEnv(env);
  } catch (err) {
    if (err instanceof EncryptionKeyError) throw new ConfigError(err.message);
    throw err;
  }
  if (!box) return undefined;
  const keyTexts = [env.LINEN_ENCRYPTION_KEY ?? '', ...(env.LINEN_ENCRYPTION_KEYS_OLD ?? '').split(',')]
    .map((s) => s.trim())
    .filter(Boolean);
  return { box, keyTexts };
}

/** Multi-workspace mode's settings: the app's OAuth credentials, and what that mode does not allow. */
function loadOAuthConfig(env: Env): OAuthConfig {
  if (text(env, 'SLACK_APP_TOKEN') !== undefined) {
    throw new ConfigError(
      'SLACK_APP_TOKEN is for a single workspace: multi-workspace mode (SLACK_CLIENT_ID) runs over HTTP; unset it.',
    );
  }
  if (text(env, 'LINEN_API_KEY') !== undefined) {
    throw new ConfigError(
      'LINEN_API_KEY is for a single workspace: in multi-workspace mode each workspace connects its own key with /linen connect; unset it.',
    );
  }
  const clientId = noSpaces(
    'SLACK_CLIENT_ID',
    required(env, 'SLACK_CLIENT_ID', 'the Client ID from "Basic Information".'),
  );
  if (!/^\d+\.\d+$/.test(clientId))
    throw new ConfigError(
      'SLACK_CLIENT_ID must be the Client ID from "Basic Information", like 1234567890.1234567890.',
    );
  const clientSecret = noSpaces(
    'SLACK_CLIENT_SECRET',
    required(env, 'SLACK_CLIENT_SECRET', 'the Client Secret from "Basic Information".'),
  );
  if (!/^[A-Za-z0-9]{16,}$/.test(clientSecret))
    throw new ConfigError('SLACK_CLIENT_SECRET is malformed: expected the Client Secret from "Basic Information".');
  const stateSecret = noSpaces(
    'SLACK_STATE_SECRET',
    required(
      env,
      'SLACK_STATE_SECRET',
      'a random string of your own that signs the install links (openssl rand -hex 32).',
    ),
  );
  if (stateSecret.length < 16)
    throw new ConfigError('SLACK_STATE_SECRET must be at least 16 characters (make one with: openssl rand -hex 32).');
  const authorizeRaw = text(env, 'SLACK_OAUTH_AUTHORIZE_URL');
  const authorizeUrl =
    authorizeRaw === undefined ? DEFAULT_AUTHORIZE_URL : httpUrl('SLACK_OAUTH_AUTHORIZE_URL', authorizeRaw).href;
  return { clientId, clientSecret, stateSecret, authorizeUrl };
}

/** The bot token of single-workspace mode. */
function loadBotToken(env: Env): string {
  const botToken = noSpaces(
    'SLACK_BOT_TOKEN',
    required(env, 'SLACK_BOT_TOKEN', 'the Bot User OAuth Token (xoxb-...) from "OAuth & Permissions".'),
  );
  if (!botToken.startsWith('xoxb-'))
    throw new ConfigError('SLACK_BOT_TOKEN must be a bot token starting with xoxb- (from "OAuth & Permissions").');
  if (text(env, 'SLACK_CLIENT_ID') !== undefined) {
    throw new ConfigError(
      'SLACK_CLIENT_ID is for multi-workspace mode and SLACK_BOT_TOKEN for a single workspace: set one of them.',
    );
  }
  return botToken;
}

export function loadConfig(env: Env): BotConfig {
  const multi = isMultiWorkspace(env);
  const oauth = multi ? loadOAuthConfig(env) : undefined;
  const botToken = multi ? undefined : loadBotToken(env);
  const encryption = loadEncryptionConfig(env);
  if (multi && !encryption) {
    throw new ConfigError(
      'LINEN_ENCRYPTION_KEY is not set: multi-workspace mode stores every token and key encrypted with it (make one with: openssl rand -base64 32).',
    );
  }

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

  const allowedBaseUrls = allowedBaseUrlsOf(env, base.href.replace(/\/+$/, ''));

  const keyRaw = text(env, 'LINEN_API_KEY');
  const apiKey = keyRaw === undefined ? undefined : noSpaces('LINEN_API_KEY', keyRaw);

  const timeZone = multi
    ? text(env, 'LINEN_TIMEZONE')
    : required(env, 'LINEN_TIMEZONE', "the organization's IANA timezone, e.g. America/Chicago.");
  if (timeZone !== undefined && !isValidTimeZone(timeZone))
    throw new ConfigError(`LINEN_TIMEZONE must be an IANA timezone such as America/Chicago (got "${timeZone}").`);

  const portRaw = text(env, 'PORT');
  let port = 3000;
  if (portRaw !== undefined) {
    if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65_535)
      throw new ConfigError(`PORT must be an integer from 0 to 65535 (got "${portRaw}").`);
    port = Number(portRaw);
  }

  const storage = loadStorageConfig(env);
  const host = text(env, 'BIND_ADDRESS');
  if (host !== undefined && isIP(host) === 0) {
    throw new ConfigError(
      `BIND_ADDRESS must be an IP address of this machine, such as 127.0.0.1, 0.0.0.0 or :: (got "${host}").`,
    );
  }

  return {
    mode,
    slack: { botToken, oauth, signingSecret, appToken, apiUrl },
    linen: { baseUrl: base.href.replace(/\/+$/, ''), allowedBaseUrls, apiKey, timeZone },
    port,
    ...storage,
    host,
    digests: loadDigestConfig(env),
    encryption,
    metrics: loadMetricsConfig(env, port),
    logFormat: loadLogFormat(env),
    excelAddinDir: resolve(text(env, 'EXCEL_ADDIN_DIR') ?? 'dist/excel-addin'),
  };
}

/** `LOG_FORMAT`: `text` (the default) or `json`. */
export function loadLogFormat(env: Env): LogFormat {
  const raw = text(env, 'LOG_FORMAT');
  const format = raw?.toLowerCase() ?? 'text';
  if (format === 'text' || format === 'json') return format;
  throw new ConfigError(`LOG_FORMAT must be text or json (got "${raw}").`);
}

export interface MetricsConfig {
  /** `METRICS_PORT`: `/metrics` on a port of its own; unset: on the bot's port, with the token only. */
  port: number | undefined;
  /** `METRICS_BIND_ADDRESS` (default 127.0.0.1): where `METRICS_PORT` listens. */
  host: string;
  /** `METRICS_TOKEN`: the bearer token `/metrics` asks for. */
  token: string | undefined;
}

export const DEFAULT_METRICS_BIND_ADDRESS = '127.0.0.1';

/** `METRICS_PORT`, `METRICS_BIND_ADDRESS` and `METRICS_TOKEN`; `botPort` is the bot's own `PORT`. */
export function loadMetricsConfig(env: Env, botPort: number): MetricsConfig {
  const portRaw = text(env, 'METRICS_PORT');
  let port: number | undefined;
  if (portRaw !== undefined) {
    if (!/^\d+$/.test(portRaw) || Number(portRaw) > 65_535)
      throw new ConfigError(`METRICS_PORT must be an integer from 0 to 65535 (got "${portRaw}").`);
    port = Number(portRaw);
    if (port !== 0 && port === botPort)
      throw new ConfigError(
        `METRICS_PORT must differ from PORT (both ${port}); leave METRICS_PORT unset to serve /metrics on PORT with METRICS_TOKEN.`,
      );
  }
  const host = text(env, 'METRICS_BIND_ADDRESS');
  if (host !== undefined && port === undefined)
    throw new ConfigError('METRICS_BIND_ADDRESS is where METRICS_PORT listens: set METRICS_PORT too, or unset it.');
  if (host !== undefined && isIP(host) === 0)
    throw new ConfigError(
      `METRICS_BIND_ADDRESS must be an IP address of this machine, such as 127.0.0.1 or 0.0.0.0 (got "${host}").`,
    );
  const tokenRaw = text(env, 'METRICS_TOKEN');
  const token = tokenRaw === undefined ? undefined : noSpaces('METRICS_TOKEN', tokenRaw);
  if (token !== undefined && token.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters (make one with: openssl rand -hex 32).');
  return { port, host: host ?? DEFAULT_METRICS_BIND_ADDRESS, token };
}

/** `LINEN_ALLOWED_BASE_URLS`: comma-separated http(s) API addresses with their version; default the base URL. */
function allowedBaseUrlsOf(env: Env, baseUrl: string): string[] {
  const raw = text(env, 'LINEN_ALLOWED_BASE_URLS');
  if (raw === undefined) return [baseUrl];
  const urls = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((v) => {
      const u = httpUrl('LINEN_ALLOWED_BASE_URLS', v);
      if (u.search || u.hash || u.username || u.password)
        throw new ConfigError('LINEN_ALLOWED_BASE_URLS must not carry a query, fragment or credentials.');
      return u.href.replace(/\/+$/, '');
    });
  if (!urls.length) throw new ConfigError('LINEN_ALLOWED_BASE_URLS must list at least one API address.');
  return [...new Set(urls)];
}

/** Every secret of a configuration, for the log scrubber. */
export function secretsOf(config: BotConfig): string[] {
  return [
    config.slack.botToken,
    config.slack.signingSecret,
    config.slack.oauth?.clientSecret,
    config.slack.oauth?.stateSecret,
    ...(config.encryption?.keyTexts ?? []),
    config.slack.appToken,
    config.linen.apiKey,
    config.databaseUrl,
    config.metrics?.token,
  ].filter((s): s is string => typeof s === 'string' && s !== '');
}
