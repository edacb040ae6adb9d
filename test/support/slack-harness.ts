/**
 * The bot under test: the sandbox Linen API, the fake Slack, and the bot's real HTTP receiver on loopback,
 * configured through `loadConfig` exactly as from the environment. Every log line is captured and every
 * message the bot sends is checked by the Block Kit validator as it arrives.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../base/logging/logger.ts';
import { openPglite } from '../../base/store/pglite.ts';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { type Sandbox, type SandboxData, startSandbox } from '../../sandbox/index.ts';
import { loadConfig } from '../../service/config.ts';
import { type RunningBot, type StartOptions, startBot } from '../../service/start.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import {
  type AsyncTransport,
  createLinenClient,
  type LinenClient,
  SharedAnswers,
  UndiciTransport,
} from '../../shared/node.ts';
import { assertNoLeaks, type Produced, tableRows } from './secret-leaks.ts';
import { validateMessage, validateView } from './slack-blockkit.ts';
import { type FakeSlack, startFakeSlack } from './slack-fake.ts';
import { postEvent } from './slack-install.ts';
import {
  blockActionsBody,
  commandBody,
  postSigned,
  type SignedPost,
  type ViewClick,
  viewActionsBody,
} from './slack-sign.ts';
import { createWaiters } from './waiters.ts';

export const TODAY = '2026-11-20';
export const NOW = Date.parse(`${TODAY}T18:00:00.000Z`);
export const TZ = 'America/Chicago';
export const SIGNING_SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
export const BOT_TOKEN = 'xoxb-1111-2222-linentesttoken';

/** The digest tables whose rows are checked for secrets. */
export const DIGEST_TABLES = ['digest_subscriptions', 'digest_runs', 'digest_run_shown'] as const;

/** Counts the list/get requests a client really sends, by path (and by whole URL, query included). */
export function countingTransport(inner: AsyncTransport = new UndiciTransport()) {
  const paths: string[] = [];
  const urls: string[] = [];
  const transport: AsyncTransport = {
    async request(req, opts) {
      paths.push(new URL(req.url).pathname);
      urls.push(req.url);
      return inner.request(req, opts);
    },
    close: async () => {
      await inner.close?.();
    },
  };
  return { transport, paths, urls };
}

export interface BotUnderTest {
  bot: RunningBot;
  url: string;
  logs: string[];
  /** Resolves with the first log line (from now on or already written) matching `pattern`. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
  paths: string[];
  /** The URLs the bot's Linen client requested, query included, in order. */
  urls: string[];
  /** Sends `/linen <text>`; returns the HTTP acknowledgement and the response_url id. */
  command(
    text: string,
    opts?: SignedPost & {
      userId?: string;
      channelId?: string;
      teamId?: string;
      enterpriseId?: string;
      triggerId?: string;
    },
  ): Promise<{ status: number; body: string; ms: number; sink: string }>;
  /** `/linen <text>` and its (first) answer through response_url. */
  ask(
    text: string,
    opts?: { userId?: string; channelId?: string; teamId?: string; enterpriseId?: string },
  ): Promise<Record<string, any>>;
  click(
    actionId: string,
    value: string,
    opts?: { blockId?: string; userId?: string; teamId?: string; channelId?: string },
  ): Promise<{ status: number; sink: string }>;
  /** The person opens Linen's Home tab (`app_home_opened`, tab `home`); the HTTP status of the event's delivery. */
  openHome(userId: string, opts?: { teamId?: string; channelId?: string }): Promise<number>;
  /** A click on a Home tab the bot published (a button, or the values chosen in a menu); the HTTP status. */
  clickHome(click: ViewClick): Promise<number>;
  stop(): Promise<void>;
}

