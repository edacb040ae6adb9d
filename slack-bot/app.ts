/**
 * The Bolt app: HTTP mode (Bolt's HTTPReceiver on POST /slack/events, plus GET /healthz) or Socket Mode
 * (when SLACK_APP_TOKEN is set; /healthz then served on PORT by the receiver's small HTTP server). In both
 * modes the digest store is opened (PostgreSQL with DATABASE_URL, else PGlite under LINEN_DATA_DIR) and the
 * digest worker runs beside the receiver; `stop()` ends both.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  App,
  type App as AppType,
  type Authorize,
  type CodedError,
  HTTPReceiver,
  SocketModeReceiver,
} from '@slack/bolt';
import { type FetchFunction, WebClient, type WebClientOptions } from '@slack/web-api';
import type { LinenClient } from '../shared/node.ts';
import type { BotConfig } from './config.ts';
import { secretsOf } from './config.ts';
import type { Logger as DigestLogger } from './digests/engine.ts';
import {
  type Clock,
  clientsByKeyRef,
  type DigestStore,
  type DigestWorker,
  keyRefOf,
  openDigestStore,
  startDigestWorker,
} from './digests/index.ts';
import { type HealthServer, startHealthServer } from './health-server.ts';
import { LinenService } from './linen.ts';
import { registerListeners } from './listeners/index.ts';
import { unroutableAuthorization, unroutableReceiverHandlers } from './listeners/unroutable.ts';
import { type BotLogger, createLogger } from './logger.ts';
import { type KeyPacers, keyPacers } from './pacing/key-pacers.ts';
import { guardSlackRequests, MAX_BODY_BYTES } from './request-guard.ts';
import type { SecretBox } from './secrets/crypto.ts';
import { slackFetch } from './slack-fetch.ts';
import type { ConnectDeps } from './workspaces/answer-in-workspace.ts';
import { ConnectionStore } from './workspaces/connection-store.ts';
import { registerWorkspaceEvents } from './workspaces/events.ts';
import { INSTALL_PATH, installReceiverOptions, REDIRECT_PATH } from './workspaces/install.ts';
import { SqlInstallationStore } from './workspaces/installation-store.ts';
import { type TeamAuthorize, teamSlackClients } from './workspaces/team-slack.ts';
import {
  connectedWorkspaceLinen,
  type ServiceFactory,
  singleWorkspaceLinen,
  type WorkspaceLinen,
} from './workspaces/workspace-linen.ts';

export const EVENTS_PATH = '/slack/events';
export const HEALTH_PATH = '/healthz';

export interface StartOptions {
  logger?: BotLogger | undefined;
  /** A ready Linen client (tests and benchmarks count its requests). */
  linenClient?: LinenClient | undefined;
  /** Listen address of the receiver and the health server (default: `BIND_ADDRESS`, else all interfaces). */
  host?: string | undefined;
  now?: (() => number) | undefined;
  /** A ready digest store (left open by `stop()`); default: opened from the configuration. */
  digestStore?: DigestStore | undefined;
  /** The API's rate limit the bot paces each key under (default 120 per 60 s; tests and benchmarks scale it). */
  rateLimit?: { limit: number; windowMs: number } | undefined;
  /** The digest worker's clock and tick (tests drive them); `worker: false` runs no worker. */
  digests?: { clock?: Clock; tickMs?: number; pacingMs?: number; worker?: boolean } | undefined;
  /**
   * Multi-workspace mode: each request's Slack token comes from `authorize` (by team), and each workspace's
   * Linen keys from its connection, stored sealed with `secrets` in the digest database.
   */
  multiWorkspace?: MultiWorkspaceOptions | undefined;
}

export interface MultiWorkspaceOptions {
  /** Each request's Slack token by team; default: Bolt's OAuth installation store (SLACK_CLIENT_ID). */
  authorize?: Authorize<boolean> | undefined;
  secrets: SecretBox;
  /** Builds the Linen service for a connected key (tests count its requests). */
  createService?: ServiceFactory | undefined;
}

