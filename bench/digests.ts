/**
 * Digest delivery at scale: 1,000 subscriptions (50 API keys, 250 channels) and 10,000 (500 keys, 2,500
 * channels), all due at 07:00, one tick, against the sandbox and a fake Slack Web API (each in its own process), on
 * the embedded store (PGlite) and on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, in a fresh schema
 * dropped afterwards). The store and the digest worker run in a process of their own (bench/digest-run.ts), a new
 * one for each run. Figures: signal list walks per key (target one), the run's time against the pacing floor (the
 * busiest channel's posts at one a second), and that process's peak resident memory during the run.
 *
 * `benchTeamsDigests`: the same 1,000 subscriptions in Teams channels, posted through a fake Bot Connector (in its
 * own process, with the token endpoint) that holds each conversation to Teams' limits (7 posts a second, 60 in 30
 * seconds; 429 with Retry-After beyond). Figures: the digests posted, any posted twice to a conversation, the 429s
 * met, the run's time against the same pacing floor, CPU per post and peak resident memory.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleRun, runInChild } from './bundled-run.ts';
import { forkChild } from './child-process.ts';
import type { DigestRunResult, DigestRunSpec, DigestTarget } from './digest-run.ts';
import { startFakeSlackProcess } from './fake-slack-process.ts';
import { Results, ratioOf, round } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';
import { benchStores, dropSchema, freshSchema, storeName } from './stores.ts';
import { startTeamsConnectorProcess } from './teams-connector-process.ts';

const TZ = 'America/Chicago';
const PACE_MS = 1000;
const DIGEST_RUN = fileURLToPath(new URL('./digest-run.ts', import.meta.url));
/** The most the bot's process may hold during the 1,000-subscription run, on either store. */
const PEAK_RSS_TARGET = { subs: 1000, mb: 300 };

interface Size {
  subs: number;
  keys: number;
  channels: number;
}

const SIZES: Size[] = [
  { subs: 1000, keys: 50, channels: 250 },
  { subs: 10_000, keys: 500, channels: 2500 },
];

/** bench/digest-run.ts bundled for plain `node`, with PGlite's files and prepared data folder beside it. */
const bundleDigestRun = () => bundleRun(DIGEST_RUN, 'digest-run');

/** The platform's fake in a process of its own: where the digests go, and what it received. */
async function startTarget(platform: DigestTarget['platform']): Promise<{
  target: DigestTarget;
  /** Posts by channel, and the calls refused with 429 (Teams' limits; the fake Slack has none). */
  received(): Promise<{ perChannel: Map<string, number>; throttled: number }>;
  close(): Promise<void>;
}> {
  if (platform === 'slack') {
    const slack = await startFakeSlackProcess();
    return {
      target: { platform, slackUrl: slack.url },
      received: async () => ({ perChannel: await slack.postsByChannel(), throttled: 0 }),
      close: slack.close,
    };
  }
  const connector = await startTeamsConnectorProcess();
  return {
    target: { platform, ...connector.target },
    received: async () => {
      const counts = await connector.counts();
      return { perChannel: new Map(Object.entries(counts.postsByConversation)), throttled: counts.throttled };
    },
    close: connector.close,
  };
}

type TickFigures = DigestRunResult & {
  posted: number;
  busiest: number;
  floorMs: number;
  duplicates: number;
  throttled: number;
};

/**
 * One tick of every due digest: one bot process (`replicas` unset), or several replicas of it on one PostgreSQL
 * database, started together once the subscriptions are made, each claiming its share of the backlog. A replicas'
 * run is timed from the word that starts them all to the last one's end; its CPU and signal walks are their sums,
 * its peak the highest replica's.
 */
async function oneTick(
  bundle: string,
  size: Size,
  url: string | undefined,
  platform: DigestTarget['platform'],
  replicas?: number,
): Promise<TickFigures> {
  const keys = Array.from({ length: size.keys }, (_, i) => `lk_live_bench_${String(i).padStart(3, '0')}`);
  const sandbox = await startSandboxProcess({
    today: '2026-11-05',
    timeZone: TZ,
    rateLimit: { limit: 1e6, windowMs: 60_000 },
    extraKeys: keys,
  });
  const fake = await startTarget(platform);
  const schema = freshSchema('digest_bench');
  try {
    const spec = {
      subs: size.subs,
      keys,
      channels: size.channels,
      pacingMs: PACE_MS,
      sandboxUrl: sandbox.baseUrl,
      target: fake.target,
      ...(url ? { databaseUrl: url, schema } : {}),
    } satisfies DigestRunSpec;
    const run = replicas
      ? await replicasRun(bundle, spec, replicas)
      : await runInChild<DigestRunResult>(bundle, spec, 'digest run');
    const { perChannel, throttled } = await fake.received();
    const busiest = Math.max(...perChannel.values());
    // Each subscription is due once: a channel holding more posts than subscriptions got a digest twice.
    let duplicates = 0;
    for (const [channel, subs] of Object.entries(run.subsByChannel))
      duplicates += Math.max(0, (perChannel.get(channel) ?? 0) - subs);
    return {
      ...run,
      posted: [...perChannel.values()].reduce((a, b) => a + b, 0),
      floorMs: (busiest - 1) * PACE_MS,
      busiest,
      duplicates,
      throttled,
    };
  } finally {
    await Promise.all([sandbox.close(), fake.close()]);
    if (url) await dropSchema(url, schema);
  }
}

