/**
 * Scheduled posts as JSON (`slack-bot/digests/post-message.ts`) against a server on loopback: the body Slack gets,
 * the token only in the Authorization header and only to the client's own API URL, and every kind of answer read
 * into the error the engine classifies as it did the WebClient's (a rate limit with its Retry-After, a permanent
 * Slack error, an HTTP error or a cut connection that may hide a post).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Content, text, title } from '../../../chat/content/document.ts';
import { classifySlackError, slackDelivery } from '../../../slack-bot/digests/delivery.ts';
import { messageBody, postMessageJson } from '../../../slack-bot/digests/post-message.ts';
import { slackFetch } from '../../../slack-bot/slack-fetch.ts';
import { type LoopbackServer, sendJson, serveOnLoopback } from '../../support/loopback-http.ts';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: LoopbackServer;
let seen: Seen[];
let reply: (res: ServerResponse) => void;

beforeEach(async () => {
  seen = [];
  reply = (res) => sendJson(res, 200, { ok: true, channel: 'C1', ts: '1700000000.000100' });
  server = await serveOnLoopback((req, res, body) => {
    seen.push({ path: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
    reply(res);
  });
});

afterEach(() => server.close());

const client = () =>
  new WebClient('xoxb-json-test', {
    slackApiUrl: `${server.origin}/api`,
    fetch: slackFetch,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });

const META = { event_type: 'linen_digest', event_payload: { run_id: 'r1', subscription_id: 's1' } };
const BLOCKS = [{ type: 'section', text: { type: 'mrkdwn', text: '*Fill* “quoted” é' } }];

/** The failure the engine reads from what `postMessageJson` threw. */
async function failureOf(promise: Promise<unknown>) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).not.toBeNull();
  return classifySlackError(err);
}

describe('chat.postMessage as JSON', () => {
  it('sends the message as one JSON body, the token in the Authorization header only, and answers the ts', async () => {
    const body = messageBody('C1', 'Linen digest', JSON.stringify(BLOCKS), META);
    await expect(postMessageJson(client(), body)).resolves.toBe('1700000000.000100');
    expect(seen).toHaveLength(1);
    const [post] = seen;
    expect(post!.path).toBe('/api/chat.postMessage');
    expect(post!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(post!.headers.authorization).toBe('Bearer xoxb-json-test');
    expect(JSON.parse(post!.body)).toEqual({
      channel: 'C1',
      text: 'Linen digest',
      unfurl_links: false,
      unfurl_media: false,
      metadata: META,
      blocks: BLOCKS,
    });
    expect(post!.body).not.toContain('xoxb-json-test');
  });

  it('a digest posted through the delivery: rendered once, the same blocks to every channel of one build', async () => {
    const delivery = slackDelivery(client());
    const content: Content = {
      summary: ['Linen digest Thu 5 Nov: all clear.'],
      parts: [title('Linen digest Thu 5 Nov'), text(['Nothing open.'])],
    };
    await delivery.post('C1', content, { runId: 'r1', subscriptionId: 's1' });
    await delivery.post('C2', content, { runId: 'r2', subscriptionId: 's2' });
    const [a, b] = seen.map((s) => JSON.parse(s.body) as Record<string, unknown>);
    expect(a).toMatchObject({ channel: 'C1', metadata: { event_payload: { run_id: 'r1', subscription_id: 's1' } } });
    expect(b).toMatchObject({ channel: 'C2', metadata: { event_payload: { run_id: 'r2', subscription_id: 's2' } } });
    expect(b!.blocks).toEqual(a!.blocks);
    expect(b!.text).toBe(a!.text);
  });

  it('a 429 is a rate limit for as long as Retry-After says', async () => {
    reply = (res) => {
      res.writeHead(429, { 'retry-after': '7' });
      res.end();
    };
    expect(await failureOf(postMessageJson(client(), messageBody('C1', 't', '[]', META)))).toEqual({
      kind: 'ratelimited',
      code: 'ratelimited',
      retryAfterMs: 7000,
    });
  });

  it("Slack's error code: permanent where the channel will not take posts", async () => {
    reply = (res) => sendJson(res, 200, { ok: false, error: 'not_in_channel' });
    expect(await failureOf(postMessageJson(client(), messageBody('C1', 't', '[]', META)))).toEqual({
      kind: 'permanent',
      code: 'not_in_channel',
    });
  });

  it('a 500, an answer that is not JSON or a cut connection may hide a post: transient and unsure', async () => {
    const replies: ((res: ServerResponse) => void)[] = [
      (res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('upstream failed');
      },
      (res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>');
      },
      (res) => res.socket?.destroy(),
    ];
    for (const r of replies) {
      reply = r;
      expect(await failureOf(postMessageJson(client(), messageBody('C1', 't', '[]', META)))).toMatchObject({
        kind: 'transient',
        unsure: true,
      });
    }
  });
});