export interface RunningBot {
  app: AppType;
  linen: LinenService;
  logger: BotLogger;
  mode: 'http' | 'socket';
  /** The port /slack/events (HTTP mode) or /healthz listens on. */
  port: number;
  /** The address it listens on (`::` or `0.0.0.0`: all interfaces). */
  address: string;
  digests: { store: DigestStore; worker: DigestWorker | null };
  /** Per-workspace resolution of the Linen client. */
  workspaces: WorkspaceLinen;
  /** Multi-workspace mode: the stored connections (`forget(teamId)` on uninstall). */
  connections: ConnectionStore | undefined;
  /** One pacer per key, shared by every client of the key (across replicas with PostgreSQL). */
  pacers: KeyPacers;
  stop(): Promise<void>;
}

/** The digest engine's log lines through the bot's (scrubbing) logger. */
function digestLogger(logger: BotLogger): DigestLogger {
  const line = (msg: string, data?: Record<string, unknown>) =>
    `[digests] ${msg}${data ? ` ${JSON.stringify(data)}` : ''}`;
  return { info: (m, d) => logger.info(line(m, d)), warn: (m, d) => logger.warn(line(m, d)) };
}

const healthRoute = (linen: LinenService) => ({
  path: HEALTH_PATH,
  method: ['GET'],
  handler: (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ ok: true, linen_key_configured: linen.hasKey }));
  },
});

/** Multi-workspace mode: the install flow and the per-workspace authorize on the receiver (nothing otherwise). */
function multiWorkspaceReceiverOptions(config: BotConfig, store: DigestStore) {
  if (!config.slack.oauth || !config.encryption) return {};
  return installReceiverOptions({
    oauth: config.slack.oauth,
    db: store.executor,
    box: config.encryption.box,
    clientOptions: slackClientOptions(config),
  });
}

/** Every Slack Web API client's base settings: SLACK_API_URL when set, and the bot's transport. */
function slackClientOptions(config: BotConfig): { slackApiUrl?: string; fetch: FetchFunction } {
  return { ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}), fetch: slackFetch };
}

/** A listen failure as one line naming the address (EADDRINUSE, EADDRNOTAVAIL, EACCES). */
function listenError(err: unknown, where: string, port: number): Error {
  const code = (err as { code?: string }).code;
  return new Error(`cannot listen on ${where} port ${port}${code ? ` (${code})` : ''}: check BIND_ADDRESS and PORT.`);
}

