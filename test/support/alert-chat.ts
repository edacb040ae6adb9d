/**
 * The service with its alert worker on a manual clock, on Slack (test/support/slack-harness.ts: signed `/linen`
 * commands over HTTP, the fake Slack Web API receiving the posts) or on Teams (test/support/teams-harness.ts: `@Linen`
 * in a channel, the fake Bot Connector receiving the cards), on PGlite (a folder of its own, so that a restart
 * reopens it) or on PostgreSQL (a fresh schema of TEST_DATABASE_URL). One interface for both platforms, so that the
 * alert suites say the same thing of each: what a person types and reads, and what the alert posts.
 *
 * Every message the bot sends is held to its platform's validator: Slack's answers by the harness, the alerts and
 * the sentences to creators here (Block Kit); every card on Teams by the harness (Adaptive Cards).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { AlertStore } from '../../chat/alerts/storage/store.ts';
import type { Sandbox } from '../../sandbox/index.ts';
import type { RunningBot, StartOptions } from '../../service/start.ts';
import { cardsOf } from './adaptive-card.ts';
import { type AlertClock, alertClock } from './alert-clock.ts';
import { dropSchema, freshSchema, PG_URL } from './digest-db.ts';
import { validateMessage } from './slack-blockkit.ts';
import { allText, type BotUnderTest, buttons, type Harness, NOW, startHarness } from './slack-harness.ts';
import { type SwitchableApi, startSwitchableApi } from './switchable-api.ts';
import { channelMessage, type TeamsChannel, type TeamsUser, teamsChannel, teamsUser } from './teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from './teams-harness.ts';

export type Driver = 'pglite' | 'pg';

/** A message the bot posted in a conversation: its text (blocks or card, all of it) and its buttons. */
export interface PostedMessage {
  text: string;
  /** Each button's label and the command it runs. */
  buttons: { label: string; command: string }[];
}

export interface AlertChat {
  readonly platform: 'slack' | 'teams';
  readonly driver: Driver;
  readonly sandbox: Sandbox;
  /** The alert worker's clock (its timers are the worker's). */
  readonly clock: AlertClock;
  readonly pollMs: number;
  /** The people who type commands: their ids as the platform gives them (alerts record them as creators). */
  readonly people: { dana: string; lee: string };
  /** The conversation the commands are typed in, where an alert posts unless told otherwise. */
  readonly here: string;
  /** Slack only: another channel the bot is in (`#finance`), and one it is not in (`#no-bot`). */
  readonly channels?: { finance: string; notIn: string } | undefined;
  /** Slack only: the harness and the bot under test (a button clicked, a Web API method failing). */
  readonly slack?: { h: Harness; bot(): BotUnderTest } | undefined;
  bot(): RunningBot;
  store(): AlertStore;
  /** A command as a person types it (`alert short`), in `here` by default; the answer's text. */
  say(text: string, o?: { as?: 'dana' | 'lee' }): Promise<string>;
  /** The alerts posted in a conversation so far, oldest first (not answers, nor sentences to a creator). */
  posts(conversation: string): PostedMessage[];
  /** The sentences telling `person` that something of theirs stopped (Slack: DMs; Teams: their 1:1 chat). */
  toldCreator(person: string): string[];
  /** The person's direct conversation with the bot, once one was opened (where `dm` alerts post). */
  direct(person: string): string | undefined;
  /** What the validators found wrong in anything the bot sent so far (none expected). */
  problems(): string[];
  /** From now on the bot cannot post in the conversation (Slack: `not_in_channel`; Teams: removed from it). */
  leave(conversation: string): void;
  /** With `viaProxy`: the API as the service reaches it, through a proxy the test can hold or make refuse a key. */
  readonly api?: SwitchableApi | undefined;
  /** Stops the service (its store kept). */
  stop(): Promise<void>;
  /** Starts the service again on the same store (`drainMs`: how long its `stop()` will wait for work under way). */
  restart(o?: { drainMs?: number }): Promise<void>;
  close(): Promise<void>;
}

