/**
 * Slack bot figures, each against a floor measured in the same run:
 * - acknowledgement of /linen at 50 concurrent signed commands (mixed subcommands), p50 and p99, against a
 *   minimal Bolt app on the same HTTPReceiver that only acks (rounds of the two alternate, so both see the same
 *   machine);
 * - time to answer: for balance, signals, ticket, fillrate and help, one command at a time, the time from sending
 *   the command to its answer at response_url, divided by the sum of the API round trips the bot made for it
 *   (timed at the bot's own transport): what the bot adds on top of the API.
 *
 * As in production, the bot has its process's event loop to itself: the Linen API (the sandbox) runs in a child
 * process, the load generator (Slack) in a worker thread, the fake Slack Web API and response_url sinks in the
 * bot's thread (they only record). The load generator keeps its own cost out of the figures, as Slack's servers
 * are not on the bot's machine: it signs every body before the clock starts and sends with undici's `request`
 * over kept-alive connections (`fetch` cost it about 1 ms a request, on the same two cores as the bot).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { createLogger } from '../base/logging/logger.ts';
import { loadConfig } from '../service/config.ts';
import { startBot } from '../service/start.ts';
import type { AsyncTransport } from '../shared/index.ts';
import { createLinenClient, UndiciTransport } from '../shared/node.ts';
import { startFakeSlack } from '../test/support/slack-fake.ts';
import { commandBody, signature } from '../test/support/slack-sign.ts';
import { loadGenerator, type PreparedPost, percentile } from './load-generator.ts';
import { Results, ratioOf, round } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const SECRET = 'benchsigningsecret0123456789abcd';
const CONCURRENT = 50;

/** A command's form body with the headers Slack signs it with. */
function signed(body: string): PreparedPost {
  const ts = Math.floor(Date.now() / 1000);
  return {
    body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': signature(SECRET, ts, body),
    },
  };
}

