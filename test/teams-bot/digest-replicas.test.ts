/**
 * Teams digests on three bot processes sharing PostgreSQL, driven by a shared controllable clock: a day of schedules
 * over four channels, every digest posted to its channel exactly once by one of the replicas; and a replica killed
 * after its post went out, before it recorded it: Teams' channels cannot be searched for a message, so the run is
 * not posted again (never twice) and says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../base/key-ref.ts';
import { nextRuns, runsBetween } from '../../chat/digests/schedule.ts';
import { loadSandboxData, type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { newSubscription, PG_URL } from '../support/digest-db.ts';
import { replicaCluster } from '../support/replica-cluster.ts';
import { startTeamsFakes, type TeamsFakes } from '../support/teams-fakes.ts';

const TZ = 'America/Chicago';
const KEY = 'lk_live_demo_all_access';
const channelId = (n: number | string) => `19:teamsdigest${n}000000000000000000@thread.tacv2`;

describe.skipIf(!PG_URL)('Teams digests on three bot processes sharing PostgreSQL', () => {
  let sandbox: Sandbox;
  let fakes: TeamsFakes;
  const cluster = replicaCluster({
    startAt: '2026-11-05T06:00:00Z',
    env: () => ({ ...fakes.env, PLATFORM: 'teams', LINEN_BASE_URL: sandbox.baseUrl, LINEN_API_KEY: KEY }),
  });
  const { setup, settle } = cluster;
  const spawnReplica = cluster.spawn;
  beforeAll(async () => {
    const data = structuredClone(await loadSandboxData({ today: '2026-11-05', timeZone: TZ, seed: 'linen' }));
    sandbox = await startSandbox({ port: 0, data, rateLimit: { limit: 1e6, windowMs: 60_000 } });
    fakes = await startTeamsFakes();
  });
  afterAll(async () => {
    await cluster.close();
    await Promise.all([sandbox?.close(), fakes?.close()]);
  });

  const teamsSubscription = (channel: string, cadence: string, time: string) =>
    newSubscription({
      platform: 'teams',
      orgId: fakes.bot.tenantId,
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
    const start = new Date(cluster.now());
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
    await store.drain();
    await db.close();
  }, 60_000);

  it('a replica killed after its post went out, before it recorded it: the digest is not posted twice', async () => {
    const { db, store, schema, setClock } = await setup();
    const start = new Date(cluster.now());
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
    await store.drain();
    await db.close();
  }, 40_000);
});
