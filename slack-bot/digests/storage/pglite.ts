/** SqlExecutor over PGlite (Postgres in WebAssembly), stored in a data folder or in memory. */
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { SqlExecutor } from './sql.ts';

type Queryable = Pick<PGlite, 'query'> | Pick<Transaction, 'query'>;

function over(db: Queryable, top: PGlite | null): SqlExecutor {
  return {
    driver: 'pglite',
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const res = await db.query<R>(sql, params as unknown[]);
      return res.rows;
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      // Nested transactions run inside the outer one (PGlite has a single connection).
      if (!top) return fn(over(db, null));
      return top.transaction((tx) => fn(over(tx, null)));
    },
    async close() {
      if (top && !top.closed) await top.close();
    },
  };
}

/** `dataDir` undefined: in memory. Otherwise the folder is created when missing. */
export async function openPglite(dataDir?: string): Promise<SqlExecutor> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  return over(db, db);
}
