/** The digest store's failures a caller tells apart: a database that is not answering, a data folder in use. */

/** PostgreSQL could not be reached or dropped the connection (restarting, down, network cut). Worth a retry. */
export class StoreUnavailableError extends Error {
  readonly userMessage = 'The digest store is not answering just now; try again in a minute.';
  constructor(cause: unknown) {
    super(`the digest database is not answering: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnavailableError';
  }
}

/** The embedded store's folder is held by another live process (PGlite is one process's database). */
export class DataFolderInUseError extends Error {
  readonly userMessage: string;
  constructor(
    readonly folder: string,
    readonly pid: number,
  ) {
    super(
      `the digest store folder ${folder} is in use by another process (pid ${pid}); run one bot per LINEN_DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between several`,
    );
    this.name = 'DataFolderInUseError';
    this.userMessage = `The digest store is in use by another bot process (pid ${pid}); stop it, or give this one its own LINEN_DATA_DIR.`;
  }
}

// Node's socket errors, and PostgreSQL's connection exceptions (class 08) and shutdowns (57P01-57P03).
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
// node-postgres reports a connection lost mid-query or a connect timeout with these messages and no code.
const PG_CONNECTION_LOST = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when)/;

/** Whether a driver error means the database is unreachable (as opposed to a wrong query or a conflict). */
export function isConnectionFailure(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || SHUTDOWN_STATES.has(code) || code.startsWith('08')) return true;
  return typeof e?.message === 'string' && PG_CONNECTION_LOST.test(e.message);
}
