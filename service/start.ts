/**
 * The service: one process that answers on Slack and on Teams (whichever is configured) from one store, one digest
 * worker and one pacing per key. It opens the store (PostgreSQL with DATABASE_URL, else PGlite under LINEN_DATA_DIR),
 * makes the Linen clients (the environment's key, or each organization's connected keys), mounts each platform's
 * adapter on one HTTP server with the operator's probes, and runs the digest worker, which posts each subscription
 * through its own platform. `stop()` drains and closes it all.
 */
import { resolve } from 'node:path';
import { clientsByKeyRef, keyRefOf } from '../base/key-ref.ts';
import { logFields } from '../base/logging/log-fields.ts';
import { createLogger, type ServiceLogger } from '../base/logging/logger.ts';
import { countingFailures, databaseCountingErrors } from '../base/metrics/counting-failures.ts';
import { type KeyPacers, keyPacers } from '../base/pacing/key-pacers.ts';
import { settlesWithin } from '../base/settles-within.ts';
import type { SqlExecutor } from '../base/store/sql.ts';
import { ALERT_KIND_REGISTRY } from '../chat/alerts/check.ts';
import { alertReads } from '../chat/alerts/reads.ts';
import { countingCheckRequests, countingRequests } from '../chat/alerts/request-count.ts';
import { AlertStore } from '../chat/alerts/storage/store.ts';
import { type AlertWorker, startAlertWorker } from '../chat/alerts/worker.ts';
import type { AlertDeps, SharedDigestDeps } from '../chat/answers/answer.ts';
import type { Deadlines } from '../chat/answers/answer-in-time.ts';
import type { ConnectDeps } from '../chat/connections/answer-in-place.ts';
import { ConnectionStore } from '../chat/connections/connection-store.ts';
import {
  connectedWorkspaceLinen,
  type ServiceFactory,
  singleWorkspaceLinen,
  type WorkspaceLinen,
} from '../chat/connections/place-linen.ts';
import { ChannelPacer } from '../chat/digests/delivery/channel-pacer.ts';
import type { DeliveryFor } from '../chat/digests/delivery/delivery.ts';
import type { Logger as DigestLogger } from '../chat/digests/engine.ts';
import {
  type Clock,
  type DigestStore,
  type DigestWorker,
  startDigestWorker,
  type Timers,
} from '../chat/digests/index.ts';
import { digestStoreOver } from '../chat/digests/storage/index.ts';
import { FollowStore } from '../chat/home/follows.ts';
import { LinenService } from '../chat/linen.ts';
import { ChatMetrics, type Platform as MetricsPlatform } from '../chat/operations/metrics.ts';
import { readStoreCounts } from '../chat/operations/store-metrics.ts';
import { createExcelRoutes, type ExcelRoutes } from '../excel-addin/service/routes.ts';
import { createODataRoutes, type ODataRoutes } from '../odata/routes.ts';
import { type LinenClient, sharedTransport } from '../shared/node.ts';
import { createSlackAdapter, type MultiWorkspaceOptions, type SlackAdapter } from '../slack-bot/app.ts';
import { createTeamsAdapter, type TeamsAdapter } from '../teams-bot/app.ts';
import { serveStatusSocket } from './admin/status-socket.ts';
import { type BotConfig, secretsOf } from './config.ts';
import { type HttpServer, startHttpServer } from './http-server.ts';
import { METRICS_PATH, type MetricsServer, metricsOnBotPort, serveMetricsOwnPort } from './metrics-endpoint.ts';
import { platformReadiness, READY_PATH, Readiness, storeReadiness } from './readiness.ts';
import { CLOSE_MS, DRAIN_MS } from './shutdown.ts';
import { openServiceDatabase } from './store.ts';

export const HEALTH_PATH = '/healthz';
export type { MultiWorkspaceOptions } from '../slack-bot/app.ts';

