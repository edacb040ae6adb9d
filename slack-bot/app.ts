/**
 * The Slack adapter: the Bolt app and its listeners, on the service's HTTP server (`/slack/events`, and the install
 * flow's `/slack/install` and `/slack/oauth_redirect` with many workspaces) or over Socket Mode, and the delivery of
 * Slack's digests. Everything it answers comes from the chat core; this folder knows Bolt and Block Kit.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  App,
  type App as AppType,
  type Authorize,
  type CodedError,
  HTTPReceiver,
  SocketModeReceiver,
} from '@slack/bolt';
import { type FetchFunction, WebClient, type WebClientOptions } from '@slack/web-api';
import type { ServiceLogger } from '../base/logging/logger.ts';
import type { SecretBox } from '../base/secrets/crypto.ts';
import type { SqlExecutor } from '../base/store/sql.ts';
import { WorkInFlight } from '../base/work-in-flight.ts';
import type { SharedDigestDeps } from '../chat/answers/answer.ts';
import type { Deadlines } from '../chat/answers/answer-in-time.ts';
import type { ConnectDeps, PlaceDeps } from '../chat/connections/answer-in-place.ts';
import type { ConnectionStore } from '../chat/connections/connection-store.ts';
import type { DeliveryFor } from '../chat/digests/delivery/delivery.ts';
import type { ChatMetrics } from '../chat/operations/metrics.ts';
import { boltLogger } from './bolt-logger.ts';
import type { SlackConfig } from './config.ts';
import { slackDigestChannels } from './digests/channels.ts';
import { PERMANENT_ERRORS, slackDeliveries } from './digests/delivery.ts';
import { registerListeners } from './listeners/index.ts';
import { unroutableAuthorization, unroutableReceiverHandlers } from './listeners/unroutable.ts';
import { guardSlackRequests, MAX_BODY_BYTES } from './request-guard.ts';
import { slackFetch } from './slack-fetch.ts';
import { registerWorkspaceEvents } from './workspaces/events.ts';
import { INSTALL_PATH, installReceiverOptions, REDIRECT_PATH } from './workspaces/install.ts';
import { SqlInstallationStore } from './workspaces/installation-store.ts';
import { type TeamAuthorize, teamSlackClients } from './workspaces/team-slack.ts';

export const EVENTS_PATH = '/slack/events';

export interface MultiWorkspaceOptions {
  /** Each request's Slack token by team; default: Bolt's OAuth installation store (SLACK_CLIENT_ID). */
  authorize?: Authorize<boolean> | undefined;
  secrets: SecretBox;
}

export interface SlackAdapterOptions {
  slack: SlackConfig;
  mode: 'http' | 'socket';
  /** Seals installations (tokens) at rest, with many workspaces. */
  secrets: SecretBox | undefined;
  logger: ServiceLogger;
  metrics: ChatMetrics;
  /** The service's database: the adapter's own tables live there. */
  db: SqlExecutor;
  /** Answers in place (the chat core): the Linen clients by workspace and channel. */
  place: Omit<PlaceDeps, 'digests' | 'connect'>;
  /** `/linen digest`: the store and the key new subscriptions read with (this adapter adds Slack's channels). */
  digests: SharedDigestDeps | undefined;
  /** `LINEN_ADMIN_USER_IDS`: the Slack users who alone may manage digests (none: anyone in the channel). */
  digestAdmins: readonly string[];
  connections: ConnectionStore | undefined;
  connect: ConnectDeps | undefined;
  /** Many workspaces: each request's token from its installation (Bolt's OAuth, or a test's authorize). */
  multi: MultiWorkspaceOptions | undefined;
  deadlines?: Deadlines | undefined;
}

export interface SlackAdapter {
  app: AppType;
  mode: 'http' | 'socket';
  /** HTTP mode: answers the requests of Slack's paths on the service's server. */
  route: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  /** What the start-up line names. */
  paths: string[];
  /** Socket Mode: connects to Slack (HTTP mode has nothing to start: the service's server listens). */
  start(): Promise<void>;
  /** Socket Mode: disconnects. */
  stop(): Promise<void>;
  /** Requests still being answered. */
  work: WorkInFlight;
  /** Each Slack subscription's delivery: its workspace's own token, or the bot's. */
  deliveries: DeliveryFor;
  /** The platform's permanent delivery error codes (kept as metric labels). */
  stopCodes: readonly string[];
}

/** Every Slack Web API client's base settings: SLACK_API_URL when set, and the bot's transport. */
export function slackClientOptions(slack: SlackConfig): { slackApiUrl?: string; fetch: FetchFunction } {
  return { ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}), fetch: slackFetch };
}

/** Multi-workspace mode: the install flow and the per-workspace authorize on the receiver (nothing otherwise). */
function multiWorkspaceReceiverOptions(options: SlackAdapterOptions) {
  if (!options.slack.oauth || !options.secrets) return {};
  return installReceiverOptions({
    oauth: options.slack.oauth,
    db: options.db,
    box: options.secrets,
    clientOptions: slackClientOptions(options.slack),
  });
}

