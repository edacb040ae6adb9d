/**
 * Microsoft Teams' settings. Teams runs when `TEAMS_CLIENT_ID`, `TEAMS_CLIENT_SECRET` and `TEAMS_TENANT_ID` are set:
 * the bot registration's app (client) id and secret, and its home tenant (other organizations' tenants can still
 * install the app). Two more point the bot at local stand-ins in tests, defaulting to Microsoft's addresses.
 */
import { ConfigError, type Env, httpUrl, noSpaces, required, text } from '../base/settings.ts';

const TEAMS_VARS = ['TEAMS_CLIENT_ID', 'TEAMS_CLIENT_SECRET', 'TEAMS_TENANT_ID'] as const;

/** Bot Framework's OpenID configuration: the keys that sign the tokens Teams sends with each activity. */
export const DEFAULT_OPENID_METADATA_URL = 'https://login.botframework.com/v1/.well-known/openidconfiguration';
/** Entra ID, where the bot asks for its own token (client credentials) to call the Bot Connector. */
export const DEFAULT_LOGIN_URL = 'https://login.microsoftonline.com';

export interface TeamsConfig {
  clientId: string;
  clientSecret: string;
  /** The bot registration's home tenant: its tokens are asked for there. */
  tenantId: string;
  /** `TEAMS_OPENID_METADATA_URL`: its keys are beside it (`…/keys`), as at Microsoft. */
  openIdMetadataUrl: string;
  /** `TEAMS_LOGIN_URL`: the origin of the Entra token endpoint. */
  loginUrl: string;
  /** `TEAMS_ADMIN_USER_IDS`: Microsoft Entra object ids (or Teams user ids) of the operator's admins, in every tenant. */
  adminUserIds: string[];
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function hasTeamsSettings(env: Env): boolean {
  return TEAMS_VARS.some((n) => text(env, n) !== undefined);
}

/** Plain http is for a stand-in on this machine; Microsoft's addresses are https. */
function endpoint(env: Env, name: string, fallback: string): string {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const u = httpUrl(name, raw);
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  if (u.protocol !== 'https:' && !loopback)
    throw new ConfigError(`${name} must be an https URL (plain http only on this machine, for tests) (got "${raw}").`);
  if (u.search || u.hash || u.username || u.password)
    throw new ConfigError(`${name} must not carry a query, fragment or credentials.`);
  return u.href.replace(/\/+$/, '');
}

/** Teams' settings; undefined when none of them is set. */
export function loadTeamsConfig(env: Env): TeamsConfig | undefined {
  if (!hasTeamsSettings(env)) return undefined;
  const clientId = noSpaces(
    'TEAMS_CLIENT_ID',
    required(env, 'TEAMS_CLIENT_ID', "the bot registration's Microsoft App ID (a GUID)."),
  );
  if (!GUID.test(clientId))
    throw new ConfigError(`TEAMS_CLIENT_ID must be the bot's Microsoft App ID, a GUID (got "${clientId}").`);
  const clientSecret = noSpaces(
    'TEAMS_CLIENT_SECRET',
    required(env, 'TEAMS_CLIENT_SECRET', "a client secret of the bot's app registration (Certificates & secrets)."),
  );
  const tenantId = noSpaces(
    'TEAMS_TENANT_ID',
    required(env, 'TEAMS_TENANT_ID', "the bot registration's home tenant id (a GUID)."),
  );
  if (!GUID.test(tenantId))
    throw new ConfigError(`TEAMS_TENANT_ID must be the home tenant's id, a GUID (got "${tenantId}").`);
  const metadata = endpoint(env, 'TEAMS_OPENID_METADATA_URL', DEFAULT_OPENID_METADATA_URL);
  if (!metadata.endsWith('/openidconfiguration'))
    throw new ConfigError(
      `TEAMS_OPENID_METADATA_URL must end with /openidconfiguration, its keys beside it at …/keys (got "${metadata}").`,
    );
  const adminUserIds = (text(env, 'TEAMS_ADMIN_USER_IDS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = adminUserIds.find((id) => !GUID.test(id) && !/^29:[\w-]+$/.test(id));
  if (bad !== undefined)
    throw new ConfigError(
      `TEAMS_ADMIN_USER_IDS must be Microsoft Entra object ids (GUIDs) separated by commas (got "${bad}").`,
    );
  return {
    clientId,
    clientSecret,
    tenantId,
    openIdMetadataUrl: metadata,
    loginUrl: endpoint(env, 'TEAMS_LOGIN_URL', DEFAULT_LOGIN_URL),
    adminUserIds,
  };
}
