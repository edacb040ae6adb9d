/**
 * Teams: the acknowledgement of message activities at 50 concurrent, against a bare Teams SDK app measured in the
 * same run (test/support/teams-bare-app.ts: the SDK's own authentication and routing, and a message handler that
 * only returns). Teams gives a bot 15 seconds to answer the HTTP request before it counts the activity failed.
 * Rounds of the two alternate, so both see the same machine; the bot's bursts are alternately 50 people asking
 * `balance Mercy General Hospital` each in their 1:1 chat, and 50 different questions (10 kinds × 5 customers).
 * After each of its bursts the bot's answers are awaited at the fake Bot Connector (a card that is not "Looking that
 * up…") before the next, and counted: those that carry the data.
 *
 * As in bench/slack.ts, the bot has its process's event loop to itself but for the Bot Framework fakes (token
 * endpoint, OpenID keys, Bot Connector), which only record: the Linen API (the sandbox) runs in a child process, the
 * load generator (Teams) in a worker thread. Every activity's token is signed (RS256) before the clock starts, as
 * Microsoft's signing is not the bot's time, and sent with undici's `request` over kept-alive connections.
 *
 * To see where the bot's acknowledgements go: `node --cpu-prof --import tsx bench/teams.ts`, and the samples taken
 * between a burst's first send and its last acknowledgement (the bot's bursts against the bare app's). That is how
 * the answers' work was found sharing the acknowledgements' turns, before it waited for them (base/pending-acks.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../base/logging/logger.ts';
import { loadConfig } from '../service/config.ts';
import { startBot } from '../service/start.ts';
import { createLinenClient } from '../shared/node.ts';
import { personalMessage, teamsUser } from '../test/support/teams-activities.ts';
import { startBareTeamsApp } from '../test/support/teams-bare-app.ts';
import { startTeamsFakes, type TeamsFakes } from '../test/support/teams-fakes.ts';
import { cardText } from '../test/support/teams-harness.ts';
import { loadGenerator, percentile } from './load-generator.ts';
import { Results, ratioOf, round } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const CONCURRENT = 50;
const CUSTOMER = 'Mercy General Hospital';
/** Teams' limit for the HTTP answer to an activity. */
const TEAMS_LIMIT_MS = 15_000;
/** The target: far inside Teams' limit, so a slow moment of the machine does not reach it. */
const P95_TARGET_MS = 1000;
const INTERIM = 'Looking that up…';
const NO_DATA = /busy|not answering|could not be reached|having trouble|try again/i;
const DISTINCT = [
  CUSTOMER,
  'Mercy West Surgery Center',
  'Harborview Hotel',
  'Lakeshore Rehabilitation Centre',
  "St. Luke's Medical Center",
].flatMap((c) =>
  [
    'balance',
    'invoices',
    'invoices overdue',
    'po',
    'signals',
    'short',
    'tickets',
    'tickets resolved',
    'fillrate',
    'rewash',
  ].map((k) => {
    const [verb, ...rest] = k.split(' ');
    return [verb, c, ...rest].join(' ');
  }),
);

/**
 * Each text as a message in a 1:1 chat of its own, from a person of its own, each with its own signed token; the
 * conversations, to find the answers by.
 */
function activities(fakes: TeamsFakes, texts: string[]) {
  const messages = texts.map((text) => personalMessage(fakes.bot, { user: teamsUser(`Bench ${text}`), text }));
  return {
    conversations: messages.map((m) => String(m.conversation.id)),
    posts: messages.map((m) => ({
      body: JSON.stringify(m),
      headers: {
        'content-type': 'application/json; charset=utf-8',
        authorization: `Bearer ${fakes.connectorToken()}`,
      },
    })),
  };
}

/**
 * Waits (up to a minute, never failing) until each conversation's last post or update is an answer and not the
 * interim message; how many of those answers carry their data.
 */
async function answersIn(fakes: TeamsFakes, conversations: string[], from: number) {
  const wanted = new Set(conversations);
  const lastIn = () => {
    const last = new Map<string, Record<string, unknown> | undefined>();
    for (const a of fakes.connector.activities.slice(from))
      if (wanted.has(a.conversationId) && a.operation !== 'delete') last.set(a.conversationId, a.activity);
    return [...last.values()].map((a) => cardText(a)).filter((t) => !t.includes(INTERIM));
  };
  await fakes.connector
    .waitUntil(() => (lastIn().length === wanted.size ? true : undefined), 60_000, 'every answer')
    .catch(() => {});
  return lastIn().filter((t) => !NO_DATA.test(t)).length;
}