/** The floor: Bolt's HTTPReceiver and a /linen listener that only acknowledges. */
async function startFloorApp(slackApiUrl: string): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const receiver = new HTTPReceiver({
    signingSecret: SECRET,
    endpoints: '/slack/events',
    processBeforeResponse: false,
  });
  const app = new App({
    token: 'xoxb-floor-token',
    receiver,
    logLevel: LogLevel.ERROR,
    clientOptions: { slackApiUrl },
  });
  app.command('/linen', async ({ ack }) => {
    await ack();
  });
  const server = (await app.start(0)) as Server;
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`, stop: () => app.stop() };
}

/** Times every API round trip the bot makes. */
function timedTransport() {
  const inner = new UndiciTransport();
  const calls: { path: string; ms: number }[] = [];
  const transport: AsyncTransport = {
    async request(req, opts) {
      const t = performance.now();
      const res = await inner.request(req, opts);
      calls.push({ path: new URL(req.url).pathname, ms: performance.now() - t });
      return res;
    },
    close: () => inner.close(),
  };
  return { transport, calls };
}

export async function benchSlack(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const sandbox = await startSandboxProcess({
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 1e9, windowMs: 60_000 },
  });
  const load = loadGenerator();
  const slack = await startFakeSlack();
  const timed = timedTransport();
  const config = loadConfig({
    SLACK_BOT_TOKEN: 'xoxb-bench-token',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    LINEN_BASE_URL: sandbox.baseUrl,
    LINEN_API_KEY: KEY,
    LINEN_TIMEZONE: TZ,
    PORT: '0',
  });
  const now = () => Date.parse(`${TODAY}T18:00:00.000Z`);
  const linenClient = createLinenClient({
    apiKey: KEY,
    baseUrl: sandbox.baseUrl,
    timeZone: TZ,
    transport: timed.transport,
    pacing: false,
    now,
  });
  const bot = await startBot(config, {
    logger: createLogger({ write: () => {} }),
    linenClient,
    host: '127.0.0.1',
    now,
  });
  const botUrl = `http://127.0.0.1:${bot.port}/slack/events`;
  const floor = await startFloorApp(slack.apiUrl);
  try {
    const mix = ['signals', 'ticket TKT-26-00417', 'balance', 'tickets', 'fillrate Harborview Hotel', 'help'];
    /** One burst of 50 commands; for the bot, waits until every answer has arrived before the next burst. */
    const burst = async (url: string, answers: boolean) => {
      const sinks = Array.from({ length: CONCURRENT }, () => slack.responseUrl());
      const bodies = sinks.map((sink, i) => commandBody({ text: mix[i % mix.length]!, responseUrl: sink.url }));
      const answered = answers ? sinks.map((sink) => slack.waitForPosts(sink.id, 1, 60_000)) : [];
      const acks = await load.send(url, bodies.map(signed));
      for (const a of acks) if (a.status !== 200) throw new Error(`ack ${a.status}`);
      await Promise.all(answered);
      return acks.map((a) => a.ms);
    };
    await burst(botUrl, true); // warm-up
    await burst(floor.url, false);
    const botAcks: number[] = [];
    const floorAcks: number[] = [];
    for (let i = 0; i < (options.quick ? 3 : 8); i++) {
      botAcks.push(...(await burst(botUrl, true)));
      floorAcks.push(...(await burst(floor.url, false)));
    }
    const [p50, p99, f50, f99] = [
      percentile(botAcks, 50),
      percentile(botAcks, 99),
      percentile(floorAcks, 50),
      percentile(floorAcks, 99),
    ];
    const n = botAcks.length;
    results.add({
      id: 'slack.ack_p50_ms',
      label: `Slack: acknowledgement p50, ${CONCURRENT} concurrent mixed /linen commands (${n}); baseline: an ack-only Bolt app`,
      value: round(p50),
      unit: 'ms',
      baseline: round(f50),
      ratio: ratioOf(p50, f50),
    });
    results.add({
      id: 'slack.ack_p99_ms',
      label: `Slack: acknowledgement p99, ${CONCURRENT} concurrent mixed /linen commands (${n}); baseline: an ack-only Bolt app`,
      value: round(p99),
      unit: 'ms',
      baseline: round(f99),
      ratio: ratioOf(p99, f99),
      target: '< 50 ms',
      met: p99 < 50,
    });
    results.add({
      id: 'slack.ack_floor_p99_ms',
      label: `Slack: acknowledgement p99 of the ack-only Bolt app (the floor), ${CONCURRENT} concurrent`,
      value: round(f99),
      unit: 'ms',
    });
    results.add({
      id: 'slack.ack_p99_over_floor',
      label: 'Slack: acknowledgement p99, the bot over the floor (difference in ms; ratio the bot / the floor)',
      value: round(p99 - f99),
      unit: 'ms',
      ratio: ratioOf(p99, f99),
      target: 'ratio <= 2',
      met: p99 <= 2 * f99,
    });

    // Time to answer, one command at a time.
    const samples = options.quick ? 3 : 7;
    for (const [name, text] of [
      ['balance', 'balance'],
      ['signals', 'signals'],
      ['ticket', 'ticket TKT-26-00417'],
      ['fillrate', 'fillrate Harborview Hotel'],
      ['help', 'help'],
    ] as const) {
      const answerMs: number[] = [];
      const apiMs: number[] = [];
      let requests = 0;
      for (let i = 0; i <= samples; i++) {
        const from = timed.calls.length;
        const sink = slack.responseUrl();
        const started = performance.now();
        const posted = slack.waitForPosts(sink.id, 1, 60_000);
        const [ack] = await load.send(botUrl, [signed(commandBody({ text, responseUrl: sink.url }))]);
        if (ack!.status !== 200) throw new Error(`ack ${ack!.status}`);
        await posted;
        if (i === 0) continue; // warm-up
        answerMs.push(performance.now() - started);
        const calls = timed.calls.slice(from);
        apiMs.push(calls.reduce((s, c) => s + c.ms, 0));
        requests = calls.length;
      }
      const answer = percentile(answerMs, 50);
      const api = percentile(apiMs, 50);
      results.add({
        id: `slack.answer_overhead.${name}`,
        label: `Slack: /linen ${text}, time to the answer at response_url (median; ${requests} API request${requests === 1 ? '' : 's'}); baseline: the sum of those API round trips`,
        value: round(answer),
        unit: 'ms',
        baseline: requests ? round(api) : null,
        ratio: requests ? ratioOf(answer, api) : null,
      });
    }
  } finally {
    await bot.stop();
    await floor.stop();
    await load.close();
    await slack.close();
    await sandbox.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchSlack(new Results(), { quick: process.argv.includes('--quick') });
  process.exit(0);
}
