/** A fake Slack Web API on loopback: records calls, serves channel history with metadata, injects errors. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  metadata: { event_type: string; event_payload: Record<string, unknown> } | null;
  at: number;
}

export interface FakeSlack {
  url: string;
  calls: { method: string; body: Record<string, unknown>; at: number }[];
  messages: FakeMessage[];
  /** Channels the bot is a member of (conversations.info); others answer is_member false. */
  members: Set<string>;
  /** channel -> error answered by chat.postMessage (e.g. not_in_channel). */
  failures: Map<string, string>;
  /** Channels by name for conversations.list (paged two per page); `archived` ones are listed only when asked. */
  channels: Map<string, { id: string; archived?: boolean }>;
  /** Every method answers `{ ok: false, error }` (invalid_auth, token_revoked: a token that no longer works). */
  authError: string | null;
  /** The next N chat.postMessage calls answer HTTP 500 (a transient failure). */
  serverErrors: { count: number };
  /** Next N chat.postMessage calls answer 429 with this Retry-After (seconds). */
  rateLimit: { count: number; retryAfter: number };
  /**
   * The next N chat.postMessage calls post the message, then fail as if the answer was lost: HTTP 502 (`'502'`)
   * or the connection cut before any answer (`'drop'`). The caller cannot tell whether the message went out.
   */
  postedThenFailed: { count: number; how: '502' | 'drop' };
  /** The counted faults above (serverErrors, rateLimit, postedThenFailed) hit posts to this channel only (null: any). */
  countedFaultsIn: string | null;
  /** While set, chat.postMessage is held (recorded in `calls`, not yet posted or answered) until it resolves. */
  holdPosts: Promise<void> | null;
  /** Epoch ms used for message ts (defaults to Date.now). */
  now: () => number;
  posts(channel?: string): FakeMessage[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if ((req.headers['content-type'] ?? '').includes('json')) return raw ? JSON.parse(raw) : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    out[k] = (k === 'blocks' || k === 'metadata') && (v.startsWith('[') || v.startsWith('{')) ? safeJson(v) : v;
  }
  return out;
}
const safeJson = (v: string) => {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};

export async function startFakeSlack(): Promise<FakeSlack> {
  let seq = 0;
  const fake: Omit<FakeSlack, 'url' | 'close'> = {
    calls: [],
    messages: [],
    members: new Set(),
    failures: new Map(),
    rateLimit: { count: 0, retryAfter: 1 },
    postedThenFailed: { count: 0, how: '502' },
    countedFaultsIn: null,
    holdPosts: null,
    now: Date.now,
    channels: new Map(),
    authError: null,
    serverErrors: { count: 0 },
    posts(channel) {
      return this.messages.filter((m) => channel === undefined || m.channel === channel);
    },
  };
  const server = createServer(async (req, res) => {
    const method = (req.url ?? '').replace(/^\/api\//, '').split('?')[0]!;
    const body = await readBody(req);
    fake.calls.push({ method, body, at: Date.now() });
    const send = (obj: Record<string, unknown>, status = 200, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(obj));
    };
    const channel = String(body.channel ?? '');
    if (fake.authError) return send({ ok: false, error: fake.authError });
    if (method === 'conversations.list') {
      const all = [...fake.channels].filter(([, c]) => !(String(body.exclude_archived) === 'true' && c.archived));
      const start = Number(body.cursor || 0);
      const page = all
        .slice(start, start + 2)
        .map(([name, c]) => ({ id: c.id, name, name_normalized: name, is_archived: Boolean(c.archived) }));
      const next = start + 2 < all.length ? String(start + 2) : '';
      return send({ ok: true, channels: page, response_metadata: { next_cursor: next } });
    }
    if (method === 'chat.postMessage') {
      if (fake.holdPosts) await fake.holdPosts;
      const counted = fake.countedFaultsIn === null || fake.countedFaultsIn === channel;
      if (counted && fake.serverErrors.count > 0) {
        fake.serverErrors.count--;
        res.writeHead(500, { 'content-type': 'text/plain' });
        return res.end('upstream trouble');
      }
      if (counted && fake.rateLimit.count > 0) {
        fake.rateLimit.count--;
        return send({ ok: false, error: 'ratelimited' }, 429, { 'retry-after': String(fake.rateLimit.retryAfter) });
      }
      const err = fake.failures.get(channel);
      if (err) return send({ ok: false, error: err });
      const ts = `${Math.floor(fake.now() / 1000)}.${String(++seq).padStart(6, '0')}`;
      fake.messages.push({
        channel,
        ts,
        text: String(body.text ?? ''),
        blocks: (body.blocks as unknown[]) ?? [],
        metadata: (body.metadata as FakeMessage['metadata']) ?? null,
        at: Date.now(),
      });
      if (counted && fake.postedThenFailed.count > 0) {
        fake.postedThenFailed.count--;
        if (fake.postedThenFailed.how === 'drop') return req.socket.destroy();
        res.writeHead(502, { 'content-type': 'text/html' });
        return res.end('<html>bad gateway</html>');
      }
      return send({ ok: true, channel, ts, message: { ts } });
    }
    if (method === 'conversations.history') {
      const oldest = Number(body.oldest ?? 0);
      const withMeta = String(body.include_all_metadata) === 'true';
      const msgs = fake.messages
        .filter((m) => m.channel === channel && Number(m.ts) >= oldest)
        .reverse()
        .map((m) => ({
          type: 'message',
          ts: m.ts,
          text: m.text,
          ...(withMeta && m.metadata ? { metadata: m.metadata } : {}),
        }));
      return send({ ok: true, messages: msgs, has_more: false });
    }
    if (method === 'conversations.info') {
      if (fake.failures.get(channel) === 'channel_not_found') return send({ ok: false, error: 'channel_not_found' });
      const archived = fake.failures.get(channel) === 'is_archived';
      return send({
        ok: true,
        channel: {
          id: channel,
          is_member: fake.members.has(channel),
          is_im: channel.startsWith('D'),
          is_archived: archived,
        },
      });
    }
    send({ ok: false, error: 'unknown_method' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(fake as FakeSlack, {
    url: `http://127.0.0.1:${port}/api/`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
