/**
 * Multi-workspace mode's install flow, on Bolt's built-in OAuth (@slack/oauth's InstallProvider inside the
 * HTTPReceiver): GET /slack/install answers the "Add to Slack" page and sets the state cookie, Slack's authorize
 * page sends the installer back to GET /slack/oauth_redirect, which checks the state against that cookie, exchanges
 * the code with oauth.v2.access and keeps the installation sealed. For each request Bolt's authorize then reads the
 * workspace's installation, refreshing a bot token that expires within two hours (token rotation) and storing the
 * new one.
 */
import type { HTTPReceiverOptions } from '@slack/bolt';
import type { WebClientOptions } from '@slack/web-api';
import type { SecretBox } from '../../base/secrets/crypto.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import type { OAuthConfig } from '../config.ts';
import { SqlInstallationStore } from './installation-store.ts';

export const INSTALL_PATH = '/slack/install';
export const REDIRECT_PATH = '/slack/oauth_redirect';

/** The bot scopes an install asks for: the same list as manifest.distributed.json. */
export const BOT_SCOPES = [
  'commands',
  'chat:write',
  'channels:read',
  'groups:read',
  'channels:history',
  'groups:history',
  'im:write',
  'files:write',
  'users:read',
] as const;

export interface InstallOptionsInput {
  oauth: OAuthConfig;
  db: SqlExecutor;
  box: SecretBox;
  /** The Web API base (`SLACK_API_URL`) and transport for oauth.v2.access, auth.test and token refreshes. */
  clientOptions: Pick<WebClientOptions, 'slackApiUrl' | 'fetch'>;
}

/** The HTTPReceiver options that turn on the install flow and the per-workspace authorize. */
export function installReceiverOptions(input: InstallOptionsInput): Partial<HTTPReceiverOptions> {
  const { oauth } = input;
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    stateSecret: oauth.stateSecret,
    scopes: [...BOT_SCOPES],
    installationStore: new SqlInstallationStore({ db: input.db, box: input.box }),
    installerOptions: {
      installPath: INSTALL_PATH,
      redirectUriPath: REDIRECT_PATH,
      // The state travels in a cookie from /slack/install to /slack/oauth_redirect: an install link cannot be
      // finished in another browser (CSRF protection), so installs start from /slack/install.
      stateVerification: true,
      authorizationUrl: oauth.authorizeUrl,
      // A copy: the Web API client adds its own settings to the object it is given.
      clientOptions: { ...input.clientOptions },
    },
  };
}