export async function startBot(config: BotConfig, options: StartOptions = {}): Promise<RunningBot> {
  const logger = options.logger ?? createLogger();
  for (const s of secretsOf(config)) logger.addSecret(s);
  const clientOptions = slackClientOptions(config);

  // Digests: the store first (a database that cannot be reached stops start-up), then the worker once listening.
  const ownStore = options.digestStore === undefined;
  const store =
    options.digestStore ?? (await openDigestStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, {}));
  // Every client of a key (commands and digests) shares the key's pacer: in PostgreSQL, across replicas.
  const pacers = keyPacers({ db: store.executor, ...options.rateLimit });
  const linen = new LinenService({
    ...config.linen,
    // Multi-workspace mode has no key here (each connected key carries its own timezone): UTC is never read.
    timeZone: config.linen.timeZone ?? 'UTC',
    pacing: config.linen.apiKey ? pacers.for(config.linen.apiKey) : undefined,
    client: options.linenClient,
    now: options.now,
  });
  if (!linen.hasKey && !config.slack.oauth)
    logger.warn('LINEN_API_KEY is not set: every /linen command will answer that no key is configured.');
  // Multi-workspace mode from the configuration (Add to Slack: Bolt's OAuth authorizes each request), or as a test
  // sets it up (its own authorize).
  const multi: MultiWorkspaceOptions | undefined =
    options.multiWorkspace ??
    (config.slack.oauth && config.encryption ? { secrets: config.encryption.box } : undefined);
  // Connections live beside the digests and installations, in the same database.
  const connections = multi ? new ConnectionStore({ db: store.executor, secrets: multi.secrets }) : undefined;
  const workspaces: WorkspaceLinen = connections
    ? connectedWorkspaceLinen({
        connections,
        createService:
          multi?.createService ??
          ((key) =>
            new LinenService({
              apiKey: key.apiKey,
              baseUrl: key.baseUrl,
              timeZone: key.timeZone,
              pacing: pacers.for(key.apiKey),
            })),
      })
    : singleWorkspaceLinen(linen, config.linen.apiKey ? keyRefOf(config.linen.apiKey) : undefined);
  const connect: ConnectDeps | undefined = connections && {
    connections,
    adminUserIds: config.digests.adminUserIds,
    allowedBaseUrls: config.linen.allowedBaseUrls,
    defaultTimeZone: config.linen.timeZone,
  };
  logger.info(
    store.driver === 'pg'
      ? 'digests: stored in PostgreSQL (DATABASE_URL), with the pacing of each key shared by the replicas'
      : `digests: stored in PGlite under ${config.dataDir}`,
  );
  // The digest engine does its own retries and Retry-After waits, so its Slack client does none; a call Slack never
  // answers ends after 30 s (a hung post then counts as an unsure one: the history is searched before a retry).
  // In multi-workspace mode each workspace's digests post with a client of these settings and its own token.
  const digestClientOptions: WebClientOptions = {
    ...clientOptions,
    logger,
    logLevel: logger.getLevel(),
    timeout: 30_000,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  };
  const digestSlack = new WebClient(config.slack.botToken, { ...digestClientOptions });
  // Multi-workspace mode: the tokens of each workspace, as Bolt authorizes its requests (set below for Bolt's OAuth).
  let teamAuthorize: TeamAuthorize | undefined = multi?.authorize;
  const keyRef = config.linen.apiKey ? keyRefOf(config.linen.apiKey) : undefined;
  const host = options.host ?? config.host;
  let app: AppType;
  if (config.mode === 'socket') {
    const receiver = new SocketModeReceiver({
      appToken: config.slack.appToken!,
      logger,
      // The Socket Mode client calls apps.connections.open with its own Web API client: it must use the same
      // SLACK_API_URL as the bot's (a copy: the client adds its retry settings to the object it is given).
      installerOptions: { clientOptions: { ...clientOptions } },
    });
    app = new App({
      token: config.slack.botToken,
      receiver,
      socketMode: true,
      extendedErrorHandler: true,
      logger,
      logLevel: logger.getLevel(),
      clientOptions,
    });
  } else {
    const receiver = new HTTPReceiver({
      signingSecret: config.slack.signingSecret!,
      endpoints: EVENTS_PATH,
      customRoutes: [healthRoute(linen)],
      logger,
      processBeforeResponse: false,
      bodyLimit: MAX_BODY_BYTES,
      // A payload the bot cannot route gets a 200 and an info line, not Bolt's 500 (or 404) and error line.
      ...unroutableReceiverHandlers(),
      ...multiWorkspaceReceiverOptions(config, store),
    });
    // Bolt's server calls `requestListener` for every request: the checks go in front of it.
    // Bolt's OAuth: the installer that authorizes each request also gives the digest worker its tokens.
    const installer = receiver.installer;
    if (multi && installer) teamAuthorize ??= (source) => installer.authorize(source);
    receiver.requestListener = guardSlackRequests(receiver.requestListener, {
      paths: [EVENTS_PATH],
      warn: (line) => logger.warn(line),
    });
    const auth = multi?.authorize ? { authorize: multi.authorize } : { token: config.slack.botToken };
    app = new App({
      ...auth,
      receiver,
      extendedErrorHandler: true,
      logger,
      logLevel: logger.getLevel(),
      clientOptions,
    });
  }
  if (config.slack.oauth && config.encryption) {
    const installations = new SqlInstallationStore({ db: store.executor, box: config.encryption.box });
    registerWorkspaceEvents(app, { db: store.executor, installations, logger });
  }

  // `extendedErrorHandler`: the handler is given the payload too.
  app.error(async ({ error, body }: { error: CodedError; body: unknown }) => {
    // Multi-workspace mode: a payload naming no workspace has no installation to authorize it.
    const unroutable = unroutableAuthorization(error, body, multi !== undefined);
    if (unroutable) logger.info(`ignored ${unroutable}`);
    else logger.error(`unhandled error in a listener: ${error.name}: ${error.message}`);
  });
  registerListeners(app, {
    workspaces,
    connect,
    logger,
    now: options.now,
    digests: { store: async () => store, slack: digestSlack, keyRef, adminUserIds: config.digests.adminUserIds },
  });

  let port = config.port;
  let address = host ?? '::';
  let health: HealthServer | undefined;
  const where = host ?? 'all interfaces';
  try {
    if (config.mode === 'http') {
      const server = (await app.start(host ? { port: config.port, host } : config.port).catch((err: unknown) => {
        throw listenError(err, where, config.port);
      })) as Server;
      ({ port, address } = server.address() as AddressInfo);
      const install = config.slack.oauth ? `, GET ${INSTALL_PATH} and ${REDIRECT_PATH}` : '';
      logger.info(`listening on port ${port} (${where}): POST ${EVENTS_PATH}, GET ${HEALTH_PATH}${install}`);
    } else {
      health = await startHealthServer({
        path: HEALTH_PATH,
        handler: healthRoute(linen).handler,
        port: config.port,
        host,
      }).catch((err: unknown) => {
        throw listenError(err, where, config.port);
      });
      ({ port, address } = health);
      await app.start();
      logger.info(`connected to Slack in Socket Mode; GET ${HEALTH_PATH} on port ${port} (${where})`);
    }
  } catch (err) {
    // Nothing started stays open: the process can exit, or a caller can try again.
    await app.stop().catch(() => {});
    await health?.close();
    if (ownStore) await store.close().catch(() => {});
    await workspaces.close().catch(() => {});
    await linen.close().catch(() => {});
    throw err;
  }

  let worker: DigestWorker | null = null;
  if (options.digests?.worker !== false) {
    // Subscriptions name their key by reference; the bot reads with its one configured key.
    // Multi-workspace mode: the key a subscription names, opened from the connection that holds it.
    const linenClientFor = connections
      ? (ref: string) => workspaces.clientForKeyRef(ref)
      : clientsByKeyRef(config.linen.apiKey ? [config.linen.apiKey] : [], () => linen.backgroundClient);
    // Multi-workspace mode: each subscription posts with its own workspace's token, never with another's.
    const slack = teamAuthorize
      ? teamSlackClients({
          authorize: teamAuthorize,
          clientOptions: digestClientOptions,
          enterpriseOf: connections && ((teamId) => connections.enterpriseOf(teamId)),
        })
      : digestSlack;
    worker = startDigestWorker({
      store,
      slack,
      linenClientFor,
      logger: digestLogger(logger),
      graceMs: config.digests.graceMinutes * 60_000,
      ...(options.digests?.clock ? { clock: options.digests.clock } : {}),
      ...(options.digests?.tickMs !== undefined ? { tickMs: options.digests.tickMs } : {}),
      ...(options.digests?.pacingMs !== undefined ? { pacingMs: options.digests.pacingMs } : {}),
    });
    logger.info(`digests: worker ${worker.workerId} started (grace ${config.digests.graceMinutes} min)`);
  }

  let stopping: Promise<void> | undefined;
  return {
    app,
    linen,
    logger,
    mode: config.mode,
    port,
    address,
    digests: { store, worker },
    workspaces,
    connections,
    pacers,
    stop() {
      stopping ??= (async () => {
        await app.stop().catch((err: unknown) => logger.debug(`stop: ${(err as Error).message}`));
        await health?.close();
        // Let a digest tick in progress finish (its claims are leased, so a kill would be recovered too).
        await worker?.stop();
        if (ownStore)
          await store.close().catch((err: unknown) => logger.debug(`digest store close: ${(err as Error).message}`));
        await workspaces.close();
        await linen.close();
      })();
      return stopping;
    },
  };
}
