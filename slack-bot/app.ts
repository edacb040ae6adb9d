/**
 * The Bolt app: HTTP mode (Bolt's HTTPReceiver on POST /slack/events, plus GET /healthz) or Socket Mode
 * (when SLACK_APP_TOKEN is set; /healthz then served on PORT by the receiver's small HTTP server). In both
 * modes the digest store is opened (PostgreSQL with DATABASE_URL, else PGlite under LINEN_DATA_DIR) and the
 * digest worker runs beside the receiver; `stop()` ends both.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import {
  App,
  type App as AppType,
  type Authorize,
  type CodedError,
  HTTPReceiver,
  SocketModeReceiver,
} from '@slack/bolt';
import { type FetchFunction, WebClient, type WebClientOptions } from '@slack/web-api';
import { withExcelRoutes } from '../excel-addin/service/mount.ts';
import { createExcelRoutes, type ExcelRoutes } from '../excel-addin/service/routes.ts';
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
import { logFields } from './log-fields.ts';
import { type BotLogger, createLogger } from './logger.ts';
import { BotMetrics } from './operations/metrics.ts';
import {
  METRICS_PATH,
  type MetricsServer,
  metricsOnBotPort,
  serveMetricsOwnPort,
} from './operations/metrics-endpoint.ts';
import { readStoreCounts, storeCountingErrors } from './operations/store-metrics.ts';
import { type KeyPacers, keyPacers } from './pacing/key-pacers.ts';
import { platformReadiness, READY_PATH, Readiness, storeReadiness } from './readiness.ts';
import { guardSlackRequests, MAX_BODY_BYTES } from './request-guard.ts';
import type { SecretBox } from './secrets/crypto.ts';
import { settlesWithin } from './settles-within.ts';
import { CLOSE_MS, DRAIN_MS, refuseWhileStopping, WorkInFlight } from './shutdown.ts';
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
  /** How long `stop()` waits for commands and digests under way (default DRAIN_MS). */
  drainMs?: number | undefined;
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
  /** The service's metrics (`GET /metrics`), in a registry of this bot's own. */
  metrics: BotMetrics;
  /** The port `/metrics` listens on when `METRICS_PORT` is set. */
  metricsPort: number | undefined;
  /** `GET /readyz`'s checks (another platform adds its own). */
  readiness: Readiness;
  /**
   * Stops taking work (readiness goes, the listener closes, a request on an open connection gets 503), lets the
   * commands under way finish by their deadline and the digests be posted or given back, then closes the store.
   */
  stop(): Promise<void>;
}

