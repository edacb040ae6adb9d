/**
 * `npm run excel:serve`: the Excel add-in served alone, without Slack: its files and relay under `/excel/` and
 * `GET /healthz`, on PORT (https with TLS_CERT_FILE and TLS_KEY_FILE, as Office requires, or behind a proxy that
 * terminates TLS at PUBLIC_URL). Each key is paced in this process, or with DATABASE_URL in PostgreSQL, shared with
 * the bot's replicas on that database. Without LINEN_BASE_URL the sandbox API starts beside it, for a trial.
 * The bot serves the same routes on its own port when it listens on HTTP (slack-bot/app.ts).
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger, type ServiceLogger } from '../../base/logging/logger.ts';
import { keyPacers } from '../../base/pacing/key-pacers.ts';
import { PACING_MIGRATIONS } from '../../base/pacing/migrations.ts';
import { ConfigError } from '../../base/settings.ts';
import { openDatabase } from '../../base/store/database.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { listen } from '../../service/listen.ts';
import { getOrInsert } from '../../shared/collections.ts';
import { DEFAULT_PACING, Pacer, type RequestPacer } from '../../shared/core/pacing.ts';
import { keyFingerprint } from '../../shared/sharing/shared-answers.ts';
import { type ExcelServeConfig, loadExcelServeConfig } from './config.ts';
import { withExcelRoutes } from './mount.ts';
import { createExcelRoutes } from './routes.ts';

export const HEALTH_PATH = '/healthz';

export interface ExcelServer {
  /** `http(s)://host:port` as it listens. */
  origin: string;
  port: number;
  /** The API the relay forwards to (the sandbox's when LINEN_BASE_URL is unset). */
  baseUrl: string;
  close(): Promise<void>;
}

const health: RequestListener = (req, res) => {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path === HEALTH_PATH && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ ok: true }));
    return;
  }
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Not found: the add-in is at /excel/\n');
};

/** Whether the built manifest points at `publicUrl` (a build for another address cannot be sideloaded here). */
async function manifestWarning(config: ExcelServeConfig): Promise<string | undefined> {
  const manifest = await readFile(join(config.filesDir, 'manifest.xml'), 'utf8').catch(() => undefined);
  if (manifest === undefined) return `the add-in is not built in ${config.filesDir}: run npm run build`;
  if (config.publicUrl && !manifest.includes(`${config.publicUrl.replace(/\/+$/, '')}/excel/`))
    return `the manifest in ${config.filesDir} was built for another address than PUBLIC_URL: build again with this PUBLIC_URL`;
  return undefined;
}

export interface ServeOptions {
  logger?: ServiceLogger | undefined;
  /** The API's rate limit each key is paced under (default 120 per 60 s; tests scale it). */
  rateLimit?: { limit: number; windowMs: number } | undefined;
}

export async function serveExcel(config: ExcelServeConfig, options: ServeOptions = {}): Promise<ExcelServer> {
  const logger = options.logger ?? createLogger({ format: config.logFormat, name: 'linen-excel' });
  let sandbox: Sandbox | undefined;
  let store: SqlExecutor | undefined;
  let server: Server | undefined;
  try {
    let baseUrl = config.baseUrl;
    if (!baseUrl) {
      sandbox = await startSandbox({ port: 0 });
      baseUrl = sandbox.baseUrl;
      logger.info(`LINEN_BASE_URL is not set: the sandbox API runs at ${baseUrl} (demo key lk_live_demo_all_access)`);
    }
    let pacerFor: (apiKey: string) => RequestPacer;
    if (config.databaseUrl) {
      // Only the pacing's table: the bot's replicas on the same database share it.
      store = await openDatabase({ databaseUrl: config.databaseUrl }, PACING_MIGRATIONS);
      const pacers = keyPacers({ db: store, ...options.rateLimit });
      pacerFor = (key) => pacers.for(key);
    } else {
      const pacers = new Map<string, RequestPacer>();
      pacerFor = (key) =>
        getOrInsert(pacers, keyFingerprint(key), () => new Pacer({ ...(options.rateLimit ?? DEFAULT_PACING) }));
    }
    const routes = createExcelRoutes({ baseUrl, pacerFor, logger, filesDir: config.filesDir });
    const listener = withExcelRoutes(health, routes, (line) => logger.warn(line));
    server = config.tls
      ? createHttpsServer({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) }, listener)
      : createHttpServer(listener);
    const listening = await listen(server, config.port, config.host);
    const { port, address } = listening;
    const scheme = config.tls ? 'https' : 'http';
    const host = address.includes(':') ? `[${address}]` : address;
    const origin = `${scheme}://${host === '[::]' || host === '0.0.0.0' ? 'localhost' : host}:${port}`;
    logger.info(
      `serving the Excel add-in at ${origin}/excel/ (relay ${origin}/excel/api/v1 to ${baseUrl}; pacing ${store ? 'in PostgreSQL' : 'in this process'}), GET ${HEALTH_PATH}`,
    );
    const warning = await manifestWarning(config);
    if (warning) logger.warn(`excel: ${warning}`);
    const openStore = store;
    const openSandbox = sandbox;
    return {
      origin,
      port,
      baseUrl,
      async close() {
        await listening.close();
        await routes.close();
        await openStore?.close();
        await openSandbox?.close();
      },
    };
  } catch (err) {
    server?.close();
    await store?.close().catch(() => {});
    await sandbox?.close();
    throw err;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const running = await serveExcel(loadExcelServeConfig(process.env));
    const stop = () => {
      running.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  } catch (err) {
    console.error(
      `linen-excel: ${err instanceof ConfigError ? '' : 'could not start: '}${(err as Error)?.message ?? String(err)}`,
    );
    process.exit(1);
  }
}
