/**
 * The bot in Socket Mode: SLACK_APP_TOKEN set, the fake Web API answering apps.connections.open with the URL of
 * a fake Socket Mode endpoint on loopback, envelopes sent as Slack sends them and their acknowledgements
 * checked on the socket; answers still go through response_url.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allText,
  BOT_TOKEN,
  type BotUnderTest,
  buttons,
  type Harness,
  startHarness,
} from '../support/slack-harness.ts';
import { blockActionsBody, commandBody } from '../support/slack-sign.ts';
import { type FakeSocketMode, startFakeSocketMode } from '../support/slack-socket-fake.ts';

const APP_TOKEN = 'xapp-1-A0LINEN-2222-socketmodetesttoken';
const API_KEY = 'lk_live_demo_all_access';

let h: Harness;
let ws: FakeSocketMode;
let bot: BotUnderTest;
let nextEnvelope = 0;
const envelopeId = () => `env-${String(++nextEnvelope).padStart(4, '0')}-5f1e`;

/** A `/linen <text>` envelope: the payload is the slash command's fields, as JSON. */
function commandEnvelope(text: string, responseUrl: string) {
  const payload = Object.fromEntries(new URLSearchParams(commandBody({ text, responseUrl })));
  return { envelope_id: envelopeId(), type: 'slash_commands' as const, payload, accepts_response_payload: true };
}

/** A block_actions envelope for a button click. */
function clickEnvelope(actionId: string, value: string, responseUrl: string, userId?: string) {
  const form = new URLSearchParams(blockActionsBody({ actionId, value, responseUrl, ...(userId ? { userId } : {}) }));
  const payload = JSON.parse(form.get('payload')!) as Record<string, unknown>;
  return { envelope_id: envelopeId(), type: 'interactive' as const, payload, accepts_response_payload: false };
}

beforeAll(async () => {
  h = await startHarness();
  ws = await startFakeSocketMode();
  h.slack.setSocketModeUrl(ws.url);
  // The bot is started only once Slack said hello on the socket.
  const starting = h.startBotWith({ SLACK_APP_TOKEN: APP_TOKEN, SLACK_SIGNING_SECRET: undefined });
  // The harness opens the (shared, in-memory) digest store first, which takes a few seconds.
  await ws.waitForConnection(15_000).catch((err: Error) => {
    const opened = h.slack.calls.filter((c) => c.method === 'apps.connections.open').length;
    throw new Error(`${err.message} (apps.connections.open calls on the fake Web API: ${opened})`);
  });
  ws.send({
    type: 'hello',
    num_connections: 1,
    debug_info: { host: 'applink-fake', approximate_connection_time: 18060 },
    connection_info: { app_id: 'A0LINEN' },
  });
  bot = await starting;
}, 25_000);

afterAll(async () => {
  await h?.close();
  await ws?.close();
});

