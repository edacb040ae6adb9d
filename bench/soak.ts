/**
 * `npm run soak [-- --minutes 10]`: the built bot (dist bundle, plain `node`) in its own process, the sandbox Linen
 * API in another, under signed `/linen` commands at about 5 a second for the whole run, with the sandbox's faults
 * switched on and off every 30 seconds, and a digest due every minute. Reports commands sent and answered,
 * unhandled rejections, the bot's resident memory after the first minute and at the end, and answer times.
 * Exits 1 when a requirement fails: an unanswered command, an unhandled rejection, a digest posted twice (or none
 * at all), memory growth of 10% or more after the first minute, or the bot gone. `SOAK_VERBOSE=1` echoes the
 * processes' output.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildService } from '../scripts/build-service.ts';
import { startFakeSlack } from '../test/support/slack-fake.ts';
import { commandBody, postSigned } from '../test/support/slack-sign.ts';

const KEY = 'lk_live_demo_all_access';
const TZ = 'America/Chicago';
const SECRET = 'soaksigningsecret0123456789abcdef';
const CHANNEL = 'C0SOAK';
const DIGEST_CHANNEL = 'C0SOAKDIGEST';
const PER_SECOND = 5;
/** Longest wait for the last answers once sending stops. */
const DRAIN_MS = 30_000;

/** A mix of what people type: most answers read the API, some are refused or ask for help. */
const COMMANDS = [
  'signals',
  'signals shortfall',
  'short',
  'balance',
  'invoices overdue',
  'po',
  'tickets',
  'ticket TKT-26-00417',
  'fillrate "Mercy General Hospital" 7',
  'rewash "Mercy General Hospital"',
  'help',
  'balance Nobody Such Customer',
  'digest list',
  'digest preview',
];

/** Sandbox faults, one phase every 30 s: each fault, then a quiet spell. */
const FAULT_PHASES: Record<string, number>[] = [
  {},
  { errorRate: 0.2 },
  {},
  { latencyMs: 1500 },
  {},
  { dropRate: 0.1 },
  {},
  { rateLimitBurstRate: 0.2 },
  {},
  { malformedRate: 0.1 },
];

function minutesArg(argv: readonly string[]): number {
  const i = argv.findIndex((a) => a === '--minutes' || a.startsWith('--minutes='));
  if (i < 0) return 10;
  const raw = argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 2 || n > 600)
    throw new Error(`--minutes must be a number from 2 to 600 (got "${raw}")`);
  return n;
}

