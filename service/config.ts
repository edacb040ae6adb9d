/**
 * Settings from the environment. A missing or malformed setting stops start-up with one line naming it
 * (a ConfigError, printed without a stack). With no Slack and no Teams setting the bot runs in console mode.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import type { LogFormat } from '../base/logging/logger.ts';
import { EncryptionKeyError, type SecretBox, secretBoxFromEnv } from '../base/secrets/crypto.ts';
import { ConfigError, type Env, httpUrl, loadLogFormat, noSpaces, required, text } from '../base/settings.ts';
import { isValidTimeZone } from '../shared/dates.ts';
import { hasSlackSettings, loadSlackConfig, type SlackConfig } from '../slack-bot/config.ts';
import { hasTeamsSettings, loadTeamsConfig, type TeamsConfig } from '../teams-bot/config.ts';

export { ConfigError, loadLogFormat } from '../base/settings.ts';

/** `LINEN_ENCRYPTION_KEY` (and `LINEN_ENCRYPTION_KEYS_OLD`): seals tokens and keys at rest. */
export interface EncryptionConfig {
  box: SecretBox;
  /** The keys as set, for the log scrubber. */
  keyTexts: string[];
}

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
  /** Slack's mode: Socket Mode with `SLACK_APP_TOKEN`, else HTTP (also when only Teams runs). */
  mode: 'http' | 'socket';
  /** Slack's settings; undefined when only Teams runs. */
  slack: SlackConfig | undefined;
  /** Microsoft Teams' settings; undefined when Teams is not configured. */
  teams?: TeamsConfig | undefined;
  /**
   * Organizations connect their own Linen keys (Slack for many workspaces, or Teams without `LINEN_API_KEY`): keys are
   * stored sealed with `LINEN_ENCRYPTION_KEY`.
   */
  connected?: boolean | undefined;
  linen: LinenConfig;
  port: number;
  /** `BIND_ADDRESS`: the address the service's one HTTP server listens on; unset: all interfaces. */
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
  /** `EXCEL_ADDIN_DIR` (default `dist/excel-addin`): the built Excel add-in, served at `/excel/`. */
  excelAddinDir?: string | undefined;
  /** `PUBLIC_URL`: the origin people reach the service at; the OData feed's links are absolute with it. */
  publicUrl?: string | undefined;
}

/** How often each key with alerts is checked (ALERTS_POLL_SECONDS): 300 s, at least 10, at most a day. */
export const DEFAULT_ALERTS_POLL_SECONDS = 300;
export const MIN_ALERTS_POLL_SECONDS = 10;
const MAX_ALERTS_POLL_SECONDS = 86_400;

export function loadAlertsPollMs(env: Env): number {
  const raw = text(env, 'ALERTS_POLL_SECONDS');
  if (raw === undefined) return DEFAULT_ALERTS_POLL_SECONDS * 1000;
  if (!/^\d+$/.test(raw) || Number(raw) < MIN_ALERTS_POLL_SECONDS || Number(raw) > MAX_ALERTS_POLL_SECONDS)
    throw new ConfigError(
      `ALERTS_POLL_SECONDS must be a whole number of seconds from ${MIN_ALERTS_POLL_SECONDS} to ${MAX_ALERTS_POLL_SECONDS} (got "${raw}").`,
    );
  return Number(raw) * 1000;
}

export interface DigestConfig {
  /** Slack user ids allowed to manage digest subscriptions (`LINEN_ADMIN_USER_IDS`); empty: anyone. */
  adminUserIds: string[];
  /** A digest missed by less than this is sent late (`LINEN_DIGEST_GRACE_MINUTES`, default 120). */
  graceMinutes: number;
  /** ALERTS_POLL_SECONDS, in ms. */
  alertsPollMs: number;
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
  return { adminUserIds, graceMinutes, alertsPollMs: loadAlertsPollMs(env) };
}

/** True when no Slack and no Teams setting is present: `npm start` then runs the console on embedded defaults. */
export function isConsoleMode(env: Env): boolean {
  return !hasSlackSettings(env) && !hasTeamsSettings(env);
}

/** Where the bot's store is: `DATABASE_URL` (PostgreSQL), else PGlite under `LINEN_DATA_DIR`. */
export function loadStorageConfig(env: Env): { databaseUrl: string | undefined; dataDir: string } {
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL.');
  }
  return { databaseUrl, dataDir: text(env, 'LINEN_DATA_DIR') ?? DEFAULT_DATA_DIR };
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

export function loadConfig(env: Env): BotConfig {
  const teams = loadTeamsConfig(env);
  const slackPart = hasSlackSettings(env) || !teams ? loadSlackConfig(env) : undefined;
  const multi = slackPart?.multi ?? false;
  const encryption = loadEncryptionConfig(env);
  if (multi && !encryption) {
    throw new ConfigError(
      'LINEN_ENCRYPTION_KEY is not set: multi-workspace mode stores every token and key encrypted with it (make one with: openssl rand -base64 32).',
    );
  }
  const keyGiven = text(env, 'LINEN_API_KEY') !== undefined;
  // Teams without LINEN_API_KEY: each organization connects its own key, as Slack's installed workspaces do.
  const connected = multi || (teams !== undefined && !keyGiven);
  if (teams && slackPart && !multi && !keyGiven) {
    throw new ConfigError(
      'LINEN_API_KEY is not set: with SLACK_BOT_TOKEN (one workspace) Teams answers with LINEN_API_KEY too; set it, or run Slack for many workspaces (SLACK_CLIENT_ID).',
    );
  }
  if (connected && !encryption) {
    throw new ConfigError(
      'LINEN_ENCRYPTION_KEY is not set: organizations connect their own Linen keys here (Teams without LINEN_API_KEY), stored encrypted with it (make one with: openssl rand -base64 32).',
    );
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

  const timeZone = connected
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
    mode: slackPart?.mode ?? 'http',
    slack: slackPart?.slack,
    teams,
    connected,
    linen: { baseUrl: base.href.replace(/\/+$/, ''), allowedBaseUrls, apiKey, timeZone },
    port,
    ...storage,
    host,
    digests: loadDigestConfig(env),
    encryption,
    metrics: loadMetricsConfig(env, port),
    logFormat: loadLogFormat(env),
    excelAddinDir: resolve(text(env, 'EXCEL_ADDIN_DIR') ?? 'dist/excel-addin'),
    publicUrl: publicUrlOf(env),
  };
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

/** `PUBLIC_URL`: an http(s) origin (a path is kept), without a query, fragment or credentials. */
function publicUrlOf(env: Env): string | undefined {
  const raw = text(env, 'PUBLIC_URL');
  if (raw === undefined) return undefined;
  const u = httpUrl('PUBLIC_URL', raw);
  if (u.search || u.hash || u.username || u.password)
    throw new ConfigError('PUBLIC_URL must not carry a query, fragment or credentials.');
  return u.href.replace(/\/+$/, '');
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
    config.slack?.botToken,
    config.slack?.signingSecret,
    config.slack?.oauth?.clientSecret,
    config.slack?.oauth?.stateSecret,
    config.teams?.clientSecret,
    ...(config.encryption?.keyTexts ?? []),
    config.slack?.appToken,
    config.linen.apiKey,
    config.databaseUrl,
    config.metrics?.token,
  ].filter((s): s is string => typeof s === 'string' && s !== '');
}
