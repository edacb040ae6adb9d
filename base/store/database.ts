/**
 * Opening the service's database: `DATABASE_URL=postgres://...` uses that PostgreSQL server (several replicas share
 * it); otherwise PGlite, embedded, in `LINEN_DATA_DIR` (default `./data`). The migrations the caller names are
 * applied on open. Every part of the service keeps its tables in this one database.
 */
import { join } from 'node:path';
import { type Migration, migrate } from './migrate.ts';
import { openPg } from './pg.ts';
import { openPglite } from './pglite.ts';
import type { SqlExecutor } from './sql.ts';

export interface DatabaseLocation {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** PostgreSQL only: a schema (search_path) to keep the tables in. */
  schema?: string | undefined;
}

/** The embedded store's folder under `LINEN_DATA_DIR` (named for the first tables it held; kept for existing data). */
export function pgliteFolder(dataDir: string): string {
  return join(dataDir, 'digests');
}

/** From the location, falling back to `DATABASE_URL` and `LINEN_DATA_DIR`; migrated with `migrations`. */
export async function openDatabase(
  location: DatabaseLocation,
  migrations: readonly Migration[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<SqlExecutor> {
  const url = location.databaseUrl ?? env.DATABASE_URL;
  const db = url
    ? await openPg({ connectionString: url, ...(location.schema ? { schema: location.schema } : {}) })
    : await openPglite(pgliteFolder(location.dataDir ?? env.LINEN_DATA_DIR ?? './data'));
  try {
    await migrate(db, migrations);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
}
