/**
 * Thirty people asking at once, at the key's real 120 requests a minute (issue #20): thirty identical signed
 * `/linen balance <customer>` commands, then thirty different questions, sent together to the bot's HTTP
 * receiver. The bot builds its own Linen clients, which share their answers per key; the baseline is the same
 * burst on a bot whose client shares nothing (each command its own requests), measured in the same run against a
 * sandbox of its own. Requests are counted in each sandbox's request log; the sandboxes run in child processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger } from '../base/logging/logger.ts';
import { loadConfig } from '../service/config.ts';
import { startBot } from '../service/start.ts';
import { createLinenClient, DEFAULT_PACING, Pacer } from '../shared/node.ts';
import { type FakeSlack, startFakeSlack } from '../test/support/slack-fake.ts';
import { commandBody, postSigned } from '../test/support/slack-sign.ts';
import { Results, ratioOf } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const SECRET = 'benchsigningsecret0123456789abcd';
const CUSTOMER = 'Mercy General Hospital';
const DEADLINE_MS = 15_000;
const NO_DATA = /busy|not answering|could not be reached|having trouble|try again/i;
const DISTINCT = [
  'Harborview Hotel',
  'Lakeshore Rehabilitation Centre',
  CUSTOMER,
  'Mercy West Surgery Center',
  "St. Luke's Medical Center",
].flatMap((c) => ['balance', 'invoices', 'po', 'signals', 'tickets', 'fillrate'].map((k) => `${k} ${c}`));

/** The sandbox's count of the requests it received. */
async function requestCount(baseUrl: string): Promise<number> {
  const res = await fetch(`${new URL(baseUrl).origin}/__sandbox/requests`);
  return ((await res.json()) as { data: { count: number } }).data.count;
}

/** A bot on its own sandbox; `shared` false: one client that shares nothing, paced at the key's limit. */
async function botOn(slack: FakeSlack, shared: boolean) {
  const sandbox = await startSandboxProcess({ today: TODAY, timeZone: TZ });
  const dataDir = mkdtempSync(join(tmpdir(), 'linen-burst-'));
  const config = loadConfig({
    SLACK_BOT_TOKEN: 'xoxb-bench-token',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    LINEN_BASE_URL: sandbox.baseUrl,
    LINEN_API_KEY: KEY,
    LINEN_TIMEZONE: TZ,
    LINEN_DATA_DIR: dataDir,
    PORT: '0',
  });
  const linenClient = shared
    ? undefined
    : createLinenClient({
        apiKey: KEY,
        baseUrl: sandbox.baseUrl,
        timeZone: TZ,
        pacing: new Pacer({ ...DEFAULT_PACING }),
        timeBudgetMs: 10_000,
        requestTimeoutMs: 5_000,
        maxRetries: 1,
      });
  const bot = await startBot(config, {
    logger: createLogger({ write: () => {} }),
    linenClient,
    host: '127.0.0.1',
    digests: { worker: false },
  });
  const url = `http://127.0.0.1:${bot.port}/slack/events`;
  /** Sends every command at once; the requests they cost, how many got their data, the slowest answer. */
  const burst = async (texts: string[]) => {
    const before = await requestCount(sandbox.baseUrl);
    const answers = await Promise.all(
      texts.map(async (text) => {
        const sink = slack.responseUrl();
        const started = Date.now();
        const ack = await postSigned(url, SECRET, commandBody({ text, responseUrl: sink.url }));
        if (ack.status !== 200) throw new Error(`ack ${ack.status}`);
        const [answer] = await slack.waitForPosts(sink.id, 1, 60_000);
        return { ms: answer!.at - started, data: !NO_DATA.test(JSON.stringify(answer!.body)) };
      }),
    );
    const ms = Math.max(...answers.map((a) => a.ms));
    return {
      requests: (await requestCount(sandbox.baseUrl)) - before,
      answered: answers.filter((a) => a.data && a.ms < DEADLINE_MS).length,
      slowestMs: ms,
    };
  };
  return {
    burst,
    close: async () => {
      await bot.stop();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function benchSlackBurst(results: Results): Promise<void> {
  const slack = await startFakeSlack();
  const same = Array.from({ length: 30 }, () => `balance ${CUSTOMER}`);
  try {
    const naive = await botOn(slack, false);
    const one = await naive.burst([same[0]!]);
    const naiveBurst = await naive.burst(same);
    await naive.close();

    const bot = await botOn(slack, true);
    const sharedBurst = await bot.burst(same);
    const distinct = await bot.burst(DISTINCT);
    await bot.close();

    results.add({
      id: 'slack.burst_requests.30',
      label: `Slack: 30 identical /linen balance ${CUSTOMER} at once, fresh 120/min budget, API requests; baseline: the same burst on a client that shares nothing (one answer alone: ${one.requests} requests)`,
      value: sharedBurst.requests,
      unit: 'requests',
      baseline: naiveBurst.requests,
      ratio: ratioOf(naiveBurst.requests, sharedBurst.requests),
      target: `<= ${one.requests} (one answer)`,
      met: sharedBurst.requests <= one.requests,
    });
    results.add({
      id: 'slack.burst_answered.30',
      label:
        'Slack: those 30 identical commands, answered with the balance within the 15 s deadline; baseline: the client that shares nothing',
      value: sharedBurst.answered,
      unit: 'commands',
      baseline: naiveBurst.answered,
      ratio: null,
      target: '30',
      met: sharedBurst.answered === 30,
    });
    results.add({
      id: 'slack.burst_distinct_answered.30',
      label: `Slack: 30 different questions at once (balance, invoices, po, signals, tickets, fillrate × 5 customers; ${distinct.requests} API requests, slowest answer ${Math.round(distinct.slowestMs)} ms), answered with their data within the 15 s deadline`,
      value: distinct.answered,
      unit: 'commands',
      baseline: null,
      ratio: null,
      target: '30',
      met: distinct.answered === 30,
    });
  } finally {
    await slack.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchSlackBurst(new Results());
  process.exit(0);
}