/** A child process whose output is kept, line by line. */
function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const s of [child.stdout!, child.stderr!])
    s.setEncoding('utf8').on('data', (d: string) => {
      const got = d.split('\n').filter(Boolean);
      lines.push(...got);
      if (process.env.SOAK_VERBOSE)
        for (const l of got) console.log(`  ${cmd === process.execPath ? 'bot' : 'sandbox'}: ${l}`);
    });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const waitFor = async (re: RegExp, ms: number): Promise<RegExpExecArray> => {
    const until = Date.now() + ms;
    for (;;) {
      for (const l of lines) {
        const m = re.exec(l);
        if (m) return m;
      }
      if (child.exitCode !== null || Date.now() > until)
        throw new Error(`${cmd} ${args.join(' ')}: no line matching ${re}:\n${lines.slice(-20).join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, lines, exited, waitFor };
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

/** HH:MM in the org's timezone, `minutes` from now. */
function clockIn(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  return new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit', hour12: false }).format(
    at,
  );
}

async function main(): Promise<number> {
  const minutes = minutesArg(process.argv.slice(2));
  const work = mkdtempSync(join(tmpdir(), 'linen-soak-'));
  const bundle = await buildService({ outfile: join(work, 'bot', 'index.js') });
  const base = { ...process.env };
  for (const k of Object.keys(base)) if (/^(SLACK_|LINEN_|SANDBOX_|PORT$|DATABASE_URL$)/.test(k)) delete base[k];

  const sandbox = launch(join(process.cwd(), 'node_modules', '.bin', 'tsx'), ['sandbox/cli.ts'], {
    ...base,
    SANDBOX_PORT: '0',
    SANDBOX_TIMEZONE: TZ,
    SANDBOX_RATE_LIMIT: '1000000',
  });
  const sandboxUrl = (await sandbox.waitFor(/Base URL:\s+(\S+)/, 60_000))[1]!;
  const slack = await startFakeSlack();
  slack.channels.set(CHANNEL, { name: 'soak', member: true });
  slack.channels.set(DIGEST_CHANNEL, { name: 'soak-digests', member: true });

  // Unhandled rejections are reported (with a non-zero exit code at the end) instead of ending the process.
  const bot = launch(process.execPath, ['--unhandled-rejections=warn-with-error-code', bundle], {
    ...base,
    SLACK_BOT_TOKEN: 'xoxb-soak-token',
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
    LINEN_BASE_URL: sandboxUrl,
    LINEN_API_KEY: KEY,
    LINEN_TIMEZONE: TZ,
    LINEN_DATA_DIR: join(work, 'data'),
    PORT: '0',
  });
  const port = (await bot.waitFor(/listening on port (\d+)/, 60_000))[1]!;
  const url = `http://127.0.0.1:${port}/slack/events`;
  await bot.waitFor(/digests: worker .* started/, 30_000);
  console.log(`soak: bot (pid ${bot.child.pid}) on ${url}, sandbox on ${sandboxUrl}, ${minutes} min`);

  const sent: { sink: string; at: number; text: string }[] = []; // at: epoch ms, as the fake records answers
  const refused: string[] = [];
  const send = (text: string, channelId = CHANNEL) => {
    const sink = slack.responseUrl();
    sent.push({ sink: sink.id, at: Date.now(), text });
    return postSigned(url, SECRET, commandBody({ text, responseUrl: sink.url, channelId })).then(
      (r) => {
        if (r.status !== 200) refused.push(`${text}: HTTP ${r.status}`);
      },
      (e: unknown) => refused.push(`${text}: ${(e as Error).message}`),
    );
  };

  // A digest due every minute of the run: one daily subscription per minute, all-clear so none stays quiet.
  await Promise.all(
    Array.from({ length: minutes }, (_, i) =>
      send(`digest subscribe <#${DIGEST_CHANNEL}|x> ${clockIn(i + 1)} all-clear`),
    ),
  );

  const started = performance.now();
  const rss: { at: number; mb: number }[] = [];
  let phase = 0;
  let n = 0;
  const sender = setInterval(() => void send(COMMANDS[n++ % COMMANDS.length]!), 1000 / PER_SECOND);
  const sampler = setInterval(() => {
    if (bot.child.exitCode === null) rss.push({ at: performance.now() - started, mb: rssMb(bot.child) });
  }, 5_000);
  const faults = setInterval(() => {
    phase = (phase + 1) % FAULT_PHASES.length;
    void fetch(`${sandboxUrl.replace(/\/v1\/?$/, '')}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reset: true, ...FAULT_PHASES[phase] }),
    }).catch(() => {});
  }, 30_000);
  const progress = setInterval(() => {
    const m = Math.round((performance.now() - started) / 60_000);
    console.log(`soak: minute ${m} of ${minutes}, ${sent.length} commands sent, ${digestsPosted()} digests posted`);
  }, 60_000);
  const digestPosts = () =>
    slack.calls.filter((c) => c.method === 'chat.postMessage' && c.params.channel === DIGEST_CHANNEL);
  const digestsPosted = () => digestPosts().length;
  /** The run ids the digests carried in their metadata: each must appear once. */
  const runIds = () =>
    digestPosts().map((c) => {
      try {
        return String(
          (JSON.parse(String(c.params.metadata)) as { event_payload?: { run_id?: unknown } }).event_payload?.run_id,
        );
      } catch {
        return '';
      }
    });

  await new Promise((r) => setTimeout(r, minutes * 60_000));
  clearInterval(sender);
  clearInterval(faults);
  clearInterval(progress);
  const endRss = bot.child.exitCode === null ? rssMb(bot.child) : Number.NaN;
  clearInterval(sampler);

  // Let the last answers arrive (an answer that must wait out a fault takes a few seconds).
  const isFinal = (body: Record<string, unknown>) => !/^Looking that up/.test(String(body.text ?? ''));
  const answerOf = (sink: string) => slack.posts.find((p) => p.id === sink && isFinal(p.body));
  const drainUntil = Date.now() + DRAIN_MS;
  while (Date.now() < drainUntil && sent.some((s) => !answerOf(s.sink))) await new Promise((r) => setTimeout(r, 250));

  const times: number[] = [];
  const unanswered: string[] = [];
  for (const s of sent) {
    const a = answerOf(s.sink);
    if (a) times.push(a.at - s.at);
    else unanswered.push(s.text);
  }
  times.sort((a, b) => a - b);
  const unhandled = bot.lines.filter((l) => /Unhandled|unhandled error/i.test(l));
  const alive = bot.child.exitCode === null;
  const firstMinute = rss.find((r) => r.at >= 60_000)?.mb ?? Number.NaN;
  const growth = (endRss - firstMinute) / firstMinute;
  const digests = digestsPosted();
  const distinctRuns = new Set(runIds()).size;

  bot.child.kill('SIGTERM');
  const botExit = await bot.exited;
  sandbox.child.kill('SIGTERM');
  await sandbox.exited;
  await slack.close();
  rmSync(work, { recursive: true, force: true });

  const checks: [string, boolean][] = [
    [
      `commands answered: ${times.length} of ${sent.length} (refused at the door: ${refused.length})`,
      unanswered.length === 0 && refused.length === 0,
    ],
    [`unhandled rejections or listener errors in the bot's log: ${unhandled.length}`, unhandled.length === 0],
    // Commands at 5 a second ask more of the key than the API's 120 requests a minute: digests share that budget
    // and may be retried or given up (a figure), but one posted twice, or none at all, is a failure.
    [
      `digests posted: ${digests} of ${minutes} due, for ${distinctRuns} distinct runs (each at most once)`,
      digests > 0 && distinctRuns === digests,
    ],
    [
      `bot RSS: ${firstMinute.toFixed(1)} MB after minute 1, ${endRss.toFixed(1)} MB at the end (${(growth * 100).toFixed(1)}%; under 10%)`,
      growth < 0.1,
    ],
    [`bot running until stopped, then exited ${botExit} on SIGTERM`, alive && botExit === 0],
  ];
  console.log(`\nSoak: ${minutes} min, ${PER_SECOND} commands/s, ${cpus().length} cores, node ${process.version}`);
  console.log(
    `answer time: p50 ${pct(times, 50).toFixed(0)} ms, p99 ${pct(times, 99).toFixed(0)} ms, max ${(times.at(-1) ?? Number.NaN).toFixed(0)} ms`,
  );
  for (const [line, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${line}`);
  if (unanswered.length) console.log(`unanswered: ${[...new Set(unanswered)].join(', ')}`);
  for (const l of unhandled.slice(0, 5)) console.log(`bot: ${l}`);
  for (const r of refused.slice(0, 5)) console.log(`refused: ${r}`);
  return checks.every(([, ok]) => ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`soak: ${(err as Error)?.message ?? String(err)}`);
    process.exit(1);
  },
);
