/**
 * Teams digests on three bot processes sharing PostgreSQL, driven by a shared controllable clock: a day of schedules
 * over four channels, every digest posted to its channel exactly once by one of the replicas; and a replica killed
 * after its post went out, before it recorded it: Teams' channels cannot be searched for a message, so the run is
 * not posted again (never twice) and says why.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../chat/digests/key-ref.ts';
import { nextRuns, runsBetween } from '../../chat/digests/schedule.ts';
import { type DigestStore, openPg, type SqlExecutor, storeOver } from '../../chat/digests/storage/index.ts';
import { loadSandboxData, type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { dropSchema, freshSchema, newSubscription, PG_URL } from '../support/digest-db.ts';
import { startTeamsFakes, type TeamsFakes } from '../support/teams-fakes.ts';
import { createWaiters } from '../support/waiters.ts';

const TZ = 'America/Chicago';
const KEY = 'lk_live_demo_all_access';
const SCRIPT = new URL('../support/digest-replica.ts', import.meta.url).pathname;
const channelId = (n: number | string) => `19:teamsdigest${n}000000000000000000@thread.tacv2`;

describe.skipIf(!PG_URL)('Teams digests on three bot processes sharing PostgreSQL', () => {
  let sandbox: Sandbox;
  let fakes: TeamsFakes;
  let clockMs = Date.parse('2026-11-05T06:00:00Z');
  const children: ChildProcess[] = [];
  const schemas: string[] = [];
  beforeAll(async () => {
    const data = structuredClone(await loadSandboxData({ today: '2026-11-05', timeZone: TZ, seed: 'linen' }));
    sandbox = await startSandbox({ port: 0, data, rateLimit: { limit: 1e6, windowMs: 60_000 } });
    fakes = await startTeamsFakes();
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all([sandbox?.close(), fakes?.close()]);
    for (const s of schemas) await dropSchema(PG_URL!, s);
  });

  async function setup(): Promise<{
    db: SqlExecutor;
    store: DigestStore;
    schema: string;
    setClock(at: number): Promise<void>;
  }> {
    const schema = freshSchema();
    schemas.push(schema);
    const db = await openPg({ connectionString: PG_URL!, schema });
    const store = await storeOver(db);
    await db.query('CREATE TABLE digest_test_clock (at timestamptz NOT NULL)');
    await db.query('INSERT INTO digest_test_clock VALUES ($1)', [new Date(clockMs)]);
    return {
      db,
      store,
      schema,
      async setClock(at) {
        clockMs = at;
        await db.query('UPDATE digest_test_clock SET at = $1', [new Date(clockMs)]);
      },
    };
  }

  function spawnReplica(schema: string, id: string, extra: Record<string, string> = {}) {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
      env: {
        ...process.env,
        ...fakes.env,
        PLATFORM: 'teams',
        DATABASE_URL: PG_URL,
        DIGEST_SCHEMA: schema,
        LINEN_BASE_URL: sandbox.baseUrl,
        LINEN_API_KEY: KEY,
        WORKER_ID: id,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }) as ChildProcess & { lines: string[] };
    children.push(child);
    child.lines = [];
    const waiters = createWaiters();
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      child.lines.push(...d.split('\n').filter(Boolean));
      waiters.notify();
    });
    child.on('exit', () => waiters.notify());
    const ready = waiters.waitFor(
      () => (child.lines.includes('READY') ? child : child.exitCode !== null ? null : undefined),
      20_000,
      `replica ${id} ready`,
    );
    return {
      child,
      ready: ready.then((c) => {
        if (!c) throw new Error(`replica ${id} exited`);
        return c;
      }),
      stalled: () => waiters.waitFor(() => child.lines.find((l) => l.startsWith('STALLED')), 20_000, 'a stall'),
    };
  }

  /** Runs still open and subscriptions due but not yet turned into runs, in one snapshot. */
  const unsettled = async (db: SqlExecutor) =>
    Number(
      (
        await db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM digest_runs WHERE status IN ('pending', 'claimed', 'posting'))
                + (SELECT count(*) FROM digest_subscriptions WHERE status = 'active' AND next_run_at <= $1) AS n`,
          [new Date(clockMs)],
        )
      )[0]!.n,
    );
  async function settle(db: SqlExecutor) {
    await expect.poll(() => unsettled(db), { timeout: 15_000, interval: 20 }).toBe(0);
  }

  const teamsSubscription = (channel: string, cadence: string, time: string) =>
    newSubscription({
      platform: 'teams',
      teamId: fakes.bot.tenantId,
      serviceUrl: fakes.bot.serviceUrl,
      cadence,
      time,
      timeZone: TZ,
      keyRef: keyRefOf(KEY),
      channelId: channel,
      allClear: true,
      createdBy: '29:owner',
    });

  it('a day of schedules: every digest posted to its channel exactly once by one of three replicas', async () => {
    const { db, store, schema, setClock } = await setup();
    const start = new Date(clockMs);
    const specs = [
      ['daily', '07:00'],
      ['daily', '07:00'],
      ['weekdays', '07:00'],
      ['daily', '09:15'],
      ['thu', '12:00'],
      ['daily', '13:45'],
      ['weekdays', '17:00'],
      ['daily', '23:55'],
    ] as const;
    const subs = [];
    for (const [i, [cadence, time]] of specs.entries()) {
      const sub = teamsSubscription(channelId(i % 4), cadence, time);
      subs.push(await store.createSubscription(sub, start, nextRuns(sub, start, 1)[0]!));
    }
    const replicas = await Promise.all(['t1', 't2', 't3'].map((id) => spawnReplica(schema, id).ready));
    const end = start.getTime() + 24 * 3600_000;
    for (let t = start.getTime() + 15 * 60_000; t <= end; t += 15 * 60_000) {
      await setClock(t);
      await settle(db);
    }
    const expected = subs.flatMap((s) => runsBetween(s, start, new Date(end))).length;
    expect(expected).toBe(8);
    const posts = [0, 1, 2, 3].flatMap((n) => fakes.connector.postsTo(channelId(n)));
    expect(posts).toHaveLength(expected);
    const runs = await store.listRuns();
    expect(runs.map((r) => r.status)).toEqual(Array(expected).fill('posted'));
    // Each run's message id is one the Connector gave for one post.
    expect(new Set(runs.map((r) => r.messageTs)).size).toBe(expected);
    expect(runs.every((r) => posts.some((p) => p.id === r.messageTs))).toBe(true);
    expect(new Set(runs.map((r) => r.claimedBy)).size).toBeGreaterThan(1);
    for (const r of replicas) r.kill('SIGTERM');
    await store.close();
  }, 60_000);

  it('a replica killed after its post went out, before it recorded it: the digest is not posted twice', async () => {
    const { db, store, schema, setClock } = await setup();
    const start = new Date(clockMs);
    const channel = channelId('kill');
    const sub = teamsSubscription(channel, 'daily', '07:00');
    const first = nextRuns(sub, start, 1)[0]!;
    await store.createSubscription(sub, start, first);
    const doomed = spawnReplica(schema, 'doomed', { STALL: 'after-post', LEASE_MS: '60000' });
    await doomed.ready;
    await setClock(first.getTime() + 5_000);
    await doomed.stalled();
    doomed.child.kill('SIGKILL');
    expect(fakes.connector.postsTo(channel)).toHaveLength(1);
    const rescuer = spawnReplica(schema, 'rescuer', { LEASE_MS: '60000' });
    await rescuer.ready;
    await setClock(first.getTime() + 70_000); // the dead replica's lease has expired
    await settle(db);
    const [run] = await store.listRuns();
    expect(run!.status).toBe('failed');
    expect(run!.error).toBe('may have been posted; not posted again');
    expect(fakes.connector.postsTo(channel)).toHaveLength(1);
    rescuer.child.kill('SIGTERM');
    await store.close();
  }, 40_000);
});