/** `replicas` bot processes on one PostgreSQL database, after one more has made the subscriptions. */
async function replicasRun(bundle: string, spec: DigestRunSpec, replicas: number): Promise<DigestRunResult> {
  const made = await runInChild<DigestRunResult>(bundle, { ...spec, role: 'subscribe' }, 'subscribing');
  const children = await Promise.all(
    Array.from({ length: replicas }, () => forkChild<'ready'>(bundle, { ...spec, role: 'work' }, { bundled: true })),
  );
  try {
    const started = performance.now();
    const runs = await Promise.all(
      children.map(async (child) => {
        const answer = await child.ask<DigestRunResult | { error: string }>('go');
        if ('error' in answer) throw new Error(`digest replica failed: ${answer.error}`);
        return answer;
      }),
    );
    const elapsedMs = performance.now() - started;
    const sum = (f: (r: DigestRunResult) => number) => runs.reduce((a, r) => a + f(r), 0);
    return {
      ticks: sum((r) => r.ticks),
      outcomes: runs.map((r, i) => `replica ${i + 1}: ${r.outcomes}`).join('; '),
      signalWalks: sum((r) => r.signalWalks),
      elapsedMs,
      cpuMs: sum((r) => r.cpuMs),
      peakMb: Math.max(...runs.map((r) => r.peakMb)),
      beforeMb: Math.max(...runs.map((r) => r.beforeMb)),
      subsByChannel: made.subsByChannel,
    };
  } finally {
    await Promise.all(children.map((c) => c.close()));
  }
}

const sizeWords = (size: Size, driver: 'pglite' | 'pg', channels = 'channels') =>
  `${size.subs.toLocaleString('en-US')} subscriptions, ${size.keys} keys, ${size.channels} ${channels}, ${storeName(driver)}`;

/** The figures of a run on either platform: its time against the pacing floor, CPU per post, peak memory. */
function runFigures(
  results: Results,
  r: Awaited<ReturnType<typeof oneTick>>,
  o: {
    id: (name: string) => string;
    label: string;
    where: string;
    cpu: string;
    peakTarget: boolean;
    /** The most the run's time may be, in times the pacing floor (default 1.5). */
    floorRatio?: number;
  },
): void {
  const ratio = ratioOf(r.elapsedMs, r.floorMs);
  const most = o.floorRatio ?? 1.5;
  results.add({
    id: o.id('time_vs_floor'),
    label: `${o.label}: time of the run; baseline: the pacing floor (${r.busiest} posts to the busiest ${o.where} at 1 a second)`,
    value: round(r.elapsedMs / 1000, 2),
    unit: 's',
    baseline: round(r.floorMs / 1000, 2),
    ratio,
    target: `ratio <= ${most}`,
    met: ratio !== null && ratio <= most,
  });
  results.add({
    id: o.id('cpu_ms_per_post'),
    label: `${o.label}: CPU time of the bot's process per digest posted (${o.cpu})`,
    value: round(r.cpuMs / Math.max(1, r.posted), 3),
    unit: 'ms',
  });
  const peak = round(r.peakMb, 0);
  results.add({
    id: o.id('peak_rss_mb'),
    label: `${o.label}: peak resident memory of the bot's process during the run (the store and the digest worker alone, bundled, in a process of its own; ${round(r.beforeMb, 0)} MiB before the run)`,
    value: peak,
    unit: 'MiB',
    ...(o.peakTarget ? { target: `<= ${PEAK_RSS_TARGET.mb} MiB`, met: peak <= PEAK_RSS_TARGET.mb } : {}),
  });
}

/**
 * Ten thousand digests may take at most twice the pacing floor on PostgreSQL and three times on PGlite (whose
 * database shares the bot's process); a thousand, one and a half times on either.
 */
const floorRatioOf = (size: Size, driver: 'pglite' | 'pg') => (size.subs < 10_000 ? 1.5 : driver === 'pg' ? 2 : 3);

/** Bot replicas on one PostgreSQL database measured at the largest size of the run, beside the single process. */
const REPLICAS = [2, 3];

