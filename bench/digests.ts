/**
 * Digest delivery at scale: 1,000 subscriptions (50 API keys, 250 channels) and 10,000 (500 keys, 2,500
 * channels), all due at 07:00, one tick, against the sandbox and a fake Slack Web API (each in its own process), on
 * the embedded store (PGlite) and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, in a fresh schema
 * dropped afterwards). Figures: signal list walks per key (target one), the run's time against the pacing
 * floor (the busiest channel's posts at one a second), and the process's peak resident memory during the run.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createLinenClient, type LinenClient } from '../shared/node.ts';
import { ManualClock } from '../slack-bot/digests/clock.ts';
import { silentLogger } from '../slack-bot/digests/engine.ts';
import { startDigestWorker } from '../slack-bot/digests/index.ts';
import { clientsByKeyRef, keyRefOf } from '../slack-bot/digests/key-ref.ts';
import { DEFAULT_CLAIM_LIMIT, type TickResult } from '../slack-bot/digests/runner.ts';
import { nextRuns } from '../slack-bot/digests/schedule.ts';
import { openPg, openPglite, storeOver } from '../slack-bot/digests/storage/index.ts';
import { webClient } from '../test/support/digest-env.ts';
import { startFakeSlackProcess } from './fake-slack-process.ts';
import { Results, ratioOf, round } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const TZ = 'America/Chicago';
const PACE_MS = 1000;

interface Size {
  subs: number;
  keys: number;
  channels: number;
}

const SIZES: Size[] = [
  { subs: 1000, keys: 50, channels: 250 },
  { subs: 10_000, keys: 500, channels: 2500 },
];

/** Samples the resident set while `work` runs; returns its result and the peak in MiB. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ value: T; peakMb: number; beforeMb: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, peakMb: peak / 2 ** 20, beforeMb: before / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

async function oneTick(size: Size, url: string | undefined) {
  const keys = Array.from({ length: size.keys }, (_, i) => `lk_live_bench_${String(i).padStart(3, '0')}`);
  const sandbox = await startSandboxProcess({
    today: '2026-11-05',
    timeZone: TZ,
    rateLimit: { limit: 1e6, windowMs: 60_000 },
    extraKeys: keys,
  });
  const slack = await startFakeSlackProcess();
  const clock = new ManualClock('2026-11-05T12:00:00Z');
  const schema = `digest_bench_${randomBytes(4).toString('hex')}`;
  const store = await storeOver(url ? await openPg({ connectionString: url, schema, max: 10 }) : await openPglite());
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
    for (let i = 0; i < size.subs; i++) {
      await store.createSubscription(
        {
          ...sched,
          keyRef: keyRefOf(keys[i % size.keys]!),
          channelId: `C0BENCH${i % size.channels}`,
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
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const ticks: TickResult[] = [];
    const { peakMb, beforeMb } = await withPeakRss(
      () =>
        new Promise<void>((resolve) => {
          // The worker as the bot runs it, until every due digest has gone out.
          const worker = startDigestWorker({
            store,
            slack: webClient(slack.url),
            linenClientFor,
            clock,
            pacingMs: PACE_MS,
            logger: silentLogger,
            onTick: (r) => {
              ticks.push(r);
              // A tick short of a full claim ends the backlog.
              if (r.claimed < DEFAULT_CLAIM_LIMIT) void worker.stop().then(resolve);
            },
          });
        }),
    );
    const elapsed = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const perChannel = await slack.postsByChannel();
    const busiest = Math.max(...perChannel.values());
    return {
      posted: [...perChannel.values()].reduce((a, b) => a + b, 0),
      ticks: ticks.length,
      outcomes: Object.entries(
        ticks.reduce<Record<string, number>>((all, t) => {
          for (const [k, v] of Object.entries(t.outcomes)) all[k] = (all[k] ?? 0) + (v ?? 0);
          return all;
        }, {}),
      )
        .map(([k, v]) => `${v} ${k}`)
        .join(', '),
      signalWalks,
      elapsed,
      floorMs: (busiest - 1) * PACE_MS,
      busiest,
      peakMb,
      beforeMb,
      cpuMs: (cpu.user + cpu.system) / 1000,
    };
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

export async function benchDigests(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const drivers = [['pglite', undefined], ...(url ? [['pg', url] as const] : [])] as const;
  for (const size of options.quick ? SIZES.slice(0, 1) : SIZES) {
    for (const [driver, db] of drivers) {
      const r = await oneTick(size, db);
      const on = `${size.subs.toLocaleString('en-US')} subscriptions, ${size.keys} keys, ${size.channels} channels, ${driver === 'pg' ? 'PostgreSQL' : 'PGlite'}`;
      const suffix = driver === 'pg' ? `${size.subs}.pg` : `${size.subs}`;
      const perKey = round(r.signalWalks / size.keys, 2);
      results.add({
        id: `digests.fetches_per_key.${suffix}`,
        label: `Digests: ${on}: signal list walks per key (${r.posted} posted in ${r.ticks} ticks; ${r.outcomes})`,
        value: perKey,
        unit: null,
        target: '1',
        met: perKey === 1 && r.posted === size.subs,
      });
      const ratio = ratioOf(r.elapsed, r.floorMs);
      results.add({
        id: `digests.time_vs_floor.${suffix}`,
        label: `Digests: ${on}: time of the run; baseline: the pacing floor (${r.busiest} posts to the busiest channel at 1 a second)`,
        value: round(r.elapsed / 1000, 2),
        unit: 's',
        baseline: round(r.floorMs / 1000, 2),
        ratio,
        target: 'ratio <= 1.5',
        met: ratio !== null && ratio <= 1.5,
      });
      results.add({
        id: `digests.cpu_ms_per_post.${suffix}`,
        label: `Digests: ${on}: CPU time of the bot's process per digest posted (building, the Slack Web API client and its transport, the store's writes; the sandbox and the fake Slack run in processes of their own)`,
        value: round(r.cpuMs / Math.max(1, r.posted), 3),
        unit: 'ms',
      });
      results.add({
        id: `digests.peak_rss_mb.${suffix}`,
        label: `Digests: ${on}: peak resident memory of the benchmark's process during the run (${round(r.beforeMb, 0)} MiB before it, the earlier benchmarks' leftovers included)`,
        value: round(r.peakMb, 0),
        unit: 'MiB',
      });
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchDigests(new Results(), { quick: process.argv.includes('--quick') });
  process.exit(0);
}
