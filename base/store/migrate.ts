/**
 * SQL migrations, applied in order inside one transaction and recorded in `digest_migrations` (the table's name is
 * the first one the store had; every part's migrations are recorded there). Each part of the service that keeps
 * tables brings its own list (the pacing, the chat connections, digests, alerts); the process applies their union,
 * sorted by version, so versions are unique across parts. A transaction advisory lock (keyed by the current schema)
 * makes concurrent starts wait for each other, so several replicas starting at once apply each migration exactly once.
 */
import type { SqlExecutor } from './sql.ts';

export interface Migration {
  version: number;
  name: string;
  /** Statements separated by `;` at the end of a line. */
  sql: string;
}

function ordered(migrations: readonly Migration[]): Migration[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]!.version === sorted[i - 1]!.version)
      throw new Error(`two migrations are numbered ${sorted[i]!.version}: ${sorted[i - 1]!.name}; ${sorted[i]!.name}`);
  return sorted;
}

/** Applies the migrations the database has not applied yet; returns their versions. */
export async function migrate(db: SqlExecutor, migrations: readonly Migration[]): Promise<number[]> {
  const all = ordered(migrations);
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':linen_digest_migrations'))`);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS digest_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await tx.query<{ version: number }>('SELECT version FROM digest_migrations')).map((r) => Number(r.version)),
    );
    const applied: number[] = [];
    for (const m of all) {
      if (done.has(m.version)) continue;
      for (const stmt of m.sql
        .split(/;\s*\n/)
        .map((s) => s.trim())
        .filter(Boolean))
        await tx.query(stmt);
      await tx.query('INSERT INTO digest_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** The migrations given that the database has not applied (all of them before the first start). */
export async function pendingMigrations(db: SqlExecutor, migrations: readonly Migration[]): Promise<number[]> {
  const applied = await db.query<{ version: number }>('SELECT version FROM digest_migrations').catch((e: unknown) => {
    if ((e as { code?: unknown }).code === '42P01') return []; // undefined_table: never migrated
    throw e;
  });
  const done = new Set(applied.map((r) => Number(r.version)));
  return ordered(migrations)
    .map((m) => m.version)
    .filter((v) => !done.has(v));
}
