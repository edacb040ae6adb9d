/**
 * The bot's Slack Web API transport under the real WebClient, against a server on loopback: what the client sends,
 * how it reads answers of every kind (JSON, HTTP errors, 429 with Retry-After, a redirect, a cut connection), and
 * that a file's bytes still go out as multipart.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ErrorCode, WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { slackFetch } from '../../slack-bot/slack-fetch.ts';

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Reply = (req: IncomingMessage, res: import('node:http').ServerResponse) => void;

let server: Server;
let seen: Seen[];
let reply: Reply;
let base: string;

beforeEach(async () => {
  seen = [];
  reply = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: true, channel: 'C1', ts: '1.000001' }));
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('latin1') });
      reply(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const client = () =>
  new WebClient('xoxb-fetch-test', {
    slackApiUrl: `${base}/api/`,
    fetch: slackFetch,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    logLevel: 'error' as never,
  });

describe('the Slack Web API transport', () => {
  it('posts the form with the bearer token and reads the JSON answer and its headers', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-oauth-scopes': 'chat:write,commands' });
      res.end(JSON.stringify({ ok: true, channel: 'C1', ts: '1.000001', message: { text: 'é ✓' } }));
    };
    const result = await client().chat.postMessage({ channel: 'C1', text: 'fill rate 97% ✓', blocks: [] });
    expect(result.ts).toBe('1.000001');
    expect(result.message?.text).toBe('é ✓');
    expect(result.response_metadata?.scopes).toEqual(['chat:write', 'commands']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe('/api/chat.postMessage');
    expect(seen[0]!.headers.authorization).toBe('Bearer xoxb-fetch-test');
    expect(seen[0]!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(Buffer.from(seen[0]!.body, 'latin1').toString('utf8'));
    expect(form.get('text')).toBe('fill rate 97% ✓');
    expect(form.get('blocks')).toBe('[]');
  });

  it('turns an error answer into the platform error, and a non-200 into an HTTP error with its body', async () => {
    reply = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'not_in_channel' }));
    };
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.PlatformError,
      data: { error: 'not_in_channel' },
    });
    reply = (_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain', 'x-slack-req-id': 'r1' });
      res.end('upstream trouble');
    };
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.HTTPError,
      statusCode: 503,
      body: 'upstream trouble',
      headers: expect.objectContaining({ 'x-slack-req-id': 'r1' }),
    });
  });

  it('reports a 429 with its Retry-After', async () => {
    reply = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end(JSON.stringify({ ok: false, error: 'ratelimited' }));
    };
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 7,
    });
  });

  it('does not follow a redirect (the token stays with the Slack API origin)', async () => {
    reply = (_req, res) => {
      res.writeHead(302, { location: `${base}/elsewhere` });
      res.end();
    };
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.HTTPError,
      statusCode: 302,
    });
    expect(seen.map((s) => s.path)).toEqual(['/api/chat.postMessage']);
  });

  it('reports a connection cut before any answer as a request error', async () => {
    reply = (req) => req.socket.destroy();
    await expect(client().chat.postMessage({ channel: 'C1', text: 'x' })).rejects.toMatchObject({
      code: ErrorCode.RequestError,
    });
  });

  it("sends a file's bytes as multipart", async () => {
    await client().apiCall('files.upload', { channels: 'C1', file: Buffer.from('%PDF-1.7 bytes'), filename: 'a.pdf' });
    expect(seen[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0]!.body).toContain('%PDF-1.7 bytes');
    expect(seen[0]!.headers.authorization).toBe('Bearer xoxb-fetch-test');
  });
});