export async function benchTeams(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const sandbox = await startSandboxProcess({
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 1e9, windowMs: 60_000 },
  });
  const fakes = await startTeamsFakes();
  // As Teams does; each person's 1:1 chat gets an answer or two, well within its limits.
  fakes.connector.enforceRateLimits = true;
  const load = loadGenerator();
  const dataDir = mkdtempSync(join(tmpdir(), 'linen-bench-teams-'));
  const now = () => Date.parse(`${TODAY}T18:00:00.000Z`);
  const config = loadConfig({
    ...fakes.env,
    LINEN_BASE_URL: sandbox.baseUrl,
    LINEN_API_KEY: KEY,
    LINEN_TIMEZONE: TZ,
    LINEN_DATA_DIR: dataDir,
    PORT: '0',
  });
  const bot = await startBot(config, {
    logger: createLogger({ write: () => {} }),
    linenClient: createLinenClient({ apiKey: KEY, baseUrl: sandbox.baseUrl, timeZone: TZ, pacing: false, now }),
    host: '127.0.0.1',
    now,
    digests: { worker: false },
  });
  const botUrl = `http://127.0.0.1:${bot.port}/api/messages`;
  const bare = await startBareTeamsApp(fakes, {
    register: (app) => {
      app.on('message', async () => {});
    },
  });
  try {
    const same = Array.from({ length: CONCURRENT }, () => `balance ${CUSTOMER}`);
    /** One burst of 50; for the bot, waits for every answer before the next burst. */
    const burst = async (url: string, texts: string[], answers: boolean) => {
      const { conversations, posts } = activities(fakes, texts);
      const from = fakes.connector.activities.length;
      const acks = await load.send(url, posts);
      const refused = acks.filter((a) => a.status !== 200).length;
      const withData = answers ? await answersIn(fakes, conversations, from) : 0;
      return { ms: acks.map((a) => a.ms), refused, withData };
    };
    await burst(botUrl, same, true); // warm-up: the SDK fetches the keys, the bot its token
    await burst(bare.endpoint, same, false);
    const botAcks: number[] = [];
    const bareAcks: number[] = [];
    const asked = { same: 0, distinct: 0 };
    const answered = { same: 0, distinct: 0 };
    let refused = 0;
    for (let i = 0; i < (options.quick ? 2 : 6); i++) {
      const kind = i % 2 === 0 ? 'same' : 'distinct';
      const b = await burst(botUrl, kind === 'same' ? same : DISTINCT, true);
      botAcks.push(...b.ms);
      asked[kind] += CONCURRENT;
      answered[kind] += b.withData;
      const f = await burst(bare.endpoint, same, false);
      bareAcks.push(...f.ms);
      refused += b.refused + f.refused;
    }
    const [p50, p95, max] = [percentile(botAcks, 50), percentile(botAcks, 95), Math.max(...botAcks)];
    const [b50, b95, bmax] = [percentile(bareAcks, 50), percentile(bareAcks, 95), Math.max(...bareAcks)];
    const n = botAcks.length;
    const of = `${CONCURRENT} concurrent message activities in 1:1 chats (${n}${refused ? `, ${refused} not answered 200` : ''})`;
    results.add({
      id: 'teams.ack_p50_ms',
      label: `Teams: acknowledgement p50, ${of}; baseline: a bare Teams SDK app whose handler only returns`,
      value: round(p50),
      unit: 'ms',
      baseline: round(b50),
      ratio: ratioOf(p50, b50),
    });
    results.add({
      id: 'teams.ack_p95_ms',
      label: `Teams: acknowledgement p95, ${of}; baseline: the bare Teams SDK app`,
      value: round(p95),
      unit: 'ms',
      baseline: round(b95),
      ratio: ratioOf(p95, b95),
      target: `< ${P95_TARGET_MS.toLocaleString('en-US')} ms`,
      met: refused === 0 && p95 < P95_TARGET_MS,
    });
    results.add({
      id: 'teams.ack_max_ms',
      label: `Teams: slowest acknowledgement, ${of}; baseline: the bare Teams SDK app's slowest`,
      value: round(max),
      unit: 'ms',
      baseline: round(bmax),
      ratio: ratioOf(max, bmax),
      target: `< ${TEAMS_LIMIT_MS.toLocaleString('en-US')} ms (Teams' limit)`,
      met: refused === 0 && max < TEAMS_LIMIT_MS,
    });
    results.add({
      id: `teams.answered.${CONCURRENT}`,
      label: `Teams: answers with their data posted to the Bot Connector, for ${asked.same} messages "balance ${CUSTOMER}" sent ${CONCURRENT} at once`,
      value: answered.same,
      unit: 'messages',
      target: `${asked.same}`,
      met: answered.same === asked.same,
    });
    results.add({
      id: `teams.distinct_answered.${CONCURRENT}`,
      label: `Teams: answers with their data posted to the Bot Connector, for ${asked.distinct} different questions sent ${CONCURRENT} at once (balance, invoices, invoices overdue, po, signals, short, tickets, tickets resolved, fillrate, rewash × 5 customers)`,
      value: answered.distinct,
      unit: 'messages',
      target: `${asked.distinct}`,
      met: answered.distinct === asked.distinct,
    });
  } finally {
    await bot.stop();
    await bare.close();
    await load.close();
    await fakes.close();
    await sandbox.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchTeams(new Results(), { quick: process.argv.includes('--quick') });
  process.exit(0);
}
