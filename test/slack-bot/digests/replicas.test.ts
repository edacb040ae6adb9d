/** Several bot processes on one PostgreSQL database, driven by a shared controllable clock. */
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../chat/digests/key-ref.ts';
import { nextRuns, runsBetween } from '../../../chat/digests/schedule.ts';
import { type DigestStore, openPg, type SqlExecutor, storeOver } from '../../../chat/digests/storage/index.ts';
import { loadSandboxData, type Sandbox, startSandbox } from '../../../sandbox/index.ts';
import { dropSchema, freshSchema, newSubscription, PG_URL } from '../../support/digest-db.ts';
import { type FakeSlack, startFakeSlack } from '../../support/digest-slack.ts';

const TZ = 'America/Chicago';
const KEY = 'lk_live_demo_all_access';
const SCRIPT = new URL('../../support/digest-replica.ts', import.meta.url).pathname;

describe.skipIf(!PG_URL)('digests on three bot processes sharing PostgreSQL', () => {
  let sandbox: Sandbox;
  let slack: FakeSlack;
  let clockMs = Date.parse('2026-11-05T06:00:00Z');
  const children: ChildProcess[] = [];
  const schemas: string[] = [];
  beforeAll(async () => {
    const data = structuredClone(await loadSandboxData({ today: '2026-11-05', timeZone: TZ, seed: 'linen' }));
    sandbox = await startSandbox({ port: 0, data, rateLimit: { limit: 1e6, windowMs: 60_000 } });
    slack = await startFakeSlack();
    slack.now = () => clockMs;
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await Promise.all([sandbox?.close(), slack?.close()]);
    for (const s of schemas) await dropSchema(PG_URL!, s);
  });

  async function setup(): Promise<{
    db: SqlExecutor;
    store: DigestStore;
    schema: string;
    setClock(iso: string | number): Promise<void>;
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
        clockMs = new Date(at).getTime();
        await db.query('UPDATE digest_test_clock SET at = $1', [new Date(clockMs)]);
      },
    };
  }

  function spawnReplica(
    schema: string,
    id: string,
    extra: Record<string, string> = {},
  ): Promise<ChildProcess & { lines: string[] }> {
    const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
      env: {
        ...process.env,
        DATABASE_URL: PG_URL,
        DIGEST_SCHEMA: schema,
        SLACK_URL: slack.url,
        LINEN_BASE_URL: sandbox.baseUrl,
        LINEN_API_KEY: KEY,
        WORKER_ID: id,
        ...extra,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }) as ChildProcess & { lines: string[] };
    children.push(child);
    child.lines = [];
    child.stdout!.setEncoding('utf8').on('data', (d: string) => child.lines.push(...d.split('\n').filter(Boolean)));
    return new Promise((resolve, reject) => {
      const t = setInterval(() => {
        if (child.lines.includes('READY')) {
          clearInterval(t);
          resolve(child);
        }
        if (child.exitCode !== null) {
          clearInterval(t);
          reject(new Error(`replica ${id} exited`));
        }
      }, 20);
    });
  }

  /**
   * Runs still to finish and subscriptions due but not yet turned into runs, counted in one statement: one snapshot,
   * so a subscription a replica turns into a run between two reads is never missed by both.
   */
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
  async function settle(db: SqlExecutor, timeoutMs = 10_000) {
    const until = Date.now() + timeoutMs;
    await new Promise((r) => setTimeout(r, 40));
    while ((await unsettled(db)) > 0) {
      if (Date.now() > until) throw new Error('runs did not settle');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a day of schedules: every digest posted exactly once by one of three replicas', async () => {
    const { db, store, schema, setClock } = await setup();
    const start = new Date(clockMs);
    const specs = [
      ['daily', '07:00'],
      ['daily', '07:00'],
      ['weekdays', '07:00'],
      ['mon,wed,fri', '06:30'],
      ['daily', '09:15'],
      ['thu', '12:00'],
      ['daily', '13:45'],
      ['weekdays', '17:00'],
      ['daily', '00:05'],
      ['daily', '23:55'],
      ['thu,fri', '07:00'],
      ['daily', '10:30'],
    ] as const;
    const subs = [];
    for (const [i, [cadence, time]] of specs.entries()) {
      const sched = { cadence, time, timeZone: TZ };
      subs.push(
        await store.createSubscription(
          newSubscription({
            ...sched,
            keyRef: keyRefOf(KEY),
            channelId: `C0CHAN${i % 4}`,
            allClear: true,
            createdBy: 'U0OWNER',
          }),
          start,
          nextRuns(sched, start, 1)[0]!,
        ),
      );
    }
    const replicas = await Promise.all(['r1', 'r2', 'r3'].map((id) => spawnReplica(schema, id)));
    const end = start.getTime() + 24 * 3600_000;
    for (let t = start.getTime() + 15 * 60_000; t <= end; t += 15 * 60_000) {
      await setClock(t);
      await settle(db);
    }
    const expected = subs.flatMap((s) => runsBetween(s, start, new Date(end))).length;
    expect(expected).toBe(11); // Thu 5 Nov: the mon,wed,fri schedule has no run
    const posts = slack.posts().filter((m) => m.metadata);
    const perRun = new Map<string, number>();
    for (const m of posts)
      perRun.set(
        String(m.metadata!.event_payload.run_id),
        (perRun.get(String(m.metadata!.event_payload.run_id)) ?? 0) + 1,
      );
    expect(posts).toHaveLength(expected);
    expect([...perRun.values()].every((n) => n === 1)).toBe(true);
    const runs = await store.listRuns();
    expect(runs.map((r) => r.status)).toEqual(Array(expected).fill('posted'));
    expect(new Set(runs.map((r) => r.claimedBy)).size).toBeGreaterThan(1); // the work was shared
    for (const r of replicas) r.kill('SIGTERM');
    await store.close();
  }, 50_000);

  for (const stall of ['after-post', 'before-post'] as const) {
    it(`a replica killed (SIGKILL) ${stall === 'after-post' ? 'after posting, before recording' : 'before posting'}: another finishes the run, posted once`, async () => {
      const { db, store, schema, setClock } = await setup();
      const start = new Date(clockMs);
      const channel = `C0KILL${stall === 'after-post' ? 'A' : 'B'}`;
      const sched = { cadence: 'daily', time: '07:00', timeZone: TZ };
      const first = nextRuns(sched, start, 1)[0]!;
      await store.createSubscription(
        newSubscription({ ...sched, keyRef: keyRefOf(KEY), channelId: channel, createdBy: 'U0OWNER' }),
        start,
        first,
      );
      const doomed = await spawnReplica(schema, `doomed-${stall}`, { STALL: stall, LEASE_MS: '60000' });
      await setClock(first.getTime() + 5_000);
      await expect.poll(() => doomed.lines.some((l) => l.startsWith('STALLED')), { timeout: 10_000 }).toBe(true);
      doomed.kill('SIGKILL');
      expect(slack.posts(channel)).toHaveLength(stall === 'after-post' ? 1 : 0);
      expect((await store.listRuns())[0]!.status).toBe('posting');
      const rescuer = await spawnReplica(schema, `rescuer-${stall}`, { LEASE_MS: '60000' });
      await setClock(first.getTime() + 70_000); // the dead replica's lease has expired
      await settle(db);
      const [run] = await store.listRuns();
      expect(run!.status).toBe('posted');
      expect(run!.claimedBy).toBe(`rescuer-${stall}`);
      expect(slack.posts(channel)).toHaveLength(1);
      expect(run!.messageTs).toBe(slack.posts(channel)[0]!.ts);
      rescuer.kill('SIGTERM');
      await store.close();
    }, 30_000);
  }
});
