/**
 * The bot under test on Teams: the sandbox Linen API, the Bot Framework fakes (token endpoint, OpenID keys, Bot
 * Connector), and the service's real HTTP server on loopback with `POST /api/messages`, configured through
 * `loadConfig` exactly as from the environment. Activities are posted as the Bot Connector posts them, with a
 * token signed by the fake keys; what the bot posts back is read from the fake Connector. Every log line is captured.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../base/logging/logger.ts';
import type { DigestStore } from '../../chat/digests/storage/index.ts';
import { type Sandbox, type SandboxData, startSandbox } from '../../sandbox/index.ts';
import { loadConfig } from '../../service/config.ts';
import { type RunningBot, type StartOptions, startBot } from '../../service/start.ts';
import { createLinenClient } from '../../shared/node.ts';
import { cardsOf, validateCard } from './adaptive-card.ts';
import { KEYS } from './sandbox-http.ts';
import {
  type Activity,
  channelMessage,
  personalMessage,
  postActivity,
  type TeamsChannel,
  type TeamsUser,
  teamsChannel,
  teamsTeam,
  teamsUser,
} from './teams-activities.ts';
import type { ConnectorActivity } from './teams-connector-fake.ts';
import { startTeamsFakes, type TeamsFakes } from './teams-fakes.ts';
import { createWaiters } from './waiters.ts';

export const TODAY = '2026-11-20';
export const NOW = Date.parse(`${TODAY}T18:00:00.000Z`);
export const TZ = 'America/Chicago';
/** 32 bytes in base64: seals the connected keys at rest. */
export const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export interface TeamsBotUnderTest {
  bot: RunningBot;
  /** `http://127.0.0.1:<port>/api/messages` */
  endpoint: string;
  logs: string[];
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Posts an activity with a good token (or the one given); the HTTP answer. */
  post(activity: Activity, token?: string | null): Promise<{ status: number; body: any }>;
  /**
   * A message in a person's 1:1 chat (default) or in a channel after @Linen, and the answer the bot posted for it:
   * the last post or update of the conversation's thread once the answer (not "Looking that up…") is there.
   */
  ask(
    text: string,
    o?: { user?: TeamsUser; channel?: TeamsChannel },
  ): Promise<{ activity: Activity; answer: ConnectorActivity }>;
  /** Posts a message activity built by the test, and the answer the bot posted for it (as `ask`). */
  answerTo(activity: Activity): Promise<ConnectorActivity>;
  stop(): Promise<void>;
}

export interface TeamsHarness {
  sandbox: Sandbox;
  fakes: TeamsFakes;
  /** What `validateCard` found wrong in any card the bot posted or updated (none expected). */
  problems: string[];
  user: TeamsUser;
  channel: TeamsChannel;
  start(o?: {
    /** `single`: LINEN_API_KEY (one organization); `connected`: organizations connect their own keys. */
    mode?: 'single' | 'connected';
    env?: Record<string, string>;
    start?: StartOptions;
    store?: DigestStore;
    /** The embedded store's folder (default a new one): the same folder for a restart. */
    dataDir?: string;
  }): Promise<TeamsBotUnderTest>;
  /** A new folder for an embedded store, removed when the harness closes. */
  dataDir(): string;
  close(): Promise<void>;
}

/** The card's text, all of it, for assertions (a line per RichTextBlock or TextBlock, in order, after the summary). */
export function cardText(activity: Record<string, any> | undefined): string {
  const texts: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const n of node) walk(n);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      // A RichTextBlock is one line of runs; a TextBlock one text.
      if (o.type === 'RichTextBlock' && Array.isArray(o.inlines))
        texts.push(
          (o.inlines as (string | { text?: string })[])
            .map((r) => (typeof r === 'string' ? r : (r.text ?? '')))
            .join(''),
        );
      else if (o.type === 'TextBlock' && typeof o.text === 'string') texts.push(o.text);
      else for (const [k, v] of Object.entries(o)) if (k !== 'text') walk(v);
    }
  };
  walk(activity?.attachments);
  return [activity?.summary ?? '', ...texts].join('\n');
}

const INTERIM = 'Looking that up…';

