/**
 * One digest run in a process of its own: the bot's store and digest worker alone, bundled and run with plain
 * `node` as the built bot runs (bench/digests.ts bundles this file), so its resident memory is the bot's and not
 * the benchmark's. Nothing here may import build tools: the bundle runs whatever it holds. The child opens the
 * store (a new embedded folder, or a PostgreSQL schema), subscribes (Slack channels, or Teams channels reached
 * through a Bot Connector), runs the worker until every due digest has gone out, and reports what it did, its CPU
 * time and its peak resident memory during the run.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { clientsByKeyRef, keyRefOf } from '../base/key-ref.ts';
import { openPg } from '../base/store/pg.ts';
import { openPglite } from '../base/store/pglite.ts';
import { ManualClock } from '../chat/digests/clock.ts';
import type { DeliveryFor } from '../chat/digests/delivery/delivery.ts';
import { silentLogger } from '../chat/digests/engine.ts';
import { startDigestWorker } from '../chat/digests/index.ts';
import { DEFAULT_CLAIM_LIMIT, type TickResult } from '../chat/digests/runner.ts';
import { nextRuns } from '../chat/digests/schedule.ts';
import { digestStoreOver } from '../chat/digests/storage/index.ts';
import { migrateServiceDatabase } from '../service/store.ts';
import { createLinenClient, type LinenClient, sharedTransport } from '../shared/node.ts';
import { withPeakRss } from './process-memory.ts';
import type { TeamsConnectorTarget } from './teams-connector-process.ts';

const TZ = 'America/Chicago';

/** Where the digests go: a fake Slack Web API, or a fake Bot Connector with the token endpoint it trusts. */
export type DigestTarget = { platform: 'slack'; slackUrl: string } | ({ platform: 'teams' } & TeamsConnectorTarget);

export interface DigestRunSpec {
  subs: number;
  keys: string[];
  channels: number;
  pacingMs: number;
  sandboxUrl: string;
  target: DigestTarget;
  /** PostgreSQL and the schema to keep the tables in; unset: a new embedded store folder. */
  databaseUrl?: string;
  schema?: string;
  /**
   * Replicas (PostgreSQL only): `subscribe` makes the subscriptions and ends; `work` opens the store, says it is
   * ready and waits for the word `go` (every replica then starts at once) before running its worker. Default both.
   */
  role?: 'subscribe' | 'work';
}

export interface DigestRunResult {
  ticks: number;
  /** "N posted, N failed, ..." over every tick. */
  outcomes: string;
  signalWalks: number;
  elapsedMs: number;
  cpuMs: number;
  peakMb: number;
  beforeMb: number;
  /** Subscriptions made, by channel: each is due once, so the digests each channel should get. */
  subsByChannel: Record<string, number>;
}

/** The subscription's channel: a Slack channel id, or a Teams channel's conversation id. */
const channelOf = (target: DigestTarget, n: number) =>
  target.platform === 'slack' ? `C0BENCH${n}` : `19:bench${String(n).padStart(27, '0')}@thread.tacv2`;

/**
 * The platform's deliveries as the bot builds them. Imported on use: a Slack run's process then holds none of the
 * Teams SDK, nor a Teams run's the Slack client, and its resident memory is what that platform costs.
 */
async function deliveriesFor(target: DigestTarget): Promise<DeliveryFor> {
  if (target.platform === 'slack') {
    const [{ slackDeliveries }, { webClient }] = await Promise.all([
      import('../slack-bot/digests/delivery.ts'),
      import('../test/support/digest-env.ts'),
    ]);
    return slackDeliveries(webClient(target.slackUrl));
  }
  const [{ connectors }, { teamsDeliveries }, { botTokens }] = await Promise.all([
    import('../teams-bot/connector.ts'),
    import('../teams-bot/digests/delivery.ts'),
    import('../teams-bot/token.ts'),
  ]);
  return teamsDeliveries({ connectorFor: connectors(botTokens(target), `28:${target.clientId}`) });
}

/**
 * With BENCH_PROFILE_DIR set, a V8 CPU profile of the run alone (from the first tick to the last post, not the
 * subscriptions made before it) is written there: open it in Chrome's DevTools, or `tsx bench/profile-top.ts`.
 */
