/**
 * Slack bot figures: acknowledgement latency of /linen at 50 concurrent commands (signed, over loopback,
 * through Bolt's HTTP receiver), the time until the answer reaches response_url, and how many list
 * requests `/linen ticket TKT-26-00417` costs.
 *
 * As in production, the bot has its process's event loop to itself: the Linen API (the sandbox) and the
 * load generator (Slack) run in worker threads, the fake Slack Web API and response_url sink in the bot's
 * thread (they only record).
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createLinenClient } from '../shared/node.ts';
import { startBot } from '../slack-bot/app.ts';
import { loadConfig } from '../slack-bot/config.ts';
import { createLogger } from '../slack-bot/logger.ts';
import { startFakeSlack } from '../test/support/slack-fake.ts';
import { countingTransport } from '../test/support/slack-harness.ts';
import { commandBody, postSigned } from '../test/support/slack-sign.ts';
import { startWorkerSandbox } from '../test/support/worker-sandbox.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const SECRET = 'benchsigningsecret0123456789abcd';

/** Sends form bodies concurrently, signed as Slack does, and returns each acknowledgement time. */
const LOAD_WORKER = `
const { parentPort } = require('node:worker_threads');
const { createHmac } = require('node:crypto');
const { performance } = require('node:perf_hooks');
parentPort.on('message', async ({ url, secret, bodies }) => {
  const results = await Promise.all(bodies.map(async (body) => {
    const ts = Math.floor(Date.now() / 1000);
    const sig = 'v0=' + createHmac('sha256', secret).update('v0:' + ts + ':' + body).digest('hex');
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-slack-request-timestamp': String(ts), 'x-slack-signature': sig }, body });
    await res.text();
    return { status: res.status, ms: performance.now() - t };
  }));
  parentPort.postMessage(results);
});
`;

function loadGenerator() {
  const worker = new Worker(LOAD_WORKER, { eval: true });
  worker.setMaxListeners(0);
  return {
    send: (url: string, secret: string, bodies: string[]) =>
      new Promise<{ status: number; ms: number }[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ url, secret, bodies });
      }),
    close: () => worker.terminate(),
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

export async function benchSlack(record: (name: string, value: string) => void): Promise<void> {
  const sandbox = await startWorkerSandbox({ today: TODAY, timeZone: TZ, rateLimit: { limit: 1e9, windowMs: 60_000 } });
  const load = loadGenerator();
  const slack = await startFakeSlack();
  const counting = countingTransport();
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
    transport: counting.transport,
    pacing: false,
    now,
  });
  const bot = await startBot(config, {
    logger: createLogger({ write: () => {} }),
    linenClient,
    host: '127.0.0.1',
    now,
  });
  const url = `http://127.0.0.1:${bot.port}/slack/events`;
  try {
    const texts = ['signals', 'ticket TKT-26-00417', 'balance', 'tickets', 'fillrate Harborview Hotel', 'help'];
    const round = async (texts: string[]) => {
      const sinks = Array.from({ length: 50 }, () => slack.responseUrl());
      const bodies = sinks.map((sink, i) => commandBody({ text: texts[i % texts.length]!, responseUrl: sink.url }));
      const started = performance.now();
      const answered = sinks.map((sink) =>
        slack.waitForPosts(sink.id, 1, 60_000).then(() => performance.now() - started),
      );
      const acks = await load.send(url, SECRET, bodies);
      for (const a of acks) if (a.status !== 200) throw new Error(`ack ${a.status}`);
      const answers = await Promise.all(answered);
      return acks.map((a, i) => ({ ack: a.ms, answer: answers[i]! }));
    };
    const measure = async (label: string, mix: string[]) => {
      await round(mix); // warm-up
      const acks: number[] = [];
      const answers: number[] = [];
      for (let i = 0; i < 6; i++) {
        for (const r of await round(mix)) {
          acks.push(r.ack);
          answers.push(r.answer);
        }
      }
      acks.sort((a, b) => a - b);
      answers.sort((a, b) => a - b);
      record(`slack: ack, 50 concurrent ${label} (300 commands)`, `p50 ${ms(pct(acks, 50))}, p99 ${ms(pct(acks, 99))}`);
      record(
        `slack: answer at response_url, 50 concurrent ${label}`,
        `p50 ${ms(pct(answers, 50))}, p99 ${ms(pct(answers, 99))}`,
      );
    };
    await measure('/linen help', ['help']);
    await measure('mixed /linen commands', texts);

    const before = counting.paths.length;
    const sink = slack.responseUrl();
    await postSigned(url, SECRET, commandBody({ text: 'ticket TKT-26-00417', responseUrl: sink.url }));
    const [answer] = await slack.waitForPosts(sink.id);
    if (!String(answer!.body.text).startsWith('TKT-26-00417'))
      throw new Error(`ticket not found: ${answer!.body.text}`);
    const lists = counting.paths.slice(before).filter((p) => p.endsWith('/quality-tickets')).length;
    const tickets = sandbox.data.tickets.filter((t) => t.ticket_number.startsWith('TKT-26')).length;
    record('slack: /linen ticket TKT-26-00417 list requests', `${lists} (of ${tickets} tickets in 2026)`);
  } finally {
    await bot.stop();
    await load.close();
    await slack.close();
    await sandbox.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchSlack((name, value) => console.log(`${name.padEnd(64)} ${value}`));
}
