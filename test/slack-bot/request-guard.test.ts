/**
 * Slack request verification in HTTP mode, against the real receiver: a signed request whose timestamp is
 * more than 5 minutes away from now, either way, and a body over the size limit are refused before anything is
 * done; the bot's HTTP server (probes included) listens on BIND_ADDRESS.
 */
import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../base/logging/logger.ts';
import { MAX_WAIT_MS } from '../../base/pending-acks.ts';
import { openPglite } from '../../base/store/pglite.ts';
import { loadConfig } from '../../service/config.ts';
import { startBot } from '../../service/start.ts';
import { migrateServiceDatabase } from '../../service/store.ts';
import { createLinenClient } from '../../shared/node.ts';
import { MAX_BODY_BYTES } from '../../slack-bot/request-guard.ts';
import { useHttpBot } from '../support/http-bot-suite.ts';
import { BOT_TOKEN, SIGNING_SECRET, TZ } from '../support/slack-harness.ts';
import { commandBody, postSigned, signature } from '../support/slack-sign.ts';

const suite = useHttpBot();

const nowS = () => Math.floor(Date.now() / 1000);

/** A signed `/linen balance` posted with `timestamp`; its status and whether the command did anything. */
async function commandAt(timestamp: number, text = 'balance') {
  const sink = suite.h.slack.responseUrl();
  const linesBefore = suite.bot.logs.length;
  const r = await postSigned(suite.bot.url, SIGNING_SECRET, commandBody({ text, responseUrl: sink.url }), {
    timestamp,
  });
  return { status: r.status, body: r.body, sink: sink.id, logs: () => suite.bot.logs.slice(linesBefore) };
}

/** Nothing reached the command: no answer, no request to the Linen API. */
async function expectNothingDone(sink: string, pathsBefore: number) {
  // A command that got through would be answered; a later, accepted command's answer proves the wait was long enough.
  const probe = await commandAt(nowS(), 'help');
  expect(probe.status).toBe(200);
  await suite.h.slack.waitForPosts(probe.sink, 1);
  expect(suite.h.slack.postsTo(sink)).toEqual([]);
  expect(suite.bot.paths.length).toBe(pathsBefore);
}

describe('request verification', () => {
  it('refuses a signed request stamped more than 5 minutes in the future: 401, nothing done', async () => {
    const pathsBefore = suite.bot.paths.length;
    const r = await commandAt(nowS() + 6 * 60);
    expect(r.status).toBe(401);
    expect(r.body).toBe('');
    expect(r.logs().join('\n')).toContain('a timestamp more than 5 minutes in the future');
    await expectNothingDone(r.sink, pathsBefore);
  });

  it('refuses a signed request stamped more than 5 minutes in the past: 401, nothing done', async () => {
    const pathsBefore = suite.bot.paths.length;
    const r = await commandAt(nowS() - 6 * 60);
    expect(r.status).toBe(401);
    await expectNothingDone(r.sink, pathsBefore);
  });

  it('accepts a request stamped within 5 minutes, ahead or behind', async () => {
    for (const skew of [4 * 60, -4 * 60]) {
      const r = await commandAt(nowS() + skew, 'help');
      expect(r.status).toBe(200);
      await suite.h.slack.waitForPosts(r.sink, 1);
    }
  });

  it('refuses a body whose declared length is over the limit before reading it: 413, nothing done', async () => {
    const pathsBefore = suite.bot.paths.length;
    const sink = suite.h.slack.responseUrl();
    const body = commandBody({ text: `balance ${'x'.repeat(MAX_BODY_BYTES)}`, responseUrl: sink.url });
    const r = await postSigned(suite.bot.url, SIGNING_SECRET, body);
    expect(r.status).toBe(413);
    expect(suite.bot.logs.join('\n')).toMatch(/refused a request to \/slack\/events: a body of \d+ bytes/);
    await expectNothingDone(sink.id, pathsBefore);
  });

  it('refuses a body sent without a length once it passes the limit: 413, nothing done', async () => {
    const pathsBefore = suite.bot.paths.length;
    const sink = suite.h.slack.responseUrl();
    const body = commandBody({ text: `balance ${'x'.repeat(MAX_BODY_BYTES)}`, responseUrl: sink.url });
    const ts = nowS();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(suite.bot.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'transfer-encoding': 'chunked',
          'x-slack-request-timestamp': String(ts),
          'x-slack-signature': signature(SIGNING_SECRET, ts, body),
        },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < body.length; i += 16_384) req.write(body.slice(i, i + 16_384));
      req.end();
    });
    expect(status).toBe(413);
    await expectNothingDone(sink.id, pathsBefore);
  });

  it('accepts a command just under the limit', async () => {
    const sink = suite.h.slack.responseUrl();
    const base = commandBody({ text: '', responseUrl: sink.url }).length;
    const body = commandBody({ text: `help ${'x'.repeat(MAX_BODY_BYTES - base - 100)}`, responseUrl: sink.url });
    expect(body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
    const r = await postSigned(suite.bot.url, SIGNING_SECRET, body);
    expect(r.status).toBe(200);
    await suite.h.slack.waitForPosts(sink.id, 1);
  });
});

