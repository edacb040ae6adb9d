/**
 * Several bot replicas (separate processes) on one PostgreSQL schema, all with the same Linen key, and `/linen`
 * commands spread across them (a burst, or at a steady pace); the sandbox enforces the rate limit behind a
 * recording proxy. The result is what the API saw (how many requests, how many answered 429, when) and what
 * each person saw: the signals, the "busy" sentence, anything else, or nothing, and how long after sending.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startSandbox } from '../../sandbox/index.ts';
import { dropSchema, freshSchema } from './digest-db.ts';
import { startRecordingProxy } from './recording-proxy.ts';
import { startFakeSlack } from './slack-fake.ts';
import { BOT_TOKEN, SIGNING_SECRET, TODAY, TZ } from './slack-harness.ts';
import { commandBody, postSigned } from './slack-sign.ts';

const SCRIPT = fileURLToPath(new URL('./pacing-replica.ts', import.meta.url));
const KEY = 'lk_live_demo_all_access';

export interface SharedPacingRun {
  databaseUrl: string;
  replicas: number;
  commands: number;
  /** The limit the sandbox enforces and the bot paces under. */
  limit: number;
  windowMs: number;
  /** The command's text (default `signals`). */
  text?: string;
  /** Commands sent a minute, evenly, round-robin over the replicas (default: all at once). */
  commandsPerMinute?: number;
}

export interface SharedPacingResult {
  requests: number;
  rateLimited: number;
  /** Commands answered at their response_url, by what the answer said. */
  answered: number;
  signalAnswers: number;
  /** "The Linen API is busy (rate limited); try again in N seconds.": the key's budget had no slot in time. */
  busyAnswers: number;
  /** The text of every other answer (none expected), and how many commands got no answer within a minute. */
  otherAnswers: string[];
  silent: number;
  /** The longest any command waited, from its signed POST to its answer at response_url. */
  slowestAnswerMs: number;
  /** The period the commands were sent over (`commands` over `commandsPerMinute`; 0 for a burst). */
  sendingMs: number;
  /** The API's answers within that period, counted from the first command sent. */
  requestsWhileSending: number;
  /** The most requests the API answered within any one window. */
  perWindow: number;
  seconds: number;
}

const BUSY = /^The Linen API is busy \(rate limited\); try again in \d+ seconds?\.$/;
const SIGNALS = /inventory signal/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function startReplica(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) resolve({ child, port: Number(m[1]) });
    });
    child.once('exit', (code) => reject(new Error(`a replica exited with code ${code} before it was ready`)));
  });
}

function stopReplica(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function runSharedPacing(run: SharedPacingRun): Promise<SharedPacingResult> {
  const schema = freshSchema();
  const admin = new pg.Client({ connectionString: run.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(run.databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);

  const sandbox = await startSandbox({ port: 0, today: TODAY, timeZone: TZ, rateLimit: run });
  const proxy = await startRecordingProxy(sandbox.baseUrl);
  const slack = await startFakeSlack();
  const children: ChildProcess[] = [];
  try {
    const env = {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.apiUrl,
      LINEN_BASE_URL: proxy.baseUrl,
      LINEN_API_KEY: KEY,
      LINEN_TIMEZONE: TZ,
      DATABASE_URL: url.href,
      PORT: '0',
      PACING_LIMIT: String(run.limit),
      PACING_WINDOW_MS: String(run.windowMs),
    };
    // The first applies the migrations; the others then start together and find them done.
    const first = await startReplica(env);
    children.push(first.child);
    const rest = await Promise.all(
      Array.from({ length: run.replicas - 1 }, async () => {
        const r = await startReplica(env);
        children.push(r.child);
        return r;
      }),
    );
    const ports = [first, ...rest].map((r) => r.port);
    const sendingMs = run.commandsPerMinute ? (run.commands / run.commandsPerMinute) * 60_000 : 0;
    const everyMs = sendingMs / run.commands;
    const started = Date.now();
    const commands = Array.from({ length: run.commands }, async (_, i) => {
      await sleep(started + i * everyMs - Date.now());
      const sink = slack.responseUrl();
      const body = commandBody({ text: run.text ?? 'signals', responseUrl: sink.url });
      const sentAt = Date.now();
      const ack = await postSigned(`http://127.0.0.1:${ports[i % ports.length]}/slack/events`, SIGNING_SECRET, body);
      if (ack.status !== 200) throw new Error(`command ${i} was acknowledged with ${ack.status}`);
      // Every command is answered well within a minute (its deadline is 15 s); past that it counts as silent.
      const post = await slack.waitForPosts(sink.id, 1, 60_000).then(
        (posts) => posts[0]!,
        () => undefined,
      );
      return post && { text: String(post.body.text), ms: post.at - sentAt };
    });
    const answers = await Promise.all(commands);
    const seconds = (Date.now() - started) / 1000;
    const given = answers.filter((a) => a !== undefined);
    const sorted = proxy.answers.map((a) => a.at).sort((a, b) => a - b);
    let perWindow = 0;
    for (let i = 0, j = 0; i < sorted.length; i++) {
      while (sorted[i]! - sorted[j]! >= run.windowMs) j++;
      perWindow = Math.max(perWindow, i - j + 1);
    }
    return {
      requests: proxy.answers.length,
      rateLimited: proxy.answers.filter((a) => a.status === 429).length,
      answered: given.length,
      signalAnswers: given.filter((a) => SIGNALS.test(a.text)).length,
      busyAnswers: given.filter((a) => BUSY.test(a.text)).length,
      otherAnswers: given.filter((a) => !SIGNALS.test(a.text) && !BUSY.test(a.text)).map((a) => a.text),
      silent: answers.length - given.length,
      slowestAnswerMs: Math.max(0, ...given.map((a) => a.ms)),
      sendingMs,
      requestsWhileSending: sorted.filter((at) => at >= started && at < started + sendingMs).length,
      perWindow,
      seconds,
    };
  } finally {
    await Promise.all(children.map(stopReplica));
    await slack.close();
    await proxy.close();
    await sandbox.close();
    await dropSchema(run.databaseUrl, schema);
  }
}
