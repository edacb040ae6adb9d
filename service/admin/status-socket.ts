/**
 * The running service's end of `npm run admin -- status` on the embedded store. PGlite is one process's database:
 * while the service holds its folder nobody else may open it, so the service itself answers the report, read by
 * the same `readStatus`, over HTTP on a Unix domain socket in its data folder (`LINEN_DATA_DIR/status.sock`).
 *
 * Why a socket in the folder rather than a route on the service's HTTP server (guarded like `/metrics`): it needs
 * no token to configure, hand out or leak, and nothing of it is reachable from the network; who may ask is who may
 * reach the folder, the same people who could read the store with the service stopped, and the socket itself is
 * the service's user's alone (mode 0600). It is served only for a store this process opened itself in a folder:
 * on PostgreSQL the command reads the database directly, as it does with the service stopped.
 *
 * The wire: `GET /status` answers 200 with `{ service, version, pid, report }` (dates as ISO strings), 500 with
 * `{ error }` when the store cannot be read, 404 for anything else (ask-service.ts reads it). A person can ask it
 * too: `curl --unix-socket data/status.sock http://localhost/status`.
 */
import { chmodSync, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import type { ServiceLogger } from '../../base/logging/logger.ts';
import { settlesWithin } from '../../base/settles-within.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { readStatus } from './status.ts';

export const STATUS_PATH = '/status';

/** What the answer is; a command that finds another `version` says so instead of misreading it. */
export const STATUS_WIRE = { service: 'linen-connect', version: 1 } as const;

/** The socket of the service that holds the embedded store under `dataDir` (LINEN_DATA_DIR). */
export function statusSocketPath(dataDir: string): string {
  return resolve(dataDir, 'status.sock');
}

/** The longest path a Unix socket can be bound or reached at (sun_path: 104 bytes on macOS, 108 on Linux). */
const SOCKET_PATH_MAX = process.platform === 'darwin' ? 103 : 107;

/** Why `path` cannot be a socket, or undefined. */
export function socketPathProblem(path: string): string | undefined {
  const bytes = Buffer.byteLength(path);
  return bytes > SOCKET_PATH_MAX
    ? `its path ${path} is ${bytes} bytes, longer than a Unix socket allows (${SOCKET_PATH_MAX}): give LINEN_DATA_DIR a shorter path`
    : undefined;
}

export interface StatusSocket {
  path: string;
  /** Stops answering (a report under way is finished first, briefly) and removes the socket. */
  close(): Promise<void>;
}

/** How long a stop waits for a report under way before it cuts the connection. */
const CLOSE_WAIT_MS = 1_000;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' });
  res.end(`${JSON.stringify(body)}\n`);
}

/**
 * Serves the report for `database` when it is the embedded store under `dataDir`; undefined on PostgreSQL, and
 * when the socket cannot be made (one warning: the service runs on, and the command reads the folder once it
 * stops). `apiKey` is the service's LINEN_API_KEY: the report names its last four, as the command does with its own.
 */
export async function serveStatusSocket(options: {
  database: SqlExecutor;
  dataDir: string;
  apiKey: string | undefined;
  logger: ServiceLogger;
}): Promise<StatusSocket | undefined> {
  const { database, logger } = options;
  if (database.driver !== 'pglite') return undefined;
  const path = statusSocketPath(options.dataDir);
  const env = { LINEN_API_KEY: options.apiKey };
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://localhost').pathname !== STATUS_PATH)
      return json(res, 404, { error: `not found: ask GET ${STATUS_PATH}` });
    readStatus(database, env).then(
      (report) => json(res, 200, { ...STATUS_WIRE, pid: process.pid, report }),
      (err: unknown) => {
        const message = (err as Error)?.message ?? String(err);
        logger.warn(`npm run admin -- status: the store could not be read: ${message}`);
        json(res, 500, { error: message });
      },
    );
  });

  const problem = socketPathProblem(path);
  if (problem) {
    logger.warn(`npm run admin -- status cannot ask this service: ${problem}`);
    return undefined;
  }
  // Bound in a fresh folder only this user may enter (mkdtemp makes it 0700), made 0600, then moved into place:
  // nobody can connect before the mode is set, and a socket left by a service that was killed (this process holds
  // the store, so no live one is there) is replaced in the same step.
  let staging: string | undefined;
  let inode: number;
  try {
    staging = mkdtempSync(join(resolve(options.dataDir), '.s'));
    const bound = join(staging, 's');
    await new Promise<void>((done, fail) => {
      server.once('error', fail);
      server.listen(bound, () => {
        server.off('error', fail);
        done();
      });
    });
    chmodSync(bound, 0o600);
    renameSync(bound, path);
    inode = statSync(path).ino;
    // A failure to accept a connection later (too many open files) is the command's loss, never the service's.
    server.on('error', (err) => logger.warn(`npm run admin -- status: the socket failed: ${err.message}`));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    logger.warn(
      `npm run admin -- status cannot ask this service: no socket at ${path} (${code ?? (err as Error).message}); it reads the store once the service stops`,
    );
    server.close();
    return undefined;
  } finally {
    if (staging) rmSync(staging, { recursive: true, force: true });
  }
  logger.info(`npm run admin -- status asks this service on ${path}`);

  let closing: Promise<void> | undefined;
  return {
    path,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((done) => server.close(() => done()));
        server.closeIdleConnections();
        if (!(await settlesWithin(closed, CLOSE_WAIT_MS))) {
          server.closeAllConnections();
          await closed;
        }
        // Node removes the path it bound (the staging one); the socket moved into place is this process's to remove,
        // unless something else has been put there since.
        if (statSync(path, { throwIfNoEntry: false })?.ino === inode) rmSync(path, { force: true });
      })();
      return closing;
    },
  };
}
