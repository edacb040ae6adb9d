/**
 * One pacer per API key for the whole bot: every Linen client made for a key (commands, digests, a workspace's
 * client) takes `pacing: pacers.for(apiKey)` and so shares the key's budget of 120 requests a minute. With
 * PostgreSQL (`DATABASE_URL`, several replicas) the budget lives in the database and the replicas share it;
 * with PGlite one process owns the store, so an in-process pacer per key is the whole truth.
 */
import { DEFAULT_PACING, Pacer, type RequestPacer } from '../../shared/core/pacing.ts';
import { keyRefOf } from '../key-ref.ts';
import type { SqlExecutor } from '../store/sql.ts';
import { SqlPacer } from './sql-pacer.ts';

export interface KeyPacers {
  /** The pacer every client of this key shares. */
  for(apiKey: string): RequestPacer;
}

export interface KeyPacersOptions {
  /** The bot's store database: a `pg` one shares the pacing across replicas, a PGlite one keeps it in process. */
  db: SqlExecutor;
  /** The API's limit (default 120 requests per 60 s). */
  limit?: number;
  windowMs?: number;
}

export function keyPacers(options: KeyPacersOptions): KeyPacers {
  const limit = options.limit ?? DEFAULT_PACING.limit;
  const windowMs = options.windowMs ?? DEFAULT_PACING.windowMs;
  const byFingerprint = new Map<string, RequestPacer>();
  return {
    for(apiKey) {
      const fingerprint = keyRefOf(apiKey);
      let pacer = byFingerprint.get(fingerprint);
      if (!pacer) {
        pacer =
          options.db.driver === 'pg'
            ? new SqlPacer({ db: options.db, fingerprint, limit, windowMs })
            : new Pacer({ limit, windowMs });
        byFingerprint.set(fingerprint, pacer);
      }
      return pacer;
    },
  };
}