export interface AlertChatOptions {
  pollMs?: number;
  /** More of the service's settings (Slack: `LINEN_ADMIN_USER_IDS`...). */
  env?: Record<string, string>;
  start?: Pick<StartOptions, 'drainMs' | 'rateLimit'>;
  /** The bot builds its own Linen clients, with their pacing and the request observer (metrics). */
  ownClients?: boolean;
  /** The service reaches the API through a proxy the test switches (`AlertChat.api`). */
  viaProxy?: boolean;
}

/** A fresh schema of TEST_DATABASE_URL, and the URL that reaches it. */
async function pgSchema(): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = freshSchema();
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
  const url = new URL(PG_URL!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.href, drop: () => dropSchema(PG_URL!, schema) };
}

/** Where the service keeps its store: a PGlite folder, or a schema of TEST_DATABASE_URL. */
async function storeSettings(driver: Driver): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (driver === 'pg') {
    const s = await pgSchema();
    return { env: { DATABASE_URL: s.url }, drop: s.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'linen-alerts-'));
  return { env: { LINEN_DATA_DIR: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const DEFAULT_POLL_MS = 60_000;

/**
 * The service's settings on both platforms: the alert worker on the manual clock, which is also the commands' clock
 * (an alert set now is due one poll interval later by the worker's clock); no digest worker; posts to a channel not
 * spaced out (the channel pacer's second between posts is real time).
 */
const commonStart = (clock: AlertClock) =>
  ({
    alerts: { clock: clock.clock },
    now: () => clock.now().getTime(),
    digests: { worker: false, pacingMs: 0 },
  }) satisfies StartOptions;

function slackText(params: Record<string, unknown>): Record<string, any> {
  const blocks = typeof params.blocks === 'string' ? JSON.parse(params.blocks) : params.blocks;
  return { text: params.text, blocks };
}

export async function startSlackAlerts(driver: Driver, o: AlertChatOptions = {}): Promise<AlertChat> {
  const pollMs = o.pollMs ?? DEFAULT_POLL_MS;
  const h: Harness = await startHarness();
  const stored = await storeSettings(driver);
  const api = o.viaProxy ? await startSwitchableApi(h.sandbox.baseUrl) : undefined;
  const clock = alertClock(NOW, pollMs);
  const here = 'C0LINEN';
  h.slack.channels.set(here, { name: 'linen-ops', member: true });
  h.slack.channels.set('C0FINANCE', { name: 'finance', member: true });
  h.slack.channels.set('C0NOBOT', { name: 'no-bot', member: false });
  const people = { dana: 'U0DANA', lee: 'U0LEE' };
  const start = (more: { drainMs?: number } = {}) =>
    h.startBotWith(
      {
        ALERTS_POLL_SECONDS: String(pollMs / 1000),
        ...stored.env,
        ...(api ? { LINEN_BASE_URL: api.baseUrl } : {}),
        ...o.env,
      },
      {
        start: { ...commonStart(clock), ...o.start, ...more },
        ownClients: o.ownClients,
      },
    );
  let bot: BotUnderTest = await start();
  const postMessages = () => h.slack.calls.filter((c) => c.method === 'chat.postMessage');
  return {
    platform: 'slack',
    driver,
    sandbox: h.sandbox,
    clock,
    pollMs,
    people,
    here,
    channels: { finance: 'C0FINANCE', notIn: 'C0NOBOT' },
    slack: { h, bot: () => bot },
    bot: () => bot.bot,
    store: () => bot.bot.alerts.store,
    async say(text, s = {}) {
      return allText(await bot.ask(text, { userId: people[s.as ?? 'dana'], channelId: here }));
    },
    posts: (conversation) =>
      postMessages()
        .filter((c) => c.params.channel === conversation && c.params.metadata !== undefined)
        .map((c) => {
          const msg = slackText(c.params);
          return {
            text: allText(msg),
            buttons: buttons(msg).map((b) => ({ label: b.text, command: b.value })),
          };
        }),
    toldCreator: (person) =>
      postMessages()
        .filter((c) => c.params.channel === person && c.params.metadata === undefined)
        .map((c) => String(c.params.text)),
    direct: (person) =>
      h.slack.calls.some((c) => c.method === 'conversations.open' && c.params.users === person)
        ? `D0${person}`
        : undefined,
    problems: () => [
      ...h.problems,
      ...postMessages().flatMap((c, i) => validateMessage(slackText(c.params), `chat.postMessage ${i}`)),
    ],
    leave: (conversation) => h.slack.failPostsIn(conversation, 'not_in_channel'),
    api,
    stop: () => bot.stop(),
    async restart(more) {
      bot = await start(more);
    },
    async close() {
      api?.release();
      await h.close();
      await api?.close();
      await stored.drop();
    },
  };
}

/** A card's Action.Execute buttons, wherever they are (its actions, an ActionSet in its body), in order. */
function executeActions(node: unknown): PostedMessage['buttons'] {
  if (Array.isArray(node)) return node.flatMap(executeActions);
  if (!node || typeof node !== 'object') return [];
  const o = node as Record<string, any>;
  if (o.type === 'Action.Execute') return [{ label: String(o.title), command: String(o.data?.command ?? '') }];
  return Object.values(o).flatMap(executeActions);
}

export async function startTeamsAlerts(driver: Driver, o: AlertChatOptions = {}): Promise<AlertChat> {
  const pollMs = o.pollMs ?? DEFAULT_POLL_MS;
  const h: TeamsHarness = await startTeamsHarness({ rateLimit: { limit: 1_000_000, windowMs: 60_000 } });
  const stored = await storeSettings(driver);
  const api = o.viaProxy ? await startSwitchableApi(h.sandbox.baseUrl) : undefined;
  const clock = alertClock(NOW, pollMs);
  const users: Record<'dana' | 'lee', TeamsUser> = { dana: teamsUser('Dana Whitfield'), lee: teamsUser('Lee Park') };
  const channel: TeamsChannel = teamsChannel(h.channel.team, 'Linen Alerts');
  const start = (more: { drainMs?: number } = {}) =>
    h.start({
      env: {
        ALERTS_POLL_SECONDS: String(pollMs / 1000),
        ...stored.env,
        ...(api ? { LINEN_BASE_URL: api.baseUrl } : {}),
        ...o.env,
      },
      // The embedded store's folder is the harness's LINEN_DATA_DIR unless DATABASE_URL says otherwise.
      ...(stored.env.LINEN_DATA_DIR ? { dataDir: stored.env.LINEN_DATA_DIR } : {}),
      start: { ...commonStart(clock), ...o.start, ...more },
    });
  let bot: TeamsBotUnderTest = await start();
  const sends = () => h.fakes.connector.activities.filter((a) => a.operation === 'send' && a.threadId === undefined);
  return {
    platform: 'teams',
    driver,
    sandbox: h.sandbox,
    clock,
    pollMs,
    people: { dana: users.dana.id, lee: users.lee.id },
    here: channel.id,
    bot: () => bot.bot,
    store: () => bot.bot.alerts.store,
    async say(text, s = {}) {
      const answer = await bot.answerTo(channelMessage(h.fakes.bot, { user: users[s.as ?? 'dana'], channel, text }));
      return [answer.activity?.text, cardText(answer.activity)].filter(Boolean).join('\n');
    },
    posts: (conversation) =>
      sends()
        .filter((a) => a.conversationId === conversation && cardsOf(a.activity).length > 0)
        .map((a) => ({
          text: cardText(a.activity),
          buttons: cardsOf(a.activity).flatMap(executeActions),
        })),
    toldCreator(person) {
      const chats = h.fakes.connector.createdConversations.filter((c) => c.userId === person).map((c) => c.id);
      return sends()
        .filter((a) => chats.includes(a.conversationId) && cardsOf(a.activity).length === 0)
        .map((a) => String(a.activity?.text ?? ''));
    },
    direct: (person) => h.fakes.connector.createdConversations.find((c) => c.userId === person)?.id,
    problems: () => [...h.problems],
    leave: (conversation) => h.fakes.connector.setFault(conversation, 'bot-removed'),
    api,
    stop: () => bot.stop(),
    async restart(more) {
      bot = await start(more);
    },
    async close() {
      api?.release();
      await h.close();
      await api?.close();
      await stored.drop();
    },
  };
}