/** The digest engine's log lines through the bot's (scrubbing) logger. */
function digestLogger(logger: BotLogger): DigestLogger {
  // The data is shown in a plain-text line, and its fields in a JSON one.
  const args = (msg: string, data?: Record<string, unknown>) =>
    data ? [`[digests] ${msg}`, logFields(data, { inText: true })] : [`[digests] ${msg}`];
  return { info: (m, d) => logger.info(...args(m, d)), warn: (m, d) => logger.warn(...args(m, d)) };
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
  const logger = options.logger ?? createLogger({ format: config.logFormat });
  for (const s of secretsOf(config)) logger.addSecret(s);
  const clientOptions = slackClientOptions(config);

  // Digests: the store first (a database that cannot be reached stops start-up), then the worker once listening.
  const ownStore = options.digestStore === undefined;
  const metrics = new BotMetrics('slack');
  // Its failures are counted as store errors, whoever meets them.
  const store = storeCountingErrors(
    options.digestStore ?? (await openDigestStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, {})),
    metrics,
  );
  metrics.gaugeStore(readStoreCounts(store));
  const readiness = new Readiness();
  readiness.add(storeReadiness(store.executor));
  const slackReady = platformReadiness('slack');
  readiness.add(slackReady);
  let stopping: Promise<void> | undefined;
  // Every client of a key (commands and digests) shares the key's pacer: in PostgreSQL, across replicas.
  const pacers = keyPacers({ db: store.executor, ...options.rateLimit });
  const linen = new LinenService({
    ...config.linen,
    // Multi-workspace mode has no key here (each connected key carries its own timezone): UTC is never read.
    timeZone: config.linen.timeZone ?? 'UTC',
    pacing: config.linen.apiKey ? pacers.for(config.linen.apiKey) : undefined,
    client: options.linenClient,
    now: options.now,
    observer: metrics.linenObserver,
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
              observer: metrics.linenObserver,
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
  // HTTP mode also serves the Excel add-in and its relay at /excel/ (excel-addin/service/routes.ts).
  let excel: ExcelRoutes | undefined;
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
      customRoutes: [
        healthRoute(linen),
        { path: READY_PATH, method: ['GET'], handler: readiness.handler() },
        { path: METRICS_PATH, method: ['GET'], handler: metricsOnBotPort(metrics, config.metrics) },
      ],
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
    excel = createExcelRoutes({
      baseUrl: config.linen.baseUrl,
      pacerFor: (apiKey) => pacers.for(apiKey),
      logger,
      observer: metrics.linenObserver,
      filesDir: config.excelAddinDir ?? resolve('dist/excel-addin'),
    });
    receiver.requestListener = refuseWhileStopping(
      withExcelRoutes(
        guardSlackRequests(receiver.requestListener, {
          paths: [EVENTS_PATH],
          warn: (line) => logger.warn(line),
        }),
        excel,
        (line) => logger.warn(line),
      ),
      () => stopping !== undefined,
      [HEALTH_PATH, READY_PATH],
    );
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
  // Counted until answered, so that a shutdown lets them finish.
  const work = new WorkInFlight();
  app.use(work.middleware);
  registerListeners(app, {
    workspaces,
    connect,
    logger,
    now: options.now,
    digests: { store: async () => store, slack: digestSlack, keyRef, adminUserIds: config.digests.adminUserIds },
    metrics,
  });

  let port = config.port;
  let address = host ?? '::';
  let health: HealthServer | undefined;
  let metricsServer: MetricsServer | undefined;
  let server: Server | undefined;
  const where = host ?? 'all interfaces';
  try {
    if (config.mode === 'http') {
      server = (await app.start(host ? { port: config.port, host } : config.port).catch((err: unknown) => {
        throw listenError(err, where, config.port);
      })) as Server;
      ({ port, address } = server.address() as AddressInfo);
      const install = config.slack.oauth ? `, GET ${INSTALL_PATH} and ${REDIRECT_PATH}` : '';
      logger.info(
        `listening on port ${port} (${where}): POST ${EVENTS_PATH}, GET ${HEALTH_PATH} and ${READY_PATH}${install}, the Excel add-in at /excel/`,
      );
    } else {
      health = await startHealthServer({
        routes: {
          [HEALTH_PATH]: healthRoute(linen).handler,
          [READY_PATH]: readiness.handler(),
          [METRICS_PATH]: metricsOnBotPort(metrics, config.metrics),
        },
        port: config.port,
        host,
      }).catch((err: unknown) => {
        throw listenError(err, where, config.port);
      });
      ({ port, address } = health);
      await app.start();
      logger.info(`connected to Slack in Socket Mode; GET ${HEALTH_PATH} and ${READY_PATH} on port ${port} (${where})`);
    }
    metricsServer = await serveMetricsOwnPort(metrics, config.metrics);
    if (metricsServer) logger.info(`GET ${METRICS_PATH} on port ${metricsServer.port} (${metricsServer.address})`);
    slackReady.started();
  } catch (err) {
    // Nothing started stays open: the process can exit, or a caller can try again.
    await app.stop().catch(() => {});
    await excel?.close();
    await health?.close();
    await metricsServer?.close();
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
      observer: metrics.digestObserver,
      ...(options.digests?.clock ? { clock: options.digests.clock } : {}),
      ...(options.digests?.tickMs !== undefined ? { tickMs: options.digests.tickMs } : {}),
      ...(options.digests?.pacingMs !== undefined ? { pacingMs: options.digests.pacingMs } : {}),
    });
    logger.info(`digests: worker ${worker.workerId} started (grace ${config.digests.graceMinutes} min)`);
  }

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
    readiness,
    metrics,
    metricsPort: metricsServer?.port,
    stop() {
      stopping ??= (async () => {
        readiness.stopping();
        const drainMs = options.drainMs ?? DRAIN_MS;
        // No new work: the listener closes (new connections are refused) or the socket disconnects.
        const closed = app.stop().catch((err: unknown) => logger.debug(`stop: ${(err as Error).message}`));
        // What is under way ends: commands by their deadline; digests posted, or given back unclaimed.
        const [answered] = await Promise.all([work.idle(drainMs), worker?.stop({ drainMs })]);
        if (!answered) logger.warn(`stopped with ${work.size} Slack request(s) still being answered`);
        server?.closeAllConnections();
        await closed;
        await excel?.close();
        await health?.close();
        await metricsServer?.close();
        if (ownStore)
          await store.close().catch((err: unknown) => logger.debug(`digest store close: ${(err as Error).message}`));
        // A Linen request still open (a command given up at the drain) is not waited for.
        const clientsClosed = await settlesWithin(Promise.all([workspaces.close(), linen.close()]), CLOSE_MS);
        if (!clientsClosed) logger.debug('stop: Linen API requests still open; not waiting for them');
      })();
      return stopping;
    },
  };
}
