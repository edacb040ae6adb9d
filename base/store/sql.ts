/**
 * The one abstraction the stores need from a database: parameterized queries and transactions.
 * Two drivers implement it (PGlite embedded, `pg` Pool for a PostgreSQL server); the SQL is the same.
 */
export interface SqlExecutor {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /** Runs `fn` in one transaction (BEGIN/COMMIT, ROLLBACK on a throw) on one connection. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly driver: 'pglite' | 'pg';
}
