/** SqlExecutor over a `pg` Pool (a PostgreSQL server: the mode for several replicas). */
import pg from 'pg';
import { isConnectionFailure, StoreUnavailableError } from './errors.ts';
import type { SqlExecutor } from './sql.ts';

// timestamptz as Date, int8 (count(*)) as number.
pg.types.setTypeParser(20, (v: string) => Number(v));

type Client = pg.PoolClient | pg.Pool;

/** A lost or refused connection as a StoreUnavailableError; other errors (a conflict, a bad query) as they are. */
async function reachable<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    throw isConnectionFailure(e) ? new StoreUnavailableError(e) : e;
  }
}

function over(db: Client, pool: pg.Pool | null): SqlExecutor {
  return {
    driver: 'pg',
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const res = await reachable(db.query(sql, params as unknown[]));
      return res.rows as R[];
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      if (!pool) return fn(over(db, null));
      const client = await reachable(pool.connect());
      // A connection lost between two statements must not crash the process: the next statement reports it.
      const ignore = () => {};
      client.on('error', ignore);
      let broken = false;
      try {
        await reachable(client.query('BEGIN'));
        const out = await fn(over(client, null));
        await reachable(client.query('COMMIT'));
        return out;
      } catch (e) {
        broken = e instanceof StoreUnavailableError;
        if (!broken) await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        // A client whose connection failed is dropped from the pool, not handed out again.
        client.off('error', ignore);
        client.release(broken);
      }
    },
    async close() {
      if (pool) await pool.end();
    },
  };
}

export interface PgOptions {
  connectionString: string;
  /** Schema to use (search_path); created when missing. Tests use one per run. */
  schema?: string;
  max?: number;
}

export async function openPg(options: PgOptions): Promise<SqlExecutor> {
  const { schema } = options;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`bad schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 5,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('error', () => {}); // idle client errors surface on the next query instead
  if (schema) {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch((e: { code?: string }) => {
      if (e.code !== '23505' && e.code !== '42P06') throw e; // created concurrently by another process
    });
  }
  return over(pool, pool);
}