/** `rateLimit`: the sandbox's, per key (default the API's 120 a minute). */
export async function startTeamsHarness(
  o: { data?: SandboxData; rateLimit?: { limit: number; windowMs: number } } = {},
): Promise<TeamsHarness> {
  const sandbox = await startSandbox({
    port: 0,
    today: TODAY,
    timeZone: TZ,
    ...(o.data ? { data: o.data } : {}),
    ...(o.rateLimit ? { rateLimit: o.rateLimit } : {}),
  });
  const fakes = await startTeamsFakes();
  const dirs: string[] = [];
  const running: TeamsBotUnderTest[] = [];
  const team = teamsTeam('Mercy Linen Operations');
  // Validate every card as it reaches the fake Bot Connector.
  const problems: string[] = [];
  const origPush = fakes.connector.activities.push.bind(fakes.connector.activities);
  fakes.connector.activities.push = (...items) => {
    for (const a of items)
      for (const card of cardsOf(a.activity)) problems.push(...validateCard(card, `${a.operation} ${a.id}`));
    return origPush(...items);
  };
  const newDataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'linen-teams-'));
    dirs.push(dir);
    return dir;
  };
  return {
    sandbox,
    fakes,
    problems,
    user: teamsUser('Dana Whitfield'),
    channel: teamsChannel(team, 'Linen Ops'),
    async start(s = {}) {
      const logs: string[] = [];
      const waiters = createWaiters();
      const logger = createLogger({
        level: 'debug' as never,
        write: (line) => {
          logs.push(line);
          waiters.notify();
        },
      });
      const dataDir = s.dataDir ?? newDataDir();
      const env: Record<string, string> = {
        ...fakes.env,
        LINEN_BASE_URL: sandbox.baseUrl,
        LINEN_DATA_DIR: dataDir,
        PORT: '0',
        BIND_ADDRESS: '127.0.0.1',
        ...(s.mode === 'connected'
          ? { LINEN_ENCRYPTION_KEY: ENCRYPTION_KEY }
          : { LINEN_API_KEY: KEYS.all, LINEN_TIMEZONE: TZ }),
        ...s.env,
      };
      const config = loadConfig(env);
      const bot = await startBot(config, {
        logger,
        now: () => NOW,
        digests: { worker: false },
        ...(s.mode !== 'connected'
          ? {
              linenClient: createLinenClient({
                apiKey: KEYS.all,
                // The sandbox, or what the test put in front of it (LINEN_BASE_URL).
                baseUrl: config.linen.baseUrl,
                timeZone: TZ,
                pacing: false,
                now: () => NOW,
              }),
            }
          : {}),
        ...(s.store ? { digestStore: s.store } : {}),
        ...s.start,
      });
      const endpoint = `http://127.0.0.1:${bot.port}/api/messages`;
      const post: TeamsBotUnderTest['post'] = (activity, token) =>
        postActivity(endpoint, activity, token === null ? undefined : (token ?? fakes.connectorToken()));
      const under: TeamsBotUnderTest = {
        bot,
        endpoint,
        logs,
        waitForLog: (pattern, timeoutMs = 10_000) =>
          waiters.waitFor(() => logs.find((l) => pattern.test(l)), timeoutMs, `a log line matching ${pattern}`),
        post,
        async ask(text, a = {}) {
          const user = a.user ?? teamsUser('Dana Whitfield');
          const activity = a.channel
            ? channelMessage(fakes.bot, { user, channel: a.channel, text })
            : personalMessage(fakes.bot, { user, text });
          return { activity, answer: await under.answerTo(activity) };
        },
        async answerTo(activity) {
          const conversation = String(activity.conversation.id).split(';')[0]!;
          const inChannel = activity.conversation.conversationType === 'channel';
          const before = fakes.connector.activities.length;
          const res = await post(activity);
          if (res.status !== 200) throw new Error(`the bot answered ${res.status} to "${activity.text}"`);
          return fakes.connector.waitUntil(
            () => {
              const mine = fakes.connector.activities
                .slice(before)
                .filter(
                  (x) =>
                    x.conversationId === conversation &&
                    (!inChannel || x.threadId === activity.id || x.operation === 'update'),
                );
              const last = mine.at(-1);
              return last && !cardText(last.activity).includes(INTERIM) ? last : undefined;
            },
            20_000,
            `the answer to "${activity.text}"`,
          );
        },
        stop: () => bot.stop(),
      };
      running.push(under);
      return under;
    },
    dataDir: newDataDir,
    async close() {
      for (const r of running) await r.stop().catch(() => {});
      await sandbox.close();
      await fakes.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
