/**
 * The Bolt app: HTTP mode (Bolt's HTTPReceiver on POST /slack/events, plus GET /healthz) or Socket Mode
 * (when SLACK_APP_TOKEN is set; /healthz then served on PORT by the receiver's small HTTP server). In both
 * modes the digest store is opened (PostgreSQL with DATABASE_URL, else PGlite under LINEN_DATA_DIR) and the
 * digest worker runs beside the receiver; `stop()` ends both.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, type App as AppType, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import { WebClient } from '@slack/web-api';
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
import { LinenService } from './linen.ts';
import { registerListeners } from './listeners/index.ts';
import { type BotLogger, createLogger } from './logger.ts';
import { type KeyPacers, keyPacers } from './pacing/key-pacers.ts';

export const EVENTS_PATH = '/slack/events';
export const HEALTH_PATH = '/healthz';

export interface StartOptions {
  logger?: BotLogger | undefined;
  /** A ready Linen client (tests and benchmarks count its requests). */
  linenClient?: LinenClient | undefined;
  /** Listen address in HTTP mode (default: all interfaces). */
  host?: string | undefined;
  now?: (() => number) | undefined;
  /** A ready digest store (left open by `stop()`); default: opened from the configuration. */
  digestStore?: DigestStore | undefined;
  /** The API's rate limit the bot paces each key under (default 120 per 60 s; tests and benchmarks scale it). */
  rateLimit?: { limit: number; windowMs: number } | undefined;
  /** The digest worker's clock and tick (tests drive them); `worker: false` runs no worker. */
  digests?: { clock?: Clock; tickMs?: number; pacingMs?: number; worker?: boolean } | undefined;
}

export interface RunningBot {
  app: AppType;
  linen: LinenService;
  logger: BotLogger;
  mode: 'http' | 'socket';
  /** The port /slack/events (HTTP mode) or /healthz listens on. */
  port: number;
  digests: { store: DigestStore; worker: DigestWorker | null };
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

export async function startBot(config: BotConfig, options: StartOptions = {}): Promise<RunningBot> {
  const logger = options.logger ?? createLogger();
  for (const s of secretsOf(config)) logger.addSecret(s);
  const clientOptions = config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {};

  // Digests: the store first (a database that cannot be reached stops start-up), then the worker once listening.
  const ownStore = options.digestStore === undefined;
  const store =
    options.digestStore ?? (await openDigestStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }, {}));
  logger.info(
    store.driver === 'pg'
      ? 'digests: stored in PostgreSQL (DATABASE_URL), with the pacing of each key shared by the replicas'
      : `digests: stored in PGlite under ${config.dataDir}`,
  );
  // Every client of a key (commands and digests) shares the key's pacer: in PostgreSQL, across replicas.
  const pacers = keyPacers({ db: store.sql, ...options.rateLimit });
  const linen = new LinenService({
    ...config.linen,
    pacing: config.linen.apiKey ? pacers.for(config.linen.apiKey) : undefined,
    client: options.linenClient,
    now: options.now,
  });
  if (!linen.hasKey)
    logger.warn('LINEN_API_KEY is not set: every /linen command will answer that no key is configured.');
  // The digest engine does its own retries and Retry-After waits, so its Slack client does none.
  const digestSlack = new WebClient(config.slack.botToken, {
    ...clientOptions,
    logger,
    logLevel: logger.getLevel(),
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
  const keyRef = config.linen.apiKey ? keyRefOf(config.linen.apiKey) : undefined;
  let app: AppType;
  let receiverServer: () => Server | undefined;
  if (config.mode === 'socket') {
    const receiver = new SocketModeReceiver({
      appToken: config.slack.appToken!,
      logger,
      customRoutes: [healthRoute(linen)],
      // The Socket Mode client calls apps.connections.open with its own Web API client: it must use the same
      // SLACK_API_URL as the bot's (a copy: the client adds its retry settings to the object it is given).
      installerOptions: { port: config.port, clientOptions: { ...clientOptions } },
    });
    app = new App({
      token: config.slack.botToken,
      receiver,
      socketMode: true,
      logger,
      logLevel: logger.getLevel(),
      clientOptions,
    });
    receiverServer = () => (receiver as unknown as { httpServer?: Server }).httpServer;
  } else {
    const receiver = new HTTPReceiver({
      signingSecret: config.slack.signingSecret!,
      endpoints: EVENTS_PATH,
      customRoutes: [healthRoute(linen)],
      logger,
      processBeforeResponse: false,
    });
    app = new App({ token: config.slack.botToken, receiver, logger, logLevel: logger.getLevel(), clientOptions });
    receiverServer = () => undefined;
  }

  app.error(async (err) => {
    logger.error(`unhandled error in a listener: ${(err as Error).name}: ${(err as Error).message}`);
  });
  registerListeners(app, {
    linen,
    logger,
    now: options.now,
    digests: { store: async () => store, slack: digestSlack, keyRef, adminUserIds: config.digests.adminUserIds },
  });

  let port = config.port;
  try {
    if (config.mode === 'http') {
      const server = (await app.start(
        options.host ? { port: config.port, host: options.host } : config.port,
      )) as Server;
      port = (server.address() as AddressInfo).port;
      logger.info(`listening on port ${port}: POST ${EVENTS_PATH}, GET ${HEALTH_PATH}`);
    } else {
      await app.start();
      const s = receiverServer();
      const addr = s?.address();
      if (addr && typeof addr === 'object') port = addr.port;
      logger.info(`connected to Slack in Socket Mode; GET ${HEALTH_PATH} on port ${port}`);
    }
  } catch (err) {
    if (ownStore) await store.close().catch(() => {});
    throw err;
  }

  let worker: DigestWorker | null = null;
  if (options.digests?.worker !== false) {
    // Subscriptions name their key by reference; the bot reads with its one configured key.
    const linenClientFor = clientsByKeyRef(config.linen.apiKey ? [config.linen.apiKey] : [], () => linen.client);
    worker = startDigestWorker({
      store,
      slack: digestSlack,
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
    digests: { store, worker },
    pacers,
    stop() {
      stopping ??= (async () => {
        await app.stop().catch((err: unknown) => logger.debug(`stop: ${(err as Error).message}`));
        // Let a digest tick in progress finish (its claims are leased, so a kill would be recovered too).
        await worker?.stop();
        if (ownStore)
          await store.close().catch((err: unknown) => logger.debug(`digest store close: ${(err as Error).message}`));
        await linen.close();
      })();
      return stopping;
    },
  };
}
