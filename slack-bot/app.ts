/**
 * The Bolt app: HTTP mode (Bolt's HTTPReceiver on POST /slack/events, plus GET /healthz) or Socket Mode
 * (when SLACK_APP_TOKEN is set; /healthz then served on PORT by the receiver's small HTTP server).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, SocketModeReceiver, type App as AppType } from '@slack/bolt';
import type { LinenClient } from '../shared/node.ts';
import type { BotConfig } from './config.ts';
import { secretsOf } from './config.ts';
import { LinenService } from './linen.ts';
import { createLogger, type BotLogger } from './logger.ts';
import { registerListeners } from './listeners/index.ts';

export const EVENTS_PATH = '/slack/events';
export const HEALTH_PATH = '/healthz';

export interface StartOptions {
  logger?: BotLogger | undefined;
  /** A ready Linen client (tests and benchmarks count its requests). */
  linenClient?: LinenClient | undefined;
  /** Listen address in HTTP mode (default: all interfaces). */
  host?: string | undefined;
  now?: (() => number) | undefined;
}

export interface RunningBot {
  app: AppType;
  linen: LinenService;
  logger: BotLogger;
  mode: 'http' | 'socket';
  /** The port /slack/events (HTTP mode) or /healthz listens on. */
  port: number;
  stop(): Promise<void>;
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
  const linen = new LinenService({ ...config.linen, client: options.linenClient, now: options.now });
  if (!linen.hasKey) logger.warn('LINEN_API_KEY is not set: every /linen command will answer that no key is configured.');

  const clientOptions = config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {};
  let app: AppType;
  let receiverServer: () => Server | undefined;
  if (config.mode === 'socket') {
    const receiver = new SocketModeReceiver({
      appToken: config.slack.appToken!,
      logger,
      customRoutes: [healthRoute(linen)],
      installerOptions: { port: config.port },
    });
    app = new App({ token: config.slack.botToken, receiver, socketMode: true, logger, logLevel: logger.getLevel(), clientOptions });
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
  registerListeners(app, { linen, logger, now: options.now });

  let port = config.port;
  if (config.mode === 'http') {
    const server = (await app.start(options.host ? { port: config.port, host: options.host } : config.port)) as Server;
    port = (server.address() as AddressInfo).port;
    logger.info(`listening on port ${port}: POST ${EVENTS_PATH}, GET ${HEALTH_PATH}`);
  } else {
    await app.start();
    const s = receiverServer();
    const addr = s?.address();
    if (addr && typeof addr === 'object') port = addr.port;
    logger.info(`connected to Slack in Socket Mode; GET ${HEALTH_PATH} on port ${port}`);
  }

  let stopping: Promise<void> | undefined;
  return {
    app,
    linen,
    logger,
    mode: config.mode,
    port,
    stop() {
      stopping ??= (async () => {
        await app.stop().catch((err: unknown) => logger.debug(`stop: ${(err as Error).message}`));
        await linen.close();
      })();
      return stopping;
    },
  };
}
