/**
 * Several bot replicas (separate processes) on one PostgreSQL schema, all with the same Linen key, and a burst
 * of `/linen` commands spread across them; the sandbox enforces the rate limit behind a recording proxy. What
 * the API saw is the result: how many requests, how many answered 429, and how close to the ceiling they ran.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startSandbox } from '../../sandbox/index.ts';
import { dropSchema, freshSchema } from './digest-db.ts';
import { ceilingFraction, startRecordingProxy } from './recording-proxy.ts';
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
}

export interface SharedPacingResult {
  requests: number;
  rateLimited: number;
  /** Commands whose answer reached Slack, and those whose answer was the list of signals. */
  answered: number;
  signalAnswers: number;
  /** Achieved rate over the ceiling (`ceilingFraction`), and requests per window as the API counted them. */
  fraction: number;
  perWindow: number;
  seconds: number;
}

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
    const started = Date.now();
    const sinks = await Promise.all(
      Array.from({ length: run.commands }, async (_, i) => {
        const sink = slack.responseUrl();
        const body = commandBody({ text: run.text ?? 'signals', responseUrl: sink.url });
        const ack = await postSigned(`http://127.0.0.1:${ports[i % ports.length]}/slack/events`, SIGNING_SECRET, body);
        if (ack.status !== 200) throw new Error(`command ${i} was acknowledged with ${ack.status}`);
        return sink.id;
      }),
    );
    const answers = await Promise.all(sinks.map(async (id) => (await slack.waitForPosts(id, 1, 30 * 60_000))[0]!.body));
    const seconds = (Date.now() - started) / 1000;
    const times = proxy.answers.map((a) => a.at);
    let perWindow = 0;
    const sorted = [...times].sort((a, b) => a - b);
    for (let i = 0, j = 0; i < sorted.length; i++) {
      while (sorted[i]! - sorted[j]! >= run.windowMs) j++;
      perWindow = Math.max(perWindow, i - j + 1);
    }
    return {
      requests: proxy.answers.length,
      rateLimited: proxy.answers.filter((a) => a.status === 429).length,
      answered: answers.length,
      signalAnswers: answers.filter((a) => /inventory signal/.test(String(a.text))).length,
      fraction: ceilingFraction(times, run.limit, run.windowMs),
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