export interface StartOptions {
  logger?: ServiceLogger | undefined;
  /** A ready Linen client (tests and benchmarks count its requests). */
  linenClient?: LinenClient | undefined;
  /** Listen address of the HTTP server (default: `BIND_ADDRESS`, else all interfaces). */
  host?: string | undefined;
  now?: (() => number) | undefined;
  /** A ready database, migrated (left open by `stop()`); default: opened from the configuration. */
  database?: SqlExecutor | undefined;
  /** The API's rate limit the bot paces each key under (default 120 per 60 s; tests and benchmarks scale it). */
  rateLimit?: { limit: number; windowMs: number } | undefined;
  /** The digest worker's clock and tick (tests drive them); `worker: false` runs no worker. */
  digests?: { clock?: Clock; tickMs?: number; pacingMs?: number; worker?: boolean } | undefined;
  /** The alert worker's clock and timers (tests drive them); `worker: false` runs no worker. */
  alerts?: { clock?: Clock & Partial<Timers>; worker?: boolean } | undefined;
  /**
   * Slack for many workspaces: each request's Slack token comes from `authorize` (by team), and each workspace's
   * Linen keys from its connection, stored sealed with `secrets` in the digest database.
   */
  multiWorkspace?: MultiWorkspaceOptions | undefined;
  /** Builds the Linen service for a connected key (tests count its requests). */
  createService?: ServiceFactory | undefined;
  /** How long `stop()` waits for commands and digests under way (default DRAIN_MS). */
  drainMs?: number | undefined;
  /** When a person sees the interim message and the "not answering" sentence (tests shorten them). */
  deadlines?: Deadlines | undefined;
}

export interface RunningBot {
  slack: SlackAdapter | undefined;
  teams: TeamsAdapter | undefined;
  linen: LinenService;
  logger: ServiceLogger;
  /** Slack's mode (`http` when Slack is not configured: the service listens on HTTP). */
  mode: 'http' | 'socket';
  /** The port the HTTP server listens on. */
  port: number;
  /** The address it listens on (`::` or `0.0.0.0`: all interfaces). */
  address: string;
  /** The service's one database (every part's tables). */
  database: SqlExecutor;
  digests: { store: DigestStore; worker: DigestWorker | null };
  alerts: { store: AlertStore; worker: AlertWorker | null };
  /** Per-place resolution of the Linen client. */
  workspaces: WorkspaceLinen;
  /** Organizations' connected keys (`forget(teamId)` on uninstall), when they connect their own. */
  connections: ConnectionStore | undefined;
  /** One pacer per key, shared by every client of the key (across replicas with PostgreSQL). */
  pacers: KeyPacers;
  /** The service's metrics (`GET /metrics`), in a registry of this bot's own. */
  metrics: ChatMetrics;
  /** The port `/metrics` listens on when `METRICS_PORT` is set. */
  metricsPort: number | undefined;
  /** `GET /readyz`'s checks. */
  readiness: Readiness;
  /**
   * Stops taking work (readiness goes, the listener closes, a request on an open connection gets 503), lets the
   * commands under way finish by their deadline and the digests be posted or given back, then closes the store.
   */
  stop(): Promise<void>;
}

/** The digest engine's log lines through the bot's (scrubbing) logger. */
function digestLogger(logger: ServiceLogger, part = 'digests'): DigestLogger {
  // The data is shown in a plain-text line, and its fields in a JSON one.
  const args = (msg: string, data?: Record<string, unknown>) =>
    data ? [`[${part}] ${msg}`, logFields(data, { inText: true })] : [`[${part}] ${msg}`];
  return { info: (m, d) => logger.info(...args(m, d)), warn: (m, d) => logger.warn(...args(m, d)) };
}

/** A listen failure as one line naming the address (EADDRINUSE, EADDRNOTAVAIL, EACCES). */
function listenError(err: unknown, where: string, port: number): Error {
  const code = (err as { code?: string }).code;
  return new Error(`cannot listen on ${where} port ${port}${code ? ` (${code})` : ''}: check BIND_ADDRESS and PORT.`);
}

/** The platform commands come from when only one answers; metrics of shared work carry it. */
function primaryPlatform(config: BotConfig): MetricsPlatform {
  return config.slack ? 'slack' : 'teams';
}

