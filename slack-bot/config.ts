/**
 * Slack's settings: one workspace (`SLACK_BOT_TOKEN`), or many with the app's OAuth credentials (`SLACK_CLIENT_ID`,
 * `SLACK_CLIENT_SECRET`, `SLACK_STATE_SECRET`); HTTP with `SLACK_SIGNING_SECRET`, or Socket Mode with
 * `SLACK_APP_TOKEN`. A missing or malformed setting is a ConfigError with one line naming it.
 */
import { ConfigError, type Env, httpUrl, noSpaces, required, text } from '../base/settings.ts';

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

export const DEFAULT_AUTHORIZE_URL = 'https://slack.com/oauth/v2/authorize';

const SLACK_VARS = [
  'SLACK_BOT_TOKEN',
  'SLACK_SIGNING_SECRET',
  'SLACK_APP_TOKEN',
  'SLACK_CLIENT_ID',
  'SLACK_CLIENT_SECRET',
  'SLACK_STATE_SECRET',
] as const;

export const hasSlackSettings = (env: Env) => SLACK_VARS.some((n) => text(env, n) !== undefined);

/** True when the app's OAuth credentials are set without a bot token: one bot for the workspaces that install it. */
function isMultiWorkspace(env: Env): boolean {
  const oauthVars = ['SLACK_CLIENT_ID', 'SLACK_CLIENT_SECRET', 'SLACK_STATE_SECRET'];
  return text(env, 'SLACK_BOT_TOKEN') === undefined && oauthVars.some((n) => text(env, n) !== undefined);
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

/** Slack's settings (one workspace with a bot token, or many with the app's OAuth credentials). */
export function loadSlackConfig(env: Env): { slack: SlackConfig; mode: 'http' | 'socket'; multi: boolean } {
  const multi = isMultiWorkspace(env);
  const oauth = multi ? loadOAuthConfig(env) : undefined;
  const botToken = multi ? undefined : loadBotToken(env);

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
  return { slack: { botToken, oauth, signingSecret, appToken, apiUrl }, mode, multi };
}
