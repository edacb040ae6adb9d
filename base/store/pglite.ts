/** SqlExecutor over PGlite (Postgres in WebAssembly), stored in a data folder or in memory. */
import { mkdirSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { lockFolder } from './folder-lock.ts';
import { isEmptyFolder, prepareDataDir } from './pglite-template.ts';
import type { SqlExecutor } from './sql.ts';

/**
 * Postgres in WebAssembly touches its whole shared memory at start, so every megabyte of `shared_buffers` is
 * resident for good: initdb's 128 MB made most of the store's memory. The store's tables are a few megabytes and
 * the host's page cache sits behind the folder's files, so 16 MB of buffers is plenty.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * V8 compiles Postgres's WebAssembly quickly (Liftoff), then compiles what runs hot again with its optimising
 * compiler: about 80 MB more resident at start, 100 MB more during a digest run, and more CPU spent compiling than
 * the faster code saves on the store's small queries (3.6 ms of CPU a digest against 3.1 ms on Liftoff alone, in
 * the 1,000-subscription benchmark). The flag touches only WebAssembly, and only in a process that opens the
 * embedded store.
 */
function keepWasmOnBaselineCompiler(): void {
  setFlagsFromString('--liftoff-only');
}

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
  keepWasmOnBaselineCompiler();
  if (!dataDir) {
    const db = await PGlite.create({ startParams: START_PARAMS });
    return over(db, db);
  }
  mkdirSync(dataDir, { recursive: true });
  const lock = lockFolder(dataDir);
  try {
    // A new store starts from the prepared folder, not from initdb in this process.
    if (isEmptyFolder(dataDir)) await prepareDataDir(dataDir);
    const db = await PGlite.create(dataDir, { startParams: START_PARAMS });
    return over(db, db, lock.release);
  } catch (e) {
    lock.release();
    throw e;
  }
}