export interface Harness {
  sandbox: Sandbox;
  slack: FakeSlack;
  /** Problems the validator found in any message the bot sent so far. */
  problems: string[];
  startBotWith(
    env: Record<string, string | undefined>,
    opts?: {
      maxRetries?: number;
      /** The Linen client's per-request timeout (default the client's 20 s). */
      requestTimeoutMs?: number;
      /** The client shares its answers (a registry of this bot's own), as the service's clients do. */
      sharedAnswers?: boolean;
      start?: Pick<
        StartOptions,
        | 'digests'
        | 'alerts'
        | 'database'
        | 'multiWorkspace'
        | 'drainMs'
        | 'rateLimit'
        | 'now'
        | 'createService'
        | 'deadlines'
      >;
      /** The bot builds its own Linen clients with its real budgets and clock (no request counting). */
      ownClients?: boolean;
    },
  ): Promise<BotUnderTest>;
  close(): Promise<void>;
}

/** `data`: serve these rows (seeded as of TODAY) instead of the seed's own. */
export async function startHarness(options: { data?: SandboxData } = {}): Promise<Harness> {
  const sandbox = await startSandbox({
    port: 0,
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
    ...(options.data ? { data: options.data } : {}),
  });
  const slack = await startFakeSlack();
  const problems: string[] = [];
  const bots: BotUnderTest[] = [];
  // Bots whose test sets no digest storage share one in-memory store (opened once: PGlite takes a moment to
  // start); a test that sets LINEN_DATA_DIR or DATABASE_URL gets the bot's own store, opened from that setting.
  const dataDirs: string[] = [];
  let shared: Promise<SqlExecutor> | undefined;
  let sharedDb: SqlExecutor | undefined;
  // Validate every message as it reaches the fake Slack.
  const origPush = slack.posts.push.bind(slack.posts);
  slack.posts.push = (...items) => {
    for (const p of items) if (!p.body.delete_original) problems.push(...validateMessage(p.body, `response ${p.id}`));
    return origPush(...items);
  };
  const origPublish = slack.published.push.bind(slack.published);
  slack.published.push = (...items) => {
    for (const p of items) problems.push(...validateView(p.view, `Home tab of ${p.userId}`));
    return origPublish(...items);
  };

  return {
    sandbox,
    slack,
    problems,
    async startBotWith(envOverrides, opts = {}) {
      const env: Record<string, string | undefined> = {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.apiUrl,
        LINEN_BASE_URL: sandbox.baseUrl,
        LINEN_API_KEY: 'lk_live_demo_all_access',
        LINEN_TIMEZONE: TZ,
        PORT: '0',
        BIND_ADDRESS: '127.0.0.1',
        ...envOverrides,
      };
      let database: SqlExecutor | undefined;
      if (env.LINEN_DATA_DIR === undefined && env.DATABASE_URL === undefined && !opts.start?.database) {
        // Never the repository's ./data, even if the shared store is not used.
        env.LINEN_DATA_DIR = mkdtempSync(join(tmpdir(), 'linen-bot-'));
        dataDirs.push(env.LINEN_DATA_DIR);
        shared ??= openPglite().then((db) => {
          sharedDb = db;
          return migrateServiceDatabase(db);
        });
        database = await shared;
      }
      const config = loadConfig(env);
      const logs: string[] = [];
      const logWaiters = createWaiters();
      const logger = createLogger({
        write: (line) => {
          logs.push(line);
          logWaiters.notify();
        },
        level: 'debug' as never,
        format: config.logFormat,
      });
      const counting = countingTransport();
      let linenClient: LinenClient | undefined;
      if (config.linen.apiKey && !opts.ownClients) {
        linenClient = createLinenClient({
          apiKey: config.linen.apiKey,
          baseUrl: config.linen.baseUrl,
          timeZone: config.linen.timeZone ?? TZ,
          transport: counting.transport,
          pacing: false,
          maxRetries: opts.maxRetries ?? 0,
          ...(opts.requestTimeoutMs !== undefined ? { requestTimeoutMs: opts.requestTimeoutMs } : {}),
          ...(opts.sharedAnswers ? { sharedAnswers: new SharedAnswers() } : {}),
          now: () => NOW,
        });
      }
      const bot = await startBot(config, {
        logger,
        linenClient,
        ...(opts.ownClients ? {} : { now: () => NOW }),
        database,
        ...opts.start,
      });
      const url = `http://127.0.0.1:${bot.port}/slack/events`;
      const but: BotUnderTest = {
        bot,
        url,
        logs,
        waitForLog: (pattern, timeoutMs = 10_000) =>
          logWaiters.waitFor(() => logs.find((l) => pattern.test(l)), timeoutMs, `a log line matching ${pattern}`),
        paths: counting.paths,
        urls: counting.urls,
        async command(text, o = {}) {
          const sink = slack.responseUrl();
          const r = await postSigned(
            url,
            SIGNING_SECRET,
            commandBody({
              text,
              responseUrl: sink.url,
              userId: o.userId,
              channelId: o.channelId,
              teamId: o.teamId,
              enterpriseId: o.enterpriseId,
              triggerId: o.triggerId,
            }),
            o,
          );
          return { ...r, sink: sink.id };
        },
        async ask(text, o = {}) {
          const r = await but.command(text, o);
          if (r.status !== 200) throw new Error(`ack ${r.status}: ${r.body}`);
          const [first] = await slack.waitForPosts(r.sink, 1, 15_000);
          return first!.body;
        },
        async click(actionId, value, o = {}) {
          const sink = slack.responseUrl();
          const r = await postSigned(
            url,
            SIGNING_SECRET,
            blockActionsBody({ actionId, value, responseUrl: sink.url, ...o }),
          );
          return { status: r.status, sink: sink.id };
        },
        openHome: (userId, o = {}) =>
          postEvent(url, SIGNING_SECRET, o.teamId ?? 'T0LINEN', {
            type: 'app_home_opened',
            user: userId,
            channel: o.channelId ?? `D0${userId}`,
            tab: 'home',
          }),
        async clickHome(click) {
          const r = await postSigned(url, SIGNING_SECRET, viewActionsBody(click));
          return r.status;
        },
        stop: () => bot.stop(),
      };
      bots.push(but);
      return but;
    },
    async close() {
      for (const b of bots) await b.stop();
      // Everything the bots produced, checked for the keys and tokens in use once everything is closed.
      const produced: Produced[] = [
        ...bots.flatMap((b) => b.logs.map((text) => ({ source: 'log line', text }))),
        ...slack.posts.map((p) => ({ source: 'Slack post', text: JSON.stringify(p.body) })),
        // The bot token goes to Slack itself, in the Authorization header and (Bolt's auth.test) as `token`.
        ...slack.calls.map((c) => {
          const { token: _token, ...params } = c.params as Record<string, unknown>;
          return { source: `Slack ${c.method} call`, text: JSON.stringify(params) };
        }),
        ...(sharedDb ? await tableRows(sharedDb, DIGEST_TABLES) : []),
      ];
      await slack.close();
      await sandbox.close();
      for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
      if (shared) await (await shared).close();
      assertNoLeaks([BOT_TOKEN, SIGNING_SECRET, ...sandbox.data.keys.map((k) => k.secret)], produced);
    },
  };
}

/** Every text of a message (fallback, blocks, fields, buttons), joined: for content checks. */
export function allText(msg: Record<string, any>): string {
  const out: string[] = [String(msg.text ?? '')];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) if (k !== 'type' && k !== 'action_id' && k !== 'block_id') walk(x);
  };
  walk(msg.blocks);
  return out.join('\n');
}

/** The buttons of a message, in order. */
export function buttons(
  msg: Record<string, any>,
): { text: string; actionId: string; value: string; blockId?: string }[] {
  const out: { text: string; actionId: string; value: string; blockId?: string }[] = [];
  for (const b of (msg.blocks ?? []) as any[]) {
    if (b.type === 'section' && b.accessory?.type === 'button')
      out.push({
        text: b.accessory.text.text,
        actionId: b.accessory.action_id,
        value: b.accessory.value,
        blockId: b.block_id,
      });
    if (b.type === 'actions')
      for (const e of b.elements)
        out.push({ text: e.text.text, actionId: e.action_id, value: e.value, blockId: b.block_id });
  }
  return out;
}
