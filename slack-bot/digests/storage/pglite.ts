/** SqlExecutor over PGlite (Postgres in WebAssembly), stored in a data folder or in memory. */
import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { lockFolder } from './folder-lock.ts';
import type { SqlExecutor } from './sql.ts';

type Queryable = Pick<PGlite, 'query'> | Pick<Transaction, 'query'>;

function over(db: Queryable, top: PGlite | null, release: () => void = () => {}): SqlExecutor {
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
      release();
    },
  };
}

/**
 * `dataDir` undefined: in memory. Otherwise the folder is created when missing and locked for this process
 * (DataFolderInUseError when another live process has it open).
 */
export async function openPglite(dataDir?: string): Promise<SqlExecutor> {
  if (!dataDir) {
    const db = new PGlite();
    await db.waitReady;
    return over(db, db);
  }
  mkdirSync(dataDir, { recursive: true });
  const lock = lockFolder(dataDir);
  try {
    const db = new PGlite(dataDir);
    await db.waitReady;
    return over(db, db, lock.release);
  } catch (e) {
    lock.release();
    throw e;
  }
}