export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { slack: config, mode, logger, db, multi } = options;
  // What Bolt, its receivers and its Web API clients log goes through the same scrubbing.
  const sdkLogger = boltLogger(logger);
  const clientOptions = slackClientOptions(config);
  // The digest engine does its own retries and Retry-After waits, so its Slack client does none; a call Slack never
  // answers ends after 30 s (a hung post then counts as an unsure one: the history is searched before a retry).
  // In multi-workspace mode each workspace's digests post with a client of these settings and its own token.
  const digestClientOptions: WebClientOptions = {
    ...clientOptions,
    logger: sdkLogger,
    logLevel: sdkLogger.getLevel(),
    timeout: 30_000,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  };
  const digestSlack = new WebClient(config.botToken, { ...digestClientOptions });
  // Multi-workspace mode: the tokens of each workspace, as Bolt authorizes its requests (set below for Bolt's OAuth).
  let teamAuthorize: TeamAuthorize | undefined = multi?.authorize;
  let app: AppType;
  let route: SlackAdapter['route'];
  if (mode === 'socket') {
    const receiver = new SocketModeReceiver({
      appToken: config.appToken!,
      logger: sdkLogger,
      // The Socket Mode client calls apps.connections.open with its own Web API client: it must use the same
      // SLACK_API_URL as the bot's (a copy: the client adds its retry settings to the object it is given).
      installerOptions: { clientOptions: { ...clientOptions } },
    });
    app = new App({
      token: config.botToken,
      receiver,
      socketMode: true,
      extendedErrorHandler: true,
      logger: sdkLogger,
      logLevel: sdkLogger.getLevel(),
      clientOptions,
    });
  } else {
    const receiver = new HTTPReceiver({
      signingSecret: config.signingSecret!,
      endpoints: EVENTS_PATH,
      logger: sdkLogger,
      processBeforeResponse: false,
      bodyLimit: MAX_BODY_BYTES,
      // A payload the bot cannot route gets a 200 and an info line, not Bolt's 500 (or 404) and error line.
      ...unroutableReceiverHandlers(),
      ...multiWorkspaceReceiverOptions(options),
    });
    // Bolt's OAuth: the installer that authorizes each request also gives the digest worker its tokens.
    const installer = receiver.installer;
    if (multi && installer) teamAuthorize ??= (source) => installer.authorize(source);
    // The receiver is not started: the service's server hands it Slack's paths, checked first (request-guard.ts).
    const listener = guardSlackRequests(receiver.requestListener, {
      paths: [EVENTS_PATH],
      warn: (line) => logger.warn(line),
    });
    const paths = new Set([EVENTS_PATH, ...(config.oauth ? [INSTALL_PATH, REDIRECT_PATH] : [])]);
    route = (req, res) => {
      if (!paths.has(new URL(req.url ?? '/', 'http://localhost').pathname)) return false;
      listener(req, res);
      return true;
    };
    const auth = multi?.authorize ? { authorize: multi.authorize } : { token: config.botToken };
    app = new App({
      ...auth,
      receiver,
      extendedErrorHandler: true,
      logger: sdkLogger,
      logLevel: sdkLogger.getLevel(),
      clientOptions,
    });
  }
  if (config.oauth && options.secrets) {
    const installations = new SqlInstallationStore({ db: db, box: options.secrets });
    registerWorkspaceEvents(app, { db: db, installations, logger });
  }

  // `extendedErrorHandler`: the handler is given the payload too.
  app.error(async ({ error, body }: { error: CodedError; body: unknown }) => {
    // Multi-workspace mode: a payload naming no workspace has no installation to authorize it.
    const unroutable = unroutableAuthorization(error, body, multi !== undefined);
    if (unroutable) logger.info(`ignored ${unroutable}`);
    else logger.error(`unhandled error in a listener: ${error.name}: ${error.message}`);
  });
  // Counted until answered, so that a shutdown lets them finish.
  const work = new WorkInFlight();
  app.use(work.middleware);
  registerListeners(app, {
    ...options.place,
    connect: options.connect,
    logger,
    digestSlack,
    deadlines: options.deadlines,
    digests: options.digests && {
      ...options.digests,
      platform: 'slack',
      channels: slackDigestChannels(digestSlack),
      adminUserIds: options.digestAdmins,
    },
    metrics: options.metrics,
  });

  // Multi-workspace mode: each subscription posts with its own workspace's token, never with another's.
  const connections = options.connections;
  const slackForDigests = teamAuthorize
    ? teamSlackClients({
        authorize: teamAuthorize,
        clientOptions: digestClientOptions,
        enterpriseOf: connections && ((teamId) => connections.enterpriseOf(teamId)),
      })
    : digestSlack;
  const paths =
    mode === 'http'
      ? [`POST ${EVENTS_PATH}`, ...(config.oauth ? [`GET ${INSTALL_PATH} and ${REDIRECT_PATH}`] : [])]
      : [];
  return {
    app,
    mode,
    route,
    paths,
    async start() {
      if (mode === 'socket') await app.start();
    },
    async stop() {
      if (mode === 'socket') await app.stop().catch((err: unknown) => logger.debug(`stop: ${(err as Error).message}`));
    },
    work,
    deliveries: slackDeliveries(slackForDigests),
    stopCodes: [...PERMANENT_ERRORS],
  };
}