export async function startBot(config: BotConfig, options: StartOptions = {}): Promise<RunningBot> {
  const logger = options.logger ?? createLogger({ format: config.logFormat });
  for (const s of secretsOf(config)) logger.addSecret(s);

  // The store first (a database that cannot be reached stops start-up), then the worker once listening.
  const ownDatabase = options.database === undefined;
  const metrics = new ChatMetrics(primaryPlatform(config));
  const database =
    options.database ?? (await openServiceDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, {}));
  // Its failures are counted as store errors, whoever meets them: the digest store's by its operation, the queries
  // of the other parts (connections, installations, pacing) as `sql_query` and `sql_transaction`.
  const db = databaseCountingErrors(database, (op) => metrics.storeError(op));
  const store = countingFailures(digestStoreOver(database), (op) => metrics.storeError(op));
  const alertStore = countingFailures(new AlertStore(database), (op) => metrics.storeError(op));
  // The requests of an alert check are counted for it (linen_alert_check_requests), whichever client sends them.
  const linenObserver = countingCheckRequests(metrics.linenObserver);
  metrics.gaugeStore(readStoreCounts(db, store));
  const readiness = new Readiness();
  readiness.add(storeReadiness(db));
  let stopping: Promise<void> | undefined;
  // Every client of a key (commands and digests) shares the key's pacer: in PostgreSQL, across replicas.
  const pacers = keyPacers({ db, ...options.rateLimit });
  // Every key's clients share the process's connections to the API.
  const api = sharedTransport();
  const linen = new LinenService({
    ...config.linen,
    // With connected keys there is no key here (each carries its own timezone): UTC is never read.
    timeZone: config.linen.timeZone ?? 'UTC',
    pacing: config.linen.apiKey ? pacers.for(config.linen.apiKey) : undefined,
    client: options.linenClient,
    now: options.now,
    observer: linenObserver,
    transport: api.shared,
  });
  if (!linen.hasKey && !config.connected)
    logger.warn('LINEN_API_KEY is not set: every /linen command will answer that no key is configured.');
  // Slack for many workspaces from the configuration (Add to Slack: Bolt's OAuth authorizes each request), or as a
  // test sets it up (its own authorize).
  const multi: MultiWorkspaceOptions | undefined =
    options.multiWorkspace ??
    (config.slack?.oauth && config.encryption ? { secrets: config.encryption.box } : undefined);
  // Organizations connect their own keys: the connections live beside the digests, in the same database.
  const secrets = multi?.secrets ?? (config.connected ? config.encryption?.box : undefined);
  const connections = secrets ? new ConnectionStore({ db, secrets }) : undefined;
  const workspaces: WorkspaceLinen = connections
    ? connectedWorkspaceLinen({
        connections,
        createService:
          options.createService ??
          ((key) =>
            new LinenService({
              apiKey: key.apiKey,
              baseUrl: key.baseUrl,
              timeZone: key.timeZone,
              pacing: pacers.for(key.apiKey),
              observer: linenObserver,
              transport: api.shared,
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
    db.driver === 'pg'
      ? 'digests: stored in PostgreSQL (DATABASE_URL), with the pacing of each key shared by the replicas'
      : `digests: stored in PGlite under ${config.dataDir}`,
  );
  const keyRef = config.linen.apiKey ? keyRefOf(config.linen.apiKey) : undefined;
  const digestDeps: SharedDigestDeps = {
    store: async () => store,
    keyRef,
  };
  // The worker is started once the service listens; `alert test` asks it to deliver at once.
  let alertWorker: AlertWorker | null = null;
  const alertDeps: AlertDeps = {
    store: async () => alertStore,
    pollMs: config.digests.alertsPollMs,
    wake: () => void alertWorker?.tick().catch(() => {}),
  };
  // What each person follows on their home, kept beside the digests.
  const follows = new FollowStore(db);
  const place = { workspaces, logger, now: options.now, alerts: alertDeps, home: { follows: async () => follows } };
  // One pace per channel, whatever posts there: a digest and an alert to one channel are spaced too.
  const channelPacer = new ChannelPacer(options.digests?.pacingMs ?? 1000);

  let slack: SlackAdapter | undefined;
  let teams: TeamsAdapter | undefined;
  let excel: ExcelRoutes | undefined;
  let odata: ODataRoutes | undefined;
  const deliveries = new Map<string, DeliveryFor>();
  const host = options.host ?? config.host;
  let port = config.port;
  let address = host ?? '::';
  let server: HttpServer | undefined;
  let metricsServer: MetricsServer | undefined;
  const where = host ?? 'all interfaces';
  try {
    if (config.slack) {
      const slackReady = platformReadiness('slack');
      readiness.add(slackReady);
      slack = createSlackAdapter({
        slack: config.slack,
        mode: config.mode,
        secrets: config.encryption?.box,
        logger,
        metrics,
        db,
        place,
        digests: digestDeps,
        digestAdmins: config.digests.adminUserIds,
        connections,
        connect: multi ? connect : undefined,
        multi,
        deadlines: options.deadlines,
      });
      deliveries.set('slack', slack.deliveries);
      metrics.addStopCodes(slack.stopCodes);
      slackReady.started();
    }
    if (config.teams) {
      const teamsReady = platformReadiness('teams');
      readiness.add(teamsReady);
      teams = await createTeamsAdapter({
        teams: config.teams,
        logger,
        metrics,
        db,
        place,
        digests: digestDeps,
        connect,
        deadlines: options.deadlines,
      });
      deliveries.set('teams', teams.deliveries);
      metrics.addStopCodes(teams.stopCodes);
      teamsReady.started();
    }
    // Excel's add-in and its read-only relay, wherever the service listens (excel-addin/service/routes.ts).
    excel = createExcelRoutes({
      baseUrl: config.linen.baseUrl,
      pacerFor: (apiKey) => pacers.for(apiKey),
      logger,
      observer: metrics.linenObserverFor('excel_relay'),
      filesDir: config.excelAddinDir ?? resolve('dist/excel-addin'),
    });
    // The OData feed for Excel's Get Data and Power BI, with each caller's own key (odata/routes.ts).
    odata = createODataRoutes({
      baseUrl: config.linen.baseUrl,
      pacerFor: (apiKey) => pacers.for(apiKey),
      logger,
      observer: metrics.linenObserverFor('odata'),
      publicUrl: config.publicUrl,
    });
    const routes = [excel, odata, ...(slack?.route ? [slack.route] : []), ...(teams ? [teams.route] : [])];
    server = await startHttpServer({
      port: config.port,
      host,
      probes: {
        [HEALTH_PATH]: (_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          res.end(JSON.stringify({ ok: true, linen_key_configured: linen.hasKey }));
        },
        [READY_PATH]: readiness.handler(),
        [METRICS_PATH]: metricsOnBotPort(metrics, config.metrics),
      },
      routes,
      isStopping: () => stopping !== undefined,
      onError: (err) => logger.error(`a request failed: ${(err as Error).name}: ${(err as Error).message}`),
    }).catch((err: unknown) => {
      throw listenError(err, where, config.port);
    });
    ({ port, address } = server);
    if (slack?.mode === 'socket') {
      await slack.start();
      logger.info('connected to Slack in Socket Mode');
    }
    const paths = [...(slack?.paths ?? []), ...(teams?.paths ?? [])];
    logger.info(
      `listening on port ${port} (${where}): ${[...paths, `GET ${HEALTH_PATH} and ${READY_PATH}`, 'the Excel add-in at /excel/', 'the OData feed at /odata/'].join(', ')}`,
    );
    metricsServer = await serveMetricsOwnPort(metrics, config.metrics);
    if (metricsServer) logger.info(`GET ${METRICS_PATH} on port ${metricsServer.port} (${metricsServer.address})`);
  } catch (err) {
    // Nothing started stays open: the process can exit, or a caller can try again.
    await slack?.stop();
    await server?.close();
    await excel?.close();
    await odata?.close();
    await metricsServer?.close();
    if (ownDatabase) await database.close().catch(() => {});
    await workspaces.close().catch(() => {});
    await linen.close().catch(() => {});
    await api.close().catch(() => {});
    throw err;
  }

  // `npm run admin -- status` asks the service that holds the embedded store's folder (admin/status-socket.ts).
  const statusSocket = ownDatabase
    ? await serveStatusSocket({ database, dataDir: config.dataDir, apiKey: config.linen.apiKey, logger })
    : undefined;

  // Subscriptions and alerts name their key by reference; the service reads with its one configured key, or with
  // the connected key one names, opened from the connection that holds it.
  const linenClientFor = connections
    ? (ref: string) => workspaces.clientForKeyRef(ref)
    : clientsByKeyRef(config.linen.apiKey ? [config.linen.apiKey] : [], () => linen.backgroundClient);
  let worker: DigestWorker | null = null;
  if (options.digests?.worker !== false) {
    worker = startDigestWorker({
      store,
      // Each subscription posts through its own platform; one whose platform is not configured here is stopped.
      deliveries: async (sub) => (await deliveries.get(sub.platform)?.(sub)) ?? null,
      linenClientFor,
      logger: digestLogger(logger),
      graceMs: config.digests.graceMinutes * 60_000,
      observer: metrics.digestObserver,
      pacer: channelPacer,
      ...(options.digests?.clock ? { clock: options.digests.clock } : {}),
      ...(options.digests?.tickMs !== undefined ? { tickMs: options.digests.tickMs } : {}),
    });
    logger.info(`digests: worker ${worker.workerId} started (grace ${config.digests.graceMinutes} min)`);
  }
  if (options.alerts?.worker !== false) {
    const clock = options.alerts?.clock;
    alertWorker = startAlertWorker({
      store: alertStore,
      kinds: ALERT_KIND_REGISTRY,
      deliveries: async (owner) => (await deliveries.get(owner.platform)?.(owner)) ?? null,
      linenClientFor,
      readsOf: (client, now) => alertReads(client, { now }),
      counting: countingRequests,
      pollMs: config.digests.alertsPollMs,
      pacer: channelPacer,
      logger: digestLogger(logger, 'alerts'),
      observer: metrics.alertObserver,
      ...(clock ? { clock } : {}),
      ...(clock?.after && clock.cancel ? { timers: clock as Timers } : {}),
    });
    logger.info(
      `alerts: worker ${alertWorker.workerId} started (each key checked every ${config.digests.alertsPollMs / 1000} s)`,
    );
  }

  return {
    slack,
    teams,
    linen,
    logger,
    mode: slack?.mode ?? 'http',
    port,
    address,
    database,
    digests: { store, worker },
    alerts: { store: alertStore, worker: alertWorker },
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
        const closed = new Promise<void>((resolve) => server!.server.close(() => resolve()));
        const disconnected = slack?.stop();
        // What is under way ends: commands by their deadline; digests posted, or given back unclaimed.
        const work = [
          ...(slack ? [['Slack', slack.work] as const] : []),
          ...(teams ? [['Teams', teams.work] as const] : []),
        ];
        const [idle] = await Promise.all([
          Promise.all(work.map(([, w]) => w.idle(drainMs))),
          worker?.stop({ drainMs }),
          alertWorker?.stop({ drainMs }),
        ]);
        work.forEach(([name, w], i) => {
          if (!idle[i]) logger.warn(`stopped with ${w.size} ${name} request(s) still being answered`);
        });
        server!.server.closeAllConnections();
        await closed;
        await disconnected;
        await excel?.close();
        await odata?.close();
        await metricsServer?.close();
        await statusSocket?.close();
        await store.drain().catch((err: unknown) => logger.debug(`digest store drain: ${(err as Error).message}`));
        if (ownDatabase)
          await database.close().catch((err: unknown) => logger.debug(`database close: ${(err as Error).message}`));
        // A Linen request still open (a command given up at the drain) is not waited for.
        const clientsClosed = await settlesWithin(
          Promise.all([workspaces.close(), linen.close()]).then(() => api.close()),
          CLOSE_MS,
        );
        if (!clientsClosed) logger.debug('stop: Linen API requests still open; not waiting for them');
      })();
      return stopping;
    },
  };
}
