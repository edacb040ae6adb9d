/**
 * Opening the digest store: `DATABASE_URL=postgres://...` uses that PostgreSQL server (several replicas);
 * otherwise PGlite in `LINEN_DATA_DIR` (default `./data`). Migrations run on open.
 */
import { join } from 'node:path';
import { migrate } from './migrations.ts';
import { openPg } from './pg.ts';
import { openPglite } from './pglite.ts';
import type { SqlExecutor } from './sql.ts';
import { SqlDigestStore } from './store.ts';
import type { DigestStore } from './types.ts';

export { migrate } from './migrations.ts';
export { openPg } from './pg.ts';
export { openPglite } from './pglite.ts';
export type { SqlExecutor } from './sql.ts';
export type * from './types.ts';

export async function storeOver(db: SqlExecutor): Promise<DigestStore> {
  await migrate(db);
  return new SqlDigestStore(db);
}

export interface OpenStoreOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** PostgreSQL only: a schema (search_path) to keep the tables in. */
  schema?: string | undefined;
}

/** From options, falling back to `DATABASE_URL` and `LINEN_DATA_DIR`. */
export async function openDigestStore(
  options: OpenStoreOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Promise<DigestStore> {
  const url = options.databaseUrl ?? env.DATABASE_URL;
  if (url)
    return storeOver(await openPg({ connectionString: url, ...(options.schema ? { schema: options.schema } : {}) }));
  const dir = options.dataDir ?? env.LINEN_DATA_DIR ?? './data';
  return storeOver(await openPglite(join(dir, 'digests')));
}
