/** A digest test bench: sandbox over HTTP, fake Slack, a store, a manual clock and tick helpers. */
import { WebClient } from '@slack/web-api';
import { clientsByKeyRef, keyRefOf } from '../../base/key-ref.ts';
import type { Content } from '../../chat/content/document.ts';
import { ManualClock } from '../../chat/digests/clock.ts';
import { ChannelPacer } from '../../chat/digests/delivery/channel-pacer.ts';
import { type DigestCommandContext, runDigestCommand } from '../../chat/digests/digest-answers.ts';
import { DigestEngine, type EngineOptions, silentLogger } from '../../chat/digests/engine.ts';
import { type DigestWorkerOptions, startDigestWorker } from '../../chat/digests/index.ts';
import { runDigestTick } from '../../chat/digests/runner.ts';
import { loadSandboxData, type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { createLinenClient, type LinenClient } from '../../shared/node.ts';
import { toSlackMessage } from '../../slack-bot/blocks/render.ts';
import { slackDigestChannels } from '../../slack-bot/digests/channels.ts';
import { slackDeliveries } from '../../slack-bot/digests/delivery.ts';
import { slackFetch } from '../../slack-bot/slack-fetch.ts';
import { openTestDb, type TestDb } from './digest-db.ts';
import { type FakeSlack, startFakeSlack } from './digest-slack.ts';

export const KEY = 'lk_live_demo_all_access';
export const TZ = 'America/Chicago';
export const TODAY = '2026-11-05';

export interface DigestEnv {
  db: TestDb;
  sandbox: Sandbox;
  slack: FakeSlack;
  web: WebClient;
  clock: ManualClock;
  linenClientFor(key: string): LinenClient;
  engine(opts?: Partial<EngineOptions>): DigestEngine;
  tick(engine?: DigestEngine): ReturnType<typeof runDigestTick>;
  close(): Promise<void>;
}

export function webClient(url: string): WebClient {
  return new WebClient('xoxb-test', {
    slackApiUrl: url,
    // The bot's own transport, as its digest worker posts.
    fetch: slackFetch,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    logLevel: 'error' as never,
  });
}

/** `via`: PostgreSQL only, the address the store connects through (see `openTestDb`). */
export async function startDigestEnv(driver: 'pglite' | 'pg', options: { via?: string } = {}): Promise<DigestEnv> {
  const data = structuredClone(await loadSandboxData({ today: TODAY, timeZone: TZ, seed: 'linen' }));
  const sandbox = await startSandbox({ port: 0, data, today: TODAY, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  const slack = await startFakeSlack();
  const clock = new ManualClock('2026-11-05T12:00:00Z');
  slack.now = () => clock.now().getTime();
  const db = await openTestDb(driver, options);
  const linenClientFor = clientsByKeyRef([KEY], (apiKey) =>
    createLinenClient({ apiKey, baseUrl: sandbox.baseUrl, timeZone: TZ, pacing: false, maxRetries: 0 }),
  );
  const web = webClient(slack.url);
  const pacer = new ChannelPacer(0);
  const engine = (opts: Partial<EngineOptions> = {}) =>
    new DigestEngine({ store: db.store, clock, workerId: 'w-main', retry: { baseDelayMs: 10 }, ...opts });
  const main = engine();
  return {
    db,
    sandbox,
    slack,
    web,
    clock,
    linenClientFor,
    engine,
    tick: (e = main) => runDigestTick({ engine: e, deliveries: slackDeliveries(web), linenClientFor, pacer }),
    async close() {
      await linenClientFor.close();
      await Promise.all([sandbox.close(), slack.close(), db.close()]);
    },
  };
}

/** The channel and user of the `/linen digest` commands in the digest suites. */
export const CH = 'C0DIGEST1';
export const USER = 'U0CREATOR';

/** The command context of USER in CH (where the bot is a member), reading with the demo key. */
export function commandContext(env: DigestEnv): DigestCommandContext {
  env.slack.members.add(CH);
  return {
    platform: 'slack',
    userId: USER,
    channelId: CH,
    store: env.db.store,
    channels: slackDigestChannels(env.web),
    linen: env.linenClientFor(keyRefOf(KEY)),
    keyRef: keyRefOf(KEY),
    timeZone: TZ,
    clock: env.clock,
    adminUserIds: [],
  };
}

/** A `/linen digest` command answered as Slack shows it (the text fallback and the blocks). */
export async function slackDigestCommand(args: string, ctx: DigestCommandContext) {
  return { responseType: 'ephemeral' as const, ...toSlackMessage(await runDigestCommand(args, ctx)) };
}

/** The answer's Slack rendering, for the suites that check what a person reads. */
export const asSlack = (content: Content) => toSlackMessage(content);

/** The fallback and every block's text of a reply. */
export const replyText = (r: { text: string; blocks: unknown[] }) =>
  [r.text, ...r.blocks.map((b) => JSON.stringify(b))].join('\n');

/** The digest worker on the env's store, fake Slack, keys and clock, unpaced and silent; `options` add the rest. */
export function startEnvWorker(env: DigestEnv, options: Partial<DigestWorkerOptions> = {}) {
  return startDigestWorker({
    store: env.db.store,
    deliveries: slackDeliveries(env.web),
    linenClientFor: env.linenClientFor,
    clock: env.clock,
    pacingMs: 0,
    logger: silentLogger,
    ...options,
  });
}
