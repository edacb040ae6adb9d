/**
 * The three Bot Framework fakes started together, wired to each other: the token endpoint (`TEAMS_LOGIN_URL`), the
 * OpenID metadata and keys (`TEAMS_OPENID_METADATA_URL`) and the Bot Connector, which accepts only the token
 * endpoint's tokens; and the bot as the activities name it.
 */
import type { TeamsBot } from './teams-activities.ts';
import { startTeamsConnectorFake, type TeamsConnectorFake } from './teams-connector-fake.ts';
import { startTeamsOpenIdFake, type TeamsOpenIdFake } from './teams-openid-fake.ts';
import { startTeamsTokenFake, type TeamsTokenFake } from './teams-token-fake.ts';

export interface TeamsFakes {
  tokens: TeamsTokenFake;
  openid: TeamsOpenIdFake;
  connector: TeamsConnectorFake;
  /** The bot (client id of the token endpoint) in its home tenant, its activities from the fake Bot Connector. */
  bot: TeamsBot;
  /** A good Bot Connector token for an activity of the fake Bot Connector. */
  connectorToken(): string;
  /** The settings that point a bot at the fakes. */
  env: Record<
    'TEAMS_CLIENT_ID' | 'TEAMS_CLIENT_SECRET' | 'TEAMS_TENANT_ID' | 'TEAMS_LOGIN_URL' | 'TEAMS_OPENID_METADATA_URL',
    string
  >;
  close(): Promise<void>;
}

export async function startTeamsFakes(options: { botName?: string } = {}): Promise<TeamsFakes> {
  const [tokens, openid] = await Promise.all([startTeamsTokenFake(), startTeamsOpenIdFake()]);
  const connector = await startTeamsConnectorFake({ verifyToken: (t) => tokens.verify(t) });
  const bot: TeamsBot = {
    appId: tokens.clientId,
    name: options.botName ?? 'Linen',
    tenantId: tokens.tenantId,
    serviceUrl: connector.serviceUrl,
  };
  return {
    tokens,
    openid,
    connector,
    bot,
    connectorToken: () => openid.connectorToken({ appId: tokens.clientId, serviceUrl: connector.serviceUrl }),
    env: {
      TEAMS_CLIENT_ID: tokens.clientId,
      TEAMS_CLIENT_SECRET: tokens.clientSecret,
      TEAMS_TENANT_ID: tokens.tenantId,
      TEAMS_LOGIN_URL: tokens.origin,
      TEAMS_OPENID_METADATA_URL: openid.metadataUrl,
    },
    close: async () => {
      await Promise.all([tokens.close(), openid.close(), connector.close()]);
    },
  };
}
