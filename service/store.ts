/**
 * The service's one database: every part's tables (the pacing's, the chat core's), migrated together on open, and
 * every sealed column among them. PostgreSQL with `DATABASE_URL`, else PGlite under `LINEN_DATA_DIR`.
 */
import { PACING_MIGRATIONS } from '../base/pacing/migrations.ts';
import type { SealedColumn } from '../base/secrets/reencrypt.ts';
import { type DatabaseLocation, openDatabase } from '../base/store/database.ts';
import { type Migration, migrate } from '../base/store/migrate.ts';
import type { SqlExecutor } from '../base/store/sql.ts';
import { CHAT_MIGRATIONS, CHAT_SEALED_COLUMNS } from '../chat/store.ts';

export const SERVICE_MIGRATIONS: readonly Migration[] = [...PACING_MIGRATIONS, ...CHAT_MIGRATIONS];

export const SEALED_COLUMNS: readonly SealedColumn[] = CHAT_SEALED_COLUMNS;

/** The service's database, opened and migrated. */
export function openServiceDatabase(location: DatabaseLocation, env?: NodeJS.ProcessEnv): Promise<SqlExecutor> {
  return openDatabase(location, SERVICE_MIGRATIONS, env);
}

/** A database opened elsewhere (a test's), migrated to the service's tables. */
export async function migrateServiceDatabase(db: SqlExecutor): Promise<SqlExecutor> {
  await migrate(db, SERVICE_MIGRATIONS);
  return db;
}
