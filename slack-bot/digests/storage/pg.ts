/** SqlExecutor over a `pg` Pool (a PostgreSQL server: the mode for several replicas). */
import pg from 'pg';
import type { SqlExecutor } from './sql.ts';

// timestamptz as Date, int8 (count(*)) as number.
pg.types.setTypeParser(20, (v: string) => Number(v));

type Client = pg.PoolClient | pg.Pool;

function over(db: Client, pool: pg.Pool | null): SqlExecutor {
  return {
    driver: 'pg',
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const res = await db.query(sql, params as unknown[]);
      return res.rows as R[];
    },
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      if (!pool) return fn(over(db, null));
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(over(client, null));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
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
