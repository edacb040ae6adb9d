/**
 * The node:http adapter the Teams SDK registers `/api/messages` on: it hands a registered route the parsed JSON and
 * the headers and writes back what the route answers, leaves other requests to the server that owns the port, and
 * refuses a body it cannot take with a sentence, before any route runs. Until it has answered an activity, the work
 * left for after the acknowledgements waits (`base/pending-acks.ts`); not for an invoke, whose answer is its work.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IHttpServerRequest } from '@microsoft/teams.apps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WAIT_MS, yieldToPendingAcks } from '../../base/pending-acks.ts';
import { MAX_ACTIVITY_BYTES, NodeHttpAdapter } from '../../teams-bot/http-adapter.ts';

let server: Server;
let origin: string;
const seen: IHttpServerRequest[] = [];
/** The next request with `held: true` stays in its route until released. */
let hold: { entered: () => void; released: Promise<void> } | undefined;

function holdNext() {
  let entered!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    entered = resolve;
  });
  hold = {
    entered,
    released: new Promise<void>((resolve) => {
      release = resolve;
    }),
  };
  return { reached, release };
}

beforeAll(async () => {
  const adapter = new NodeHttpAdapter();
  adapter.registerRoute('POST', '/api/messages', async (request) => {
    seen.push(request);
    const body = request.body as { type?: string; held?: boolean };
    if (body.held && hold) {
      const { entered, released } = hold;
      hold = undefined;
      entered();
      await released;
    }
    if (body.type === 'invoke') return { status: 200, body: { composeExtension: { type: 'message', text: 'ok' } } };
    if (body.type === 'fail') throw new Error('a failure outside the SDK');
    return { status: 202 };
  });
  server = createServer(async (req, res) => {
    if (!(await adapter.handle(req, res))) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not the adapter’s');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

const post = (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${origin}${path}`, { method: 'POST', headers, body });

describe('the node:http adapter of the Teams SDK', () => {
  it('hands the route the parsed body and the headers, and writes back its status and JSON body', async () => {
    const res = await post('/api/messages?x=1', JSON.stringify({ type: 'invoke' }), {
      'content-type': 'application/json; charset=utf-8',
      authorization: 'Bearer abc',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ composeExtension: { type: 'message', text: 'ok' } });
    expect(seen.at(-1)?.body).toEqual({ type: 'invoke' });
    expect(seen.at(-1)?.headers.authorization).toBe('Bearer abc');
  });

  it('answers a route’s status with no body when it gives none', async () => {
    const res = await post('/api/messages', JSON.stringify({ type: 'message' }));
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('leaves another path or method to the server that owns the port', async () => {
    expect((await post('/slack/events', '{}')).status).toBe(404);
    expect((await fetch(`${origin}/api/messages`)).status).toBe(404);
  });

  it.each([
    ['a body that is not JSON', 'not json', { 'content-type': 'application/json' }, 400, 'not valid JSON'],
    ['a body sent as another type', '{}', { 'content-type': 'text/plain' }, 415, 'application/json'],
    [
      'a body over the limit',
      'x'.repeat(MAX_ACTIVITY_BYTES + 1),
      { 'content-type': 'application/json' },
      413,
      'larger',
    ],
  ])('refuses %s with a sentence, before the route runs', async (_what, body, headers, status, words) => {
    const before = seen.length;
    const res = await post('/api/messages', body, headers);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toContain(words);
    expect(seen.length).toBe(before);
  });

  it('answers 500 without detail when the route itself throws', async () => {
    const res = await post('/api/messages', JSON.stringify({ type: 'fail' }));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ error: 'Internal server error' });
  });
});

describe('acknowledgements first', () => {
  /**
   * Whether work queued now for after the acknowledgements goes at once or waits: a timer of half the cap fires
   * before a wait ends, and never before work that goes at once (its check runs in this turn of the event loop).
   */
  const queuedWork = () =>
    Promise.race([
      yieldToPendingAcks().then(() => 'goes at once'),
      new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS / 2)).then(() => 'waits'),
    ]);

  it('holds the work back while an activity is being answered, and lets it go once it is', async () => {
    expect(await queuedWork()).toBe('goes at once');
    const held = holdNext();
    const res = post('/api/messages', JSON.stringify({ type: 'message', held: true }));
    await held.reached;
    expect(await queuedWork()).toBe('waits');
    held.release();
    expect((await res).status).toBe(202);
    expect(await queuedWork()).toBe('goes at once');
  });

  it('does not hold it for an invoke, whose answer is its own work', async () => {
    const held = holdNext();
    const res = post('/api/messages', JSON.stringify({ type: 'invoke', held: true }));
    await held.reached;
    expect(await queuedWork()).toBe('goes at once');
    held.release();
    expect((await res).status).toBe(200);
  });

  it('does not hold it for a request it refused', async () => {
    expect((await post('/api/messages', 'not json')).status).toBe(400);
    expect(await queuedWork()).toBe('goes at once');
  });
});
