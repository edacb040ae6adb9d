/**
 * Several bot replicas (separate processes) on one PostgreSQL schema, all with the same Linen key, and `/linen`
 * commands spread across them (a burst, or at a steady pace); the sandbox enforces the rate limit behind a
 * recording proxy. The result is what the API saw (how many requests, to which paths, how many answered 429,
 * when) and what each person saw: the fill rate, the "busy" sentence, anything else, or nothing, and how long
 * after sending.
 *
 * Every command asks a question of its own (`distinctQuestions`): the bot sends a request once for all who ask
 * the same thing at the same time and reuses answers for a while, so a burst of one command would cost a request
 * per replica and never meet the key's limit.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type SandboxData, startSandbox } from '../../sandbox/index.ts';
import { BULK_LIMIT } from '../../shared/core/walk.ts';
import { addDays } from '../../shared/dates.ts';
import { dropSchema, freshSchema } from './digest-db.ts';
import { startReadyProcess, stopProcess } from './ready-process.ts';
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
  /** Commands sent a minute, evenly, round-robin over the replicas (default: all at once). */
  commandsPerMinute?: number;
}

export interface SharedPacingResult {
  /** Different command texts sent (one per command: each its own customer and window). */
  questions: number;
  requests: number;
  /** The requests the API received, by path below `/v1` (429s included). */
  requestsByPath: Record<string, number>;
  rateLimited: number;
  /** Commands answered at their response_url, by what the answer said. */
  answered: number;
  /** "Fill rate for <customer>: ...": the command's report. */
  dataAnswers: number;
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
const FILL_RATE = /^Fill rate for /;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * `count` `/linen fillrate` questions, no two alike: the sandbox's customers that are not groups in turn, each
 * asked about a window ending a day further back than its previous one (the first ends the day before "today"),
 * 1 to 7 days long and shortened while it holds more delivery rows than one page of the client's walk. Each is
 * then one `/deliveries/daily` request with its own `customer_id`, `from` and `to`: no other command's request in
 * flight or kept answer can serve it. The customers list, which resolves the name, is the same for all: listed
 * once per replica and then kept.
 */
function distinctQuestions(data: SandboxData, count: number): string[] {
  const customers = data.customers.filter((c) => !c.is_group);
  const rows = new Map<string, number>();
  for (const r of data.daily_deliveries) {
    const id = `${r.customer_id} ${r.date}`;
    rows.set(id, (rows.get(id) ?? 0) + 1);
  }
  const rowsIn = (customerId: string, from: string, days: number) =>
    Array.from({ length: days }, (_, d) => rows.get(`${customerId} ${addDays(from, d)}`) ?? 0).reduce(
      (a, b) => a + b,
      0,
    );
  return Array.from({ length: count }, (_, i) => {
    const customer = customers[i % customers.length]!;
    const k = Math.floor(i / customers.length);
    const to = addDays(TODAY, -1 - k);
    let days = 1 + (k % 7);
    while (days > 1 && rowsIn(customer.id, addDays(to, 1 - days), days) > BULK_LIMIT) days--;
    return `fillrate "${customer.name}" ${addDays(to, 1 - days)} ${to}`;
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
  const questions = distinctQuestions(sandbox.data, run.commands);
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
    const first = await startReadyProcess(SCRIPT, env);
    children.push(first.child);
    const rest = await Promise.all(
      Array.from({ length: run.replicas - 1 }, async () => {
        const r = await startReadyProcess(SCRIPT, env);
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
      const body = commandBody({ text: questions[i]!, responseUrl: sink.url });
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
    const requestsByPath: Record<string, number> = {};
    for (const { path } of sandbox.requests.entries) {
      const below = path.replace(/^\/v1/, '');
      requestsByPath[below] = (requestsByPath[below] ?? 0) + 1;
    }
    return {
      questions: new Set(questions).size,
      requests: proxy.answers.length,
      requestsByPath,
      rateLimited: proxy.answers.filter((a) => a.status === 429).length,
      answered: given.length,
      dataAnswers: given.filter((a) => FILL_RATE.test(a.text)).length,
      busyAnswers: given.filter((a) => BUSY.test(a.text)).length,
      otherAnswers: given.filter((a) => !FILL_RATE.test(a.text) && !BUSY.test(a.text)).map((a) => a.text),
      silent: answers.length - given.length,
      slowestAnswerMs: Math.max(0, ...given.map((a) => a.ms)),
      sendingMs,
      requestsWhileSending: sorted.filter((at) => at >= started && at < started + sendingMs).length,
      perWindow,
      seconds,
    };
  } finally {
    await Promise.all(children.map(stopProcess));
    await slack.close();
    await proxy.close();
    await sandbox.close();
    await dropSchema(run.databaseUrl, schema);
  }
}