export async function benchDigests(
  results: Results,
  options: {
    quick?: boolean;
    subs?: number | undefined;
    store?: string | undefined;
    /** Replica counts to measure on PostgreSQL (default REPLICAS; empty: none). */
    replicas?: readonly number[] | undefined;
  } = {},
): Promise<void> {
  const bundle = await bundleDigestRun();
  const sizes = (options.quick ? SIZES.slice(0, 1) : SIZES).filter((s) => !options.subs || s.subs === options.subs);
  try {
    for (const size of sizes) {
      for (const [driver, db] of benchStores().filter(([d]) => !options.store || d === options.store)) {
        const r = await oneTick(bundle.file, size, db, 'slack');
        const on = sizeWords(size, driver);
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
        runFigures(results, r, {
          id: (name) => `digests.${name}.${suffix}`,
          label: `Digests: ${on}`,
          where: 'channel',
          cpu: "building, the Slack Web API client and its transport, the store's writes; the sandbox and the fake Slack run in processes of their own",
          peakTarget: size.subs === PEAK_RSS_TARGET.subs,
          floorRatio: floorRatioOf(size, driver),
        });
      }
    }
    const largest = sizes.at(-1);
    const pg = benchStores().find(([d]) => d === 'pg')?.[1];
    if (largest && pg && options.store !== 'pglite')
      for (const n of options.replicas ?? REPLICAS) await replicaFigures(results, bundle.file, largest, pg, n);
  } finally {
    bundle.remove();
  }
}

/** The largest size's backlog shared by `n` bot replicas on one PostgreSQL database (all on this machine's cores). */
async function replicaFigures(results: Results, bundle: string, size: Size, url: string, n: number): Promise<void> {
  const r = await oneTick(bundle, size, url, 'slack', n);
  const on = `${sizeWords(size, 'pg')}, ${n} bot replicas`;
  const id = (name: string) => `digests.${name}.${size.subs}.pg.replicas${n}`;
  results.add({
    id: id('posted'),
    label: `Digests: ${on}: digests posted, each once (${r.duplicates} posted twice; ${round(r.signalWalks / size.keys, 2)} signal list walks per key, each replica walking the keys of the runs it claimed; ${r.outcomes})`,
    value: r.posted,
    unit: 'digests',
    target: `${size.subs}, none twice`,
    met: r.posted === size.subs && r.duplicates === 0,
  });
  runFigures(results, r, {
    id,
    label: `Digests: ${on}`,
    where: 'channel',
    cpu: 'the replicas together',
    peakTarget: false,
    floorRatio: floorRatioOf(size, 'pg'),
  });
}

/** Teams digests at 1,000 subscriptions, the size their figures are quoted at, in a quick run as in a full one. */
export async function benchTeamsDigests(results: Results): Promise<void> {
  const size = SIZES[0]!;
  const bundle = await bundleDigestRun();
  try {
    for (const [driver, db] of benchStores()) {
      const r = await oneTick(bundle.file, size, db, 'teams');
      const on = sizeWords(size, driver, 'Teams channels');
      const suffix = driver === 'pg' ? `${size.subs}.pg` : `${size.subs}`;
      results.add({
        id: `teams.digests.posted.${suffix}`,
        label: `Teams digests: ${on}: digests posted through the Bot Connector (${r.ticks} ticks; ${r.outcomes}; ${round(r.signalWalks / size.keys, 2)} signal list walks per key)`,
        value: r.posted,
        unit: 'digests',
        target: `${size.subs}`,
        met: r.posted === size.subs,
      });
      results.add({
        id: `teams.digests.duplicates.${suffix}`,
        label: `Teams digests: ${on}: digests posted to a conversation beyond one per subscription (posted twice)`,
        value: r.duplicates,
        unit: 'digests',
        target: '0',
        met: r.duplicates === 0,
      });
      results.add({
        id: `teams.digests.429s.${suffix}`,
        label: `Teams digests: ${on}: posts the Bot Connector refused with 429 (Teams' limits per conversation: 7 a second, 8 in 2 s, 60 in 30 s)`,
        value: r.throttled,
        unit: 'requests',
        target: '0',
        met: r.throttled === 0,
      });
      runFigures(results, r, {
        id: (name) => `teams.digests.${name}.${suffix}`,
        label: `Teams digests: ${on}`,
        where: 'conversation',
        cpu: "building the card, the Teams SDK client, the store's writes; the sandbox and the fake Bot Connector run in processes of their own",
        peakTarget: true,
      });
    }
  } finally {
    bundle.remove();
  }
}

/**
 * `tsx bench/digests.ts [--quick] [--subs=10000] [--store=pg|pglite] [--replicas=2,3]`: the digest runs alone, one
 * size or store if named, the replica counts named (`--replicas=`: none) (with BENCH_PROFILE_DIR set, each run's process writes its CPU profile there; see bench/profile-top.ts).
 */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const results = new Results();
  if (process.argv.includes('--teams')) await benchTeamsDigests(results);
  else
    await benchDigests(results, {
      quick: process.argv.includes('--quick'),
      subs: flag('subs') ? Number(flag('subs')) : undefined,
      store: flag('store'),
      replicas: flag('replicas')?.split(',').filter(Boolean).map(Number),
    });

  process.exit(0);
}