describe('acknowledgements first', () => {
  it("a command is answered only once every request received before its answer's work began is answered", async () => {
    // A request whose body is still arriving: the server has read its headers (it said 100 Continue).
    const held = request(suite.bot.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '64', expect: '100-continue' },
    });
    const heldAnswer = new Promise<number>((resolve, reject) => {
      held.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      held.on('error', reject);
    });
    await new Promise<void>((resolve) => held.once('continue', resolve));
    held.write('command=%2Flinen');

    const sink = suite.h.slack.responseUrl();
    const r = await postSigned(suite.bot.url, SIGNING_SECRET, commandBody({ text: 'help', responseUrl: sink.url }));
    expect(r.status).toBe(200);
    // Acknowledged at once; its answer waits for the request before it (at most MAX_WAIT_MS).
    await new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS / 5));
    expect(suite.h.slack.postsTo(sink.id)).toEqual([]);
    held.end('x'.repeat(64 - 'command=%2Flinen'.length));
    expect(await heldAnswer).toBe(401); // unsigned
    await suite.h.slack.waitForPosts(sink.id, 1);
  });
});

describe('listen address', () => {
  it('listens on BIND_ADDRESS', () => {
    expect(suite.bot.bot.address).toBe('127.0.0.1');
  });

  it("an address that is not this machine's stops start-up with one line naming it, and closes what it opened", async () => {
    const env = {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: suite.h.slack.apiUrl,
      LINEN_BASE_URL: suite.h.sandbox.baseUrl,
      LINEN_API_KEY: 'lk_live_demo_all_access',
      LINEN_TIMEZONE: TZ,
      PORT: '0',
      BIND_ADDRESS: '203.0.113.7',
    };
    const client = createLinenClient({ apiKey: env.LINEN_API_KEY, baseUrl: suite.h.sandbox.baseUrl, timeZone: TZ });
    // The client is frozen: a child object with its own close tells whether start-up closed it.
    const clientClosed = vi.fn(() => client.close());
    const linenClient = Object.create(client, { close: { value: clientClosed } }) as typeof client;
    const database = await migrateServiceDatabase(await openPglite());
    try {
      await expect(
        startBot(loadConfig(env), {
          linenClient,
          database,
          digests: { worker: false },
          logger: createLogger({ write: () => {} }),
        }),
      ).rejects.toThrow(/^cannot listen on 203\.0\.113\.7 port 0 \(EADDRNOTAVAIL\): check BIND_ADDRESS and PORT\.$/);
      expect(clientClosed).toHaveBeenCalled();
    } finally {
      await database.close();
    }
  });

  it('listens on all interfaces without it', async () => {
    const open = await suite.h.startBotWith({ BIND_ADDRESS: undefined }, { start: { digests: { worker: false } } });
    try {
      expect(['::', '0.0.0.0']).toContain(open.bot.address);
    } finally {
      await open.stop();
    }
  });
});
