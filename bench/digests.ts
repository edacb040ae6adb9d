/**
 * Digest delivery at scale: 1,000 subscriptions across 50 API keys and 250 channels, all due at 07:00, against
 * the sandbox on loopback and a fake Slack Web API, on the embedded store (PGlite), or on PostgreSQL when
 * `DATABASE_URL` is set (in a fresh schema, dropped afterwards). Measures signal fetches per run (one per key),
 * posts, per-channel spacing and the total time.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { loadSandboxData, startSandbox } from '../sandbox/index.ts';
import { createLinenClient, type LinenClient } from '../shared/node.ts';
import { ManualClock } from '../slack-bot/digests/clock.ts';
import { DigestEngine } from '../slack-bot/digests/engine.ts';
import { clientsByKeyRef, keyRefOf } from '../slack-bot/digests/key-ref.ts';
import { runDigestTick } from '../slack-bot/digests/runner.ts';
import { nextRuns } from '../slack-bot/digests/schedule.ts';
import { ChannelPacer } from '../slack-bot/digests/slack.ts';
import { openPg, openPglite, storeOver } from '../slack-bot/digests/storage/index.ts';
import { webClient } from '../test/support/digest-env.ts';
import { startFakeSlack } from '../test/support/digest-slack.ts';

const TZ = 'America/Chicago';
const SUBS = 1000;
const KEYS = 50;
const CHANNELS = 250;

export async function benchDigests(record: (name: string, value: string) => void): Promise<void> {
  const base = await loadSandboxData({ today: '2026-11-05', timeZone: TZ, seed: 'linen' });
  const data = structuredClone(base);
  const demo = data.keys.find((k) => k.secret === 'lk_live_demo_all_access')!;
  const keys = Array.from({ length: KEYS }, (_, i) => `lk_live_bench_${String(i).padStart(2, '0')}`);
  for (const [i, secret] of keys.entries())
    data.keys.push({ ...demo, secret, key_id: `key_bench_${i}`, label: `bench ${i}` });
  const sandbox = await startSandbox({ port: 0, data, rateLimit: { limit: 1e6, windowMs: 60_000 } });
  const slack = await startFakeSlack();
  const clock = new ManualClock('2026-11-05T12:00:00Z');
  const url = process.env.DATABASE_URL;
  const schema = `digest_bench_${randomBytes(4).toString('hex')}`;
  const store = await storeOver(url ? await openPg({ connectionString: url, schema, max: 10 }) : await openPglite());
  const driver = url ? 'PostgreSQL' : 'PGlite';
  let signalWalks = 0;
  const linenClientFor = clientsByKeyRef(keys, (apiKey) => {
    const inner = createLinenClient({ apiKey, baseUrl: sandbox.baseUrl, timeZone: TZ, pacing: false });
    // Count the signal list walks the digests really make.
    return {
      ...inner,
      inventory: {
        ...inner.inventory,
        signals: (p?: Parameters<LinenClient['inventory']['signals']>[0]) => {
          signalWalks++;
          return inner.inventory.signals(p);
        },
      },
    } as LinenClient;
  });
  try {
    const sched = { cadence: 'daily', time: '07:00', timeZone: TZ };
    const first = nextRuns(sched, clock.now(), 1)[0]!;
    for (let i = 0; i < SUBS; i++) {
      await store.createSubscription(
        {
          ...sched,
          keyRef: keyRefOf(keys[i % KEYS]!),
          channelId: `C0BENCH${i % CHANNELS}`,
          customerIds: [],
          minSeverity: 'low',
          allClear: false,
          createdBy: 'U0BENCH',
        },
        clock.now(),
        first,
      );
    }
    clock.set(first.getTime() + 1000);
    const engine = new DigestEngine({ store, clock, workerId: 'bench' });
    const started = performance.now();
    const tick = await runDigestTick({
      engine,
      slack: webClient(slack.url),
      linenClientFor,
      pacer: new ChannelPacer(1000),
      claimLimit: SUBS,
    });
    const elapsed = performance.now() - started;
    const posts = slack.posts();
    const gaps: number[] = [];
    const byChannel = new Map<string, number[]>();
    for (const m of posts) byChannel.set(m.channel, [...(byChannel.get(m.channel) ?? []), m.at]);
    for (const times of byChannel.values()) for (let i = 1; i < times.length; i++) gaps.push(times[i]! - times[i - 1]!);
    record(
      `digests (${driver}): ${SUBS} subscriptions, ${KEYS} API keys, ${CHANNELS} channels, one tick`,
      `${posts.length} posted, ${tick.outcomes.posted ?? 0} recorded`,
    );
    record(
      'digests: signal list walks in the run (one per key)',
      `${signalWalks} (tick reports ${tick.signalFetches})`,
    );
    record('digests: smallest gap between two posts to one channel', `${Math.min(...gaps)} ms`);
    record(
      `digests (${driver}): total time, due to all posted (4 per channel at 1/s)`,
      `${(elapsed / 1000).toFixed(2)} s`,
    );
  } finally {
    await linenClientFor.close();
    await Promise.all([sandbox.close(), slack.close(), store.close()]);
    if (url) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchDigests((n, v) => console.log(`${n.padEnd(64)} ${v}`));
}
