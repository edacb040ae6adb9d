/**
 * Bot processes sharing one PostgreSQL schema (test/support/digest-replica.ts, one each; or another script, such as
 * alert-replica.ts), driven by a clock they all read from a table of that schema: what the replica tests of Slack's
 * and Teams' digests and of alerts share. Each test makes a fresh schema (`setup`), spawns replicas into it, moves
 * the clock and waits for the work due to settle.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { expect } from 'vitest';
import { openPg } from '../../base/store/pg.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { type DigestStore, digestStoreOver } from '../../chat/digests/storage/index.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import { dropSchema, freshSchema, PG_URL } from './digest-db.ts';
import { createWaiters } from './waiters.ts';

const SCRIPT = new URL('./digest-replica.ts', import.meta.url).pathname;

export type ReplicaProcess = ChildProcess & { lines: string[] };

export interface Replica {
  child: ReplicaProcess;
  /** The process, once it printed READY; rejects if it exits first. */
  ready: Promise<ReplicaProcess>;
  /** Its STALLED line (a replica told to stall with STALL=before-post|after-post). */
  stalled(): Promise<string>;
}

export interface ReplicaSchema {
  db: SqlExecutor;
  store: DigestStore;
  schema: string;
  /** Moves the clock every replica of the schema reads. */
  setClock(at: string | number): Promise<void>;
}

export interface ReplicaCluster {
  /** The clock's time now (ms). */
  now(): number;
  setup(): Promise<ReplicaSchema>;
  /** A replica on `schema`, with the cluster's environment and `extra`. */
  spawn(schema: string, id: string, extra?: Record<string, string>): Replica;
  /** Waits until nothing due is left undone (`unsettled`; for digests: no run open, none due unmaterialized). */
  settle(db: SqlExecutor): Promise<void>;
  /** Kills what still runs, drops the schemas. */
  close(): Promise<void>;
}

export interface ReplicaClusterOptions {
  startAt: string;
  env: () => Record<string, string | undefined>;
  /** The replica's script (default digest-replica.ts). */
  script?: string;
  /** What is left to do at the clock's time, counted in one statement (default: the digest runs due or open). */
  unsettled?: (db: SqlExecutor, at: Date) => Promise<number>;
}

export function replicaCluster(o: ReplicaClusterOptions): ReplicaCluster {
  let clockMs = Date.parse(o.startAt);
  const children: ChildProcess[] = [];
  const schemas: string[] = [];
  /**
   * Runs still to finish and subscriptions due but not yet turned into runs, counted in one statement: one snapshot,
   * so a subscription a replica turns into a run between two reads is never missed by both.
   */
  const digestsUnsettled = async (db: SqlExecutor) =>
    Number(
      (
        await db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM digest_runs WHERE status IN ('pending', 'claimed', 'posting'))
                + (SELECT count(*) FROM digest_subscriptions WHERE status = 'active' AND next_run_at <= $1) AS n`,
          [new Date(clockMs)],
        )
      )[0]!.n,
    );
  return {
    now: () => clockMs,
    async setup() {
      const schema = freshSchema();
      schemas.push(schema);
      const db = await migrateServiceDatabase(await openPg({ connectionString: PG_URL!, schema }));
      const store = digestStoreOver(db);
      await db.query('CREATE TABLE digest_test_clock (at timestamptz NOT NULL)');
      await db.query('INSERT INTO digest_test_clock VALUES ($1)', [new Date(clockMs)]);
      return {
        db,
        store,
        schema,
        async setClock(at) {
          clockMs = new Date(at).getTime();
          await db.query('UPDATE digest_test_clock SET at = $1', [new Date(clockMs)]);
        },
      };
    },
    spawn(schema, id, extra = {}) {
      const child = spawn(process.execPath, ['--import', 'tsx', o.script ?? SCRIPT], {
        env: { ...process.env, ...o.env(), DATABASE_URL: PG_URL, DIGEST_SCHEMA: schema, WORKER_ID: id, ...extra },
        stdio: ['ignore', 'pipe', 'inherit'],
      }) as ReplicaProcess;
      children.push(child);
      child.lines = [];
      const waiters = createWaiters();
      child.stdout!.setEncoding('utf8').on('data', (d: string) => {
        child.lines.push(...d.split('\n').filter(Boolean));
        waiters.notify();
      });
      child.on('exit', () => waiters.notify());
      const ready = waiters
        .waitFor(
          () => (child.lines.includes('READY') ? child : child.exitCode !== null ? null : undefined),
          20_000,
          `replica ${id} ready`,
        )
        .then((c) => {
          if (!c) throw new Error(`replica ${id} exited`);
          return c;
        });
      return {
        child,
        ready,
        stalled: () => waiters.waitFor(() => child.lines.find((l) => l.startsWith('STALLED')), 20_000, 'a stall'),
      };
    },
    async settle(db) {
      const unsettled = () => (o.unsettled ? o.unsettled(db, new Date(clockMs)) : digestsUnsettled(db));
      await expect.poll(unsettled, { timeout: 15_000, interval: 20 }).toBe(0);
    },
    async close() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      for (const s of schemas) await dropSchema(PG_URL!, s);
    },
  };
}