async function startProfile(): Promise<{ stop(name: string): Promise<void> } | null> {
  const dir = process.env.BENCH_PROFILE_DIR;
  if (!dir) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop(name) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(join(dir, `${name}-${process.pid}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const NOTHING_RUN = { ticks: 0, outcomes: '', signalWalks: 0, elapsedMs: 0, cpuMs: 0, peakMb: 0, beforeMb: 0 };

/** A replica tells the benchmark it is ready (its first message), then waits for `go`. */
function goSaid(): Promise<void> {
  return new Promise((resolve) => {
    process.once('message', () => resolve());
    process.send?.('ready');
  });
}

async function runDigests(spec: DigestRunSpec): Promise<DigestRunResult> {
  const clock = new ManualClock('2026-11-05T12:00:00Z');
  const folder = spec.databaseUrl ? null : mkdtempSync(join(tmpdir(), 'linen-bench-digests-'));
  const db = spec.databaseUrl
    ? await openPg({ connectionString: spec.databaseUrl, ...(spec.schema ? { schema: spec.schema } : {}), max: 10 })
    : await openPglite(join(folder!, 'digests'));
  const store = digestStoreOver(await migrateServiceDatabase(db));
  let signalWalks = 0;
  // Every key's clients share the process's connections to the API, as the service's do.
  const api = sharedTransport();
  const linenClientFor = clientsByKeyRef(spec.keys, (apiKey) => {
    const inner = createLinenClient({
      apiKey,
      baseUrl: spec.sandboxUrl,
      timeZone: TZ,
      pacing: false,
      transport: api.shared,
    });
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
  const { target } = spec;
  // A Teams digest goes through the service URL and to the tenant its subscription was made in.
  const teams =
    target.platform === 'teams'
      ? { platform: 'teams' as const, orgId: target.tenantId, serviceUrl: target.serviceUrl }
      : {};
  const subsByChannel: Record<string, number> = {};
  try {
    const deliveries = await deliveriesFor(target);
    const sched = { cadence: 'daily', time: '07:00', timeZone: TZ };
    const first = nextRuns(sched, clock.now(), 1)[0]!;
    for (let i = 0; i < spec.subs && spec.role !== 'work'; i++) {
      const channelId = channelOf(target, i % spec.channels);
      subsByChannel[channelId] = (subsByChannel[channelId] ?? 0) + 1;
      await store.createSubscription(
        {
          ...sched,
          ...teams,
          keyRef: keyRefOf(spec.keys[i % spec.keys.length]!),
          channelId,
          customerIds: [],
          minSeverity: 'low',
          allClear: false,
          createdBy: target.platform === 'slack' ? 'U0BENCH' : '29:1bench',
        },
        clock.now(),
        first,
      );
    }
    if (spec.role === 'subscribe') return { ...NOTHING_RUN, subsByChannel };
    if (spec.role === 'work') await goSaid();
    clock.set(first.getTime() + 1000);
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const ticks: TickResult[] = [];
    const profiler = await startProfile();
    const { peakMb, beforeMb } = await withPeakRss(
      () =>
        new Promise<void>((resolve) => {
          // The worker as the bot runs it, until every due digest has gone out.
          const worker = startDigestWorker({
            store,
            deliveries,
            linenClientFor,
            clock,
            pacingMs: spec.pacingMs,
            logger: silentLogger,
            onTick: (r) => {
              ticks.push(r);
              // A tick short of a full claim ends the backlog.
              if (r.claimed < DEFAULT_CLAIM_LIMIT) void worker.stop().then(resolve);
            },
          });
        }),
    );
    const elapsedMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    await profiler?.stop(`digests-${spec.subs}-${spec.databaseUrl ? 'pg' : 'pglite'}-${target.platform}`);
    const outcomes: Record<string, number> = {};
    for (const t of ticks) for (const [k, v] of Object.entries(t.outcomes)) outcomes[k] = (outcomes[k] ?? 0) + (v ?? 0);
    return {
      ticks: ticks.length,
      outcomes: Object.entries(outcomes)
        .map(([k, v]) => `${v} ${k}`)
        .join(', '),
      signalWalks,
      elapsedMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      peakMb,
      beforeMb,
      subsByChannel,
    };
  } finally {
    await linenClientFor.close();
    await api.close();
    await store.drain();
    await db.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.send) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as DigestRunSpec;
  const result = await runDigests(spec).catch((e: unknown) => ({ error: String((e as Error)?.stack ?? e) }));
  process.send(result, undefined, {}, () => process.exit(0));
}
