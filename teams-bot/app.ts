/**
 * The Microsoft Teams adapter: Microsoft's Teams SDK `App` on the service's HTTP server (`POST /api/messages`, through
 * a node:http adapter), its handlers by route name (listeners/), Adaptive Cards (cards/), and the delivery of Teams'
 * digests. Every request is authenticated by the SDK as the Bot Framework requires (an RS256 token from the keys
 * beside `TEAMS_OPENID_METADATA_URL`, issuer `https://api.botframework.com`, audience the bot's id, not expired
 * beyond 5 minutes of skew, its `serviceurl` claim the activity's); a request that fails gets 401 and is not acted
 * on. Everything it answers comes from the chat core.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUBLIC, withOverrides } from '@microsoft/teams.api';
import { App } from '@microsoft/teams.apps';
import type { ServiceLogger } from '../base/logging/logger.ts';
import type { SqlExecutor } from '../base/store/sql.ts';
import { WorkInFlight } from '../base/work-in-flight.ts';
import type { SharedDigestDeps } from '../chat/answers/answer.ts';
import type { Deadlines } from '../chat/answers/answer-in-time.ts';
import type { ConnectDeps, PlaceDeps } from '../chat/connections/answer-in-place.ts';
import type { DeliveryFor } from '../chat/digests/delivery/delivery.ts';
import type { ChatMetrics } from '../chat/operations/metrics.ts';
import { TenantAdmins } from './admins.ts';
import type { TeamsConfig } from './config.ts';
import { connectors } from './connector.ts';
import { TeamsConversations } from './conversations.ts';
import { PERMANENT_ERRORS, teamsDeliveries } from './digests/delivery.ts';
import { NodeHttpAdapter } from './http-adapter.ts';
import { registerListeners } from './listeners/index.ts';
import { PendingPdfs } from './pdf.ts';
import { sdkLogger } from './sdk-logger.ts';
import { botTokens } from './token.ts';

export const MESSAGES_PATH = '/api/messages';

export interface TeamsAdapterOptions {
  teams: TeamsConfig;
  logger: ServiceLogger;
  metrics: ChatMetrics;
  /** The service's database: the adapter's own tables live there. */
  db: SqlExecutor;
  /** Answers in place (the chat core): the Linen clients by tenant and conversation. */
  place: Omit<PlaceDeps, 'digests' | 'connect'>;
  /** `digest` commands: the store and the key new subscriptions read with (this adapter adds Teams' channels). */
  digests: SharedDigestDeps | undefined;
  /** Present when organizations connect their own keys. */
  connect: ConnectDeps | undefined;
  deadlines?: Deadlines | undefined;
}

export interface TeamsAdapter {
  app: App;
  route: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;
  paths: string[];
  /** Commands still being answered after their activity was acknowledged. */
  work: WorkInFlight;
  deliveries: DeliveryFor;
  stopCodes: readonly string[];
}

export async function createTeamsAdapter(options: TeamsAdapterOptions): Promise<TeamsAdapter> {
  const { teams, logger } = options;
  const tokens = botTokens(teams);
  const botId = `28:${teams.clientId}`;
  const connectorFor = connectors(tokens, botId);
  const http = new NodeHttpAdapter();
  const app = new App({
    clientId: teams.clientId,
    tenantId: teams.tenantId,
    // The SDK's own client-secret flow refuses a non-https authority: the token is ours (token.ts). The secret is not
    // given to the SDK (an empty one, so that it does not read CLIENT_SECRET from the environment and take over).
    token: () => tokens.get(),
    clientSecret: '',
    cloud: withOverrides(PUBLIC, { openIdMetadataUrl: teams.openIdMetadataUrl, loginEndpoint: teams.loginUrl }),
    // Explicitly: left undefined, the SDK reads DANGEROUSLY_ALLOW_UNAUTHENTICATED_REQUESTS from the environment.
    dangerouslyAllowUnauthenticatedRequests: false,
    httpServerAdapter: http,
    messagingEndpoint: MESSAGES_PATH,
    activity: { mentions: { stripText: true } },
    logger: sdkLogger(logger),
  });
  const work = new WorkInFlight();
  registerListeners(app, {
    teams,
    logger,
    metrics: options.metrics,
    place: options.place,
    digests: options.digests,
    connect: options.connect,
    deadlines: options.deadlines,
    connectorFor,
    conversations: new TeamsConversations(options.db),
    admins: new TenantAdmins(options.db, teams.adminUserIds),
    work,
    pending: new PendingPdfs(),
  });
  await app.initialize();
  return {
    app,
    route: (req, res) => http.handle(req, res),
    paths: [`POST ${MESSAGES_PATH}`],
    work,
    deliveries: teamsDeliveries({ connectorFor }),
    stopCodes: [...PERMANENT_ERRORS],
  };
}
