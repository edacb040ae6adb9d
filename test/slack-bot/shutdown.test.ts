/**
 * Graceful shutdown with commands in flight: once stopping, the bot is not ready and takes no new request (the
 * connection is refused, or 503 on one still open), the commands already acknowledged are answered before the
 * store closes, and a command that cannot end within the drain does not hold the stop. `npm start` does the same
 * on SIGTERM and exits 0 within 20 s, its log one JSON object a line with LOG_FORMAT=json.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INTERIM_TEXT } from '../../chat/answers/answer-in-time.ts';
import {
  allText,
  BOT_TOKEN,
  type BotUnderTest,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  TZ,
} from '../support/slack-harness.ts';
import { commandBody, postSigned } from '../support/slack-sign.ts';

const KEY = 'lk_live_demo_all_access';
const NOT_ANSWERING = 'The Linen API is not answering right now';
let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 120_000);

afterEach(() => h.sandbox.faults.reset());

afterAll(async () => {
  await h?.close();
});

/**
 * A new command's fate once the bot is stopping: its connection refused, or closed unanswered (an idle kept-alive
 * one), or 503 on a connection still open.
 */
async function refused(bot: BotUnderTest): Promise<string> {
  return bot.command('help').then(
    (r) => `HTTP ${r.status}`,
    (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
  );
}

/** What a response_url received, the interim message aside. */
const answersTo = (sink: string) => h.slack.postsTo(sink).filter((p) => p.body.text !== INTERIM_TEXT);

describe('stop() with commands in flight', () => {
  it('answers the commands already acknowledged before it ends, and takes no new one', async () => {
    const bot = await h.startBotWith({}, { start: { digests: { worker: false } } });
    // Every request the commands make is answered 1.5 s late: they are all still under way when the stop begins.
    h.sandbox.faults.enqueue({ kind: 'latency', count: 50, ms: 1_500 });
    const sinks: string[] = [];
    for (const text of ['balance', 'invoices overdue', 'signals']) {
      const r = await bot.command(text);
      expect(r.status).toBe(200);
      sinks.push(r.sink);
    }
    const started = Date.now();
    const stopping = bot.stop();
    expect(await bot.bot.readiness.state()).toMatchObject({ ready: false, reason: 'shutting down' });
    expect(await refused(bot)).toMatch(/^(ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|HTTP 503)$/);
    expect(sinks.map((s) => answersTo(s).length)).toEqual([0, 0, 0]);
    await stopping;
    expect(Date.now() - started).toBeLessThan(15_000);
    // Answered before the stop ended, with the answers themselves.
    for (const sink of sinks) {
      const [answer] = answersTo(sink);
      expect(answer, sink).toBeDefined();
      expect(allText(answer!.body)).not.toContain(NOT_ANSWERING);
    }
    expect(allText(answersTo(sinks[2]!)[0]!.body)).toMatch(/signals/i);
    expect(bot.logs.join('\n')).not.toContain('still being answered');
  });

  it('does not wait past its drain for a command the API never answers', async () => {
    const bot = await h.startBotWith({}, { start: { digests: { worker: false }, drainMs: 500 } });
    h.sandbox.faults.enqueue({ kind: 'hang', count: 5 });
    const r = await bot.command('balance');
    expect(r.status).toBe(200);
    const started = Date.now();
    await bot.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    await bot.waitForLog(/stopped with 1 Slack request\(s\) still being answered/);
  });
});

describe('npm start and SIGTERM', () => {
  it('with a command in flight: answers it, exits 0 within 20 s; LOG_FORMAT=json lines throughout', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'linen-shutdown-'));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env))
      if (!/^(SLACK_|LINEN_|PORT$|DATABASE_URL$|LOG_FORMAT$)/.test(k)) env[k] = v;
    // As `npm start` runs it: one node process with tsx's loader, so the signal reaches the bot itself.
    const child = spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'service', 'index.ts')], {
      env: {
        ...env,
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: h.slack.apiUrl,
        LINEN_BASE_URL: h.sandbox.baseUrl,
        LINEN_API_KEY: KEY,
        LINEN_TIMEZONE: TZ,
        PORT: '0',
        BIND_ADDRESS: '127.0.0.1',
        LINEN_DATA_DIR: dataDir,
        LOG_FORMAT: 'json',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      await expect.poll(() => out, { timeout: 30_000 }).toMatch(/digests: worker .* started/);
      const port = /listening on port (\d+)/.exec(out)![1];
      h.sandbox.faults.enqueue({ kind: 'latency', count: 50, ms: 2_000 });
      const sink = h.slack.responseUrl();
      const ack = await postSigned(
        `http://127.0.0.1:${port}/slack/events`,
        SIGNING_SECRET,
        commandBody({ text: 'signals', responseUrl: sink.url }),
      );
      expect(ack.status).toBe(200);
      const signalled = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(20_000);
      const [answer] = answersTo(sink.id);
      expect(answer).toBeDefined();
      expect(allText(answer!.body)).not.toContain(NOT_ANSWERING);

      const lines = out.trimEnd().split('\n');
      const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(parsed.every((p) => typeof p.level === 'string' && typeof p.time === 'string')).toBe(true);
      const messages = parsed.map((p) => String(p.msg));
      expect(messages).toContain('stopping: no new requests; finishing the commands and digests under way');
      expect(messages.at(-1)).toBe('stopped');
      expect(parsed.filter((p) => p.level === 'error')).toEqual([]);
      expect(out).not.toContain(KEY);
      expect(out).not.toContain(BOT_TOKEN);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
