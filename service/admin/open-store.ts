/**
 * Opening the bot's store for the operator, with the bot's settings (DATABASE_URL, else PGlite under
 * LINEN_DATA_DIR), without migrating or creating it: a folder that holds no store is an empty store, and every
 * failure to open is one sentence. A PGlite folder is one process's database: while a service holds it, it cannot be
 * read from here (PGlite has no read-only mode that is safe beside a writer), and the service is asked instead
 * (`held`: ask-service.ts). PostgreSQL is read directly whether the service runs or not.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataFolderInUseError, isConnectionFailure, StoreUnavailableError } from '../../base/store/errors.ts';
import { openPg } from '../../base/store/pg.ts';
import { openPglite } from '../../base/store/pglite.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { ConfigError, loadStorageConfig } from '../config.ts';
import type { HeldStore } from './ask-service.ts';
import { statusSocketPath } from './status-socket.ts';

/** The store could not be opened; `message` is the sentence for the operator. */
export class StoreNotOpenedError extends Error {
  override name = 'StoreNotOpenedError';
}

export type OpenedStore =
  | { kind: 'open'; db: SqlExecutor; where: string }
  | { kind: 'absent'; where: string }
  /** The folder is held by a live process: the service to ask for the report. */
  | ({ kind: 'held'; where: string } & HeldStore);

/** Where a PostgreSQL store is, without its user, password or options. */
function describePg(url: string): string {
  try {
    const u = new URL(url);
    return `PostgreSQL at ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/** A driver's message with anything of the URL's credentials taken out. */
function scrubbed(message: string, url: string): string {
  let out = message;
  try {
    const u = new URL(url);
    for (const s of [decodeURIComponent(u.password), u.password, url])
      if (s.length >= 3) out = out.split(s).join('***');
  } catch {
    out = out.split(url).join('***');
  }
  return out;
}

export async function openStoreForAdmin(env: Record<string, string | undefined>): Promise<OpenedStore> {
  let storage: ReturnType<typeof loadStorageConfig>;
  try {
    storage = loadStorageConfig(env);
  } catch (err) {
    throw new StoreNotOpenedError(err instanceof ConfigError ? err.message : String(err));
  }
  if (storage.databaseUrl) return openPostgres(storage.databaseUrl);
  const folder = resolve(join(storage.dataDir, 'digests'));
  const where = `PGlite in ${folder}`;
  if (!existsSync(folder) || readdirSync(folder).length === 0) return { kind: 'absent', where };
  try {
    return { kind: 'open', db: await openPglite(folder), where };
  } catch (err) {
    if (err instanceof DataFolderInUseError) {
      const socket = statusSocketPath(storage.dataDir);
      return {
        kind: 'held',
        where: `${where}, read by the running service (pid ${err.pid})`,
        folder,
        pid: err.pid,
        socket,
      };
    }
    throw new StoreNotOpenedError(`Cannot open the store in ${folder}: ${(err as Error).message}`);
  }
}

async function openPostgres(url: string): Promise<OpenedStore> {
  const where = describePg(url);
  let db: SqlExecutor | undefined;
  try {
    db = await openPg({ connectionString: url, max: 1 });
    await db.query('SELECT 1');
    return { kind: 'open', db, where };
  } catch (err) {
    await db?.close().catch(() => {});
    const cause = err instanceof StoreUnavailableError ? err.cause : err;
    const e = cause as { message?: string; code?: string } | null;
    const detail = scrubbed(e?.message || e?.code || String(cause), url);
    throw new StoreNotOpenedError(
      isConnectionFailure(cause)
        ? `Cannot reach the store: ${where} is not answering (${detail}); check that the server is up and DATABASE_URL is right.`
        : `Cannot open the store: ${where} refused (${detail}).`,
    );
  }
}
