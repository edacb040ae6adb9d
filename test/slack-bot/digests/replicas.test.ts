/** Several bot processes on one PostgreSQL database, driven by a shared controllable clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { nextRuns, runsBetween } from '../../../chat/digests/schedule.ts';
import { loadSandboxData, type Sandbox, startSandbox } from '../../../sandbox/index.ts';
import { newSubscription, PG_URL } from '../../support/digest-db.ts';
import { type FakeSlack, startFakeSlack } from '../../support/digest-slack.ts';
import { replicaCluster } from '../../support/replica-cluster.ts';

const TZ = 'America/Chicago';
const KEY = 'lk_live_demo_all_access';

describe.skipIf(!PG_URL)('digests on three bot processes sharing PostgreSQL', () => {
  let sandbox: Sandbox;
  let slack: FakeSlack;
  const cluster = replicaCluster({
    startAt: '2026-11-05T06:00:00Z',
    env: () => ({ SLACK_URL: slack.url, LINEN_BASE_URL: sandbox.baseUrl, LINEN_API_KEY: KEY }),
  });
  const { setup, settle } = cluster;
  const spawnReplica = (schema: string, id: string, extra: Record<string, string> = {}) =>
    cluster.spawn(schema, id, extra).ready;
  beforeAll(async () => {
    const data = structuredClone(await loadSandboxData({ today: '2026-11-05', timeZone: TZ, seed: 'linen' }));
    sandbox = await startSandbox({ port: 0, data, rateLimit: { limit: 1e6, windowMs: 60_000 } });
    slack = await startFakeSlack();
    slack.now = () => cluster.now();
  });
  afterAll(async () => {
    await cluster.close();
    await Promise.all([sandbox?.close(), slack?.close()]);
  });

  it('a day of schedules: every digest posted exactly once by one of three replicas', async () => {
    const { db, store, schema, setClock } = await setup();
    const start = new Date(cluster.now());
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
    await store.drain();
    await db.close();
  }, 50_000);

  for (const stall of ['after-post', 'before-post'] as const) {
    it(`a replica killed (SIGKILL) ${stall === 'after-post' ? 'after posting, before recording' : 'before posting'}: another finishes the run, posted once`, async () => {
      const { db, store, schema, setClock } = await setup();
      const start = new Date(cluster.now());
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
      await store.drain();
      await db.close();
    }, 30_000);
  }
});