describe('/linen in Socket Mode', () => {
  it('opens the connection with the app-level token, against SLACK_API_URL', () => {
    expect(bot.bot.mode).toBe('socket');
    const open = h.slack.calls.filter((c) => c.method === 'apps.connections.open');
    expect(open).toHaveLength(1);
    expect(open[0]!.authorization).toBe(`Bearer ${APP_TOKEN}`);
  });

  it('serves GET /healthz beside the socket', async () => {
    expect(bot.bot.port).toBeGreaterThan(0);
    const res = await fetch(`http://127.0.0.1:${bot.bot.port}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, linen_key_configured: true });
  });

  it('serves GET /readyz there too (ready once connected), and nothing else', async () => {
    const ready = await fetch(`http://127.0.0.1:${bot.bot.port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { store: 'ok', slack: 'ok' } });
    expect((await fetch(`http://127.0.0.1:${bot.bot.port}/slack/events`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${bot.bot.port}/readyz`, { method: 'POST' })).status).toBe(404);
  });

  it('serves /healthz on BIND_ADDRESS only', () => {
    expect(bot.bot.address).toBe('127.0.0.1');
  });

  it('acknowledges a /linen ticket envelope on the socket within 3 s and answers through response_url', async () => {
    const t = h.sandbox.data.tickets.find((x) => x.ticket_number === 'TKT-26-00417')!;
    const sink = h.slack.responseUrl();
    const env = commandEnvelope('ticket TKT-26-00417', sink.url);
    const sent = ws.sendEnvelope(env);
    const ack = await ws.waitForAck(env.envelope_id, 3_000);
    expect(ack.at - sent).toBeLessThan(3_000);
    // An empty acknowledgement: the answer is not put in the ack, it goes to response_url.
    expect(ack.data).toEqual({ envelope_id: env.envelope_id, payload: {} });

    const [answer] = await h.slack.waitForPosts(sink.id, 1, 10_000);
    const m = answer!.body;
    expect(m.response_type).toBe('ephemeral');
    expect(m.blocks[0].text.text).toBe(`TKT-26-00417: ${t.subject}`);
    expect(allText(m)).toContain(t.status_label);
    expect(buttons(m).some((b) => b.actionId === 'linen_share')).toBe(true);
    expect(h.problems).toEqual([]);
  });

  it('acknowledges an interactive envelope (Share in channel) and shares the answer', async () => {
    const ask = h.slack.responseUrl();
    const cmd = commandEnvelope('ticket TKT-26-00417', ask.url);
    ws.sendEnvelope(cmd);
    await ws.waitForAck(cmd.envelope_id);
    const [first] = await h.slack.waitForPosts(ask.id, 1, 10_000);
    const share = buttons(first!.body).find((b) => b.actionId === 'linen_share')!;

    const sink = h.slack.responseUrl();
    const env = clickEnvelope(share.actionId, share.value, sink.url, 'U0SHARER');
    const sent = ws.sendEnvelope(env);
    const ack = await ws.waitForAck(env.envelope_id, 3_000);
    expect(ack.at - sent).toBeLessThan(3_000);
    expect(ack.data).toEqual({ envelope_id: env.envelope_id, payload: {} });

    const [posted, deleted] = await h.slack.waitForPosts(sink.id, 2, 10_000);
    expect(posted!.body.response_type).toBe('in_channel');
    expect(posted!.body.text).toBe(first!.body.text);
    expect(allText(posted!.body)).toContain('Shared by <@U0SHARER>');
    expect(deleted!.body).toEqual({ delete_original: true });
    expect(h.problems).toEqual([]);
  });

  it('reconnects after a disconnect message: a new URL, hello, and envelopes are served again', async () => {
    ws.send({ type: 'disconnect', reason: 'refresh_requested', debug_info: { host: 'applink-fake' } });
    expect(await ws.waitForClose(3_000)).toBe(1000);
    // The client waits (its ping timeout, 5 s by default) before it asks for a new URL.
    await ws.waitForConnection(9_000);
    expect(h.slack.calls.filter((c) => c.method === 'apps.connections.open')).toHaveLength(2);
    ws.send({ type: 'hello', num_connections: 1 });

    const sink = h.slack.responseUrl();
    const env = commandEnvelope('help', sink.url);
    ws.sendEnvelope(env);
    await ws.waitForAck(env.envelope_id, 3_000);
    const [answer] = await h.slack.waitForPosts(sink.id, 1, 10_000);
    expect(allText(answer!.body)).toContain('ticket &lt;TKT-YY-#####&gt;');
  }, 15_000);

  it('logs no secret: neither the app-level token, the bot token nor the Linen key', () => {
    const text = bot.logs.join('\n');
    expect(bot.logs.some((l) => l.includes('connected to Slack in Socket Mode'))).toBe(true);
    for (const secret of [APP_TOKEN, BOT_TOKEN, API_KEY, ...h.sandbox.data.keys.map((k) => k.secret)])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/xapp-[A-Za-z0-9]/);
    expect(text).not.toMatch(/xox[abposr]-[A-Za-z0-9]/);
  });

  it('stops cleanly: closes the socket with a normal closure and the health endpoint', async () => {
    const closed = ws.waitForClose(5_000);
    await bot.stop();
    expect(await closed).toBe(1000);
    await expect(fetch(`http://127.0.0.1:${bot.bot.port}/healthz`)).rejects.toThrow();
  });
});
