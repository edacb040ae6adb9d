/**
 * A fake Slack on loopback, for driving the real bot over HTTP:
 * - the Web API (`SLACK_API_URL` points at `/api/`): auth.test, conversations.open, chat.postMessage,
 *   files.getUploadURLExternal, files.completeUploadExternal, recording every call with its parameters;
 * - the upload URL the second step of files.uploadV2 posts the bytes to (kept, for checking the PDF);
 * - response_url sinks (`/response/<id>`) that record what the bot posts through respond();
 * - for digests: conversations.info and conversations.list (paged) over `channels`, conversations.history;
 * - for Socket Mode: apps.connections.open answers the WebSocket URL set with `setSocketModeUrl` (unset: the
 *   method is unknown, as before);
 * - for connecting a workspace: users.info over `users` (others are user_not_found) and views.open (the opened
 *   views are kept in `views`);
 * - for the Home tab: views.publish (each published view kept in `published`, with the user it is for);
 * - for "Add to Slack": the authorize page (`/oauth/v2/authorize`), oauth.v2.access and auth.test per issued token
 *   (slack-oauth-fake.ts).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERIM_TEXT } from '../../chat/answers/answer-in-time.ts';
import { createOAuthFake, type OAuthFake } from './slack-oauth-fake.ts';
import { createWaiters } from './waiters.ts';

export interface ApiCall {
  method: string;
  params: Record<string, unknown>;
  authorization: string | undefined;
}

export interface SinkPost {
  id: string;
  body: Record<string, any>;
  at: number;
}

export interface PublishedView {
  userId: string;
  view: Record<string, any>;
  authorization: string | undefined;
}

export interface Upload {
  fileId: string;
  bytes: Buffer;
  contentType: string | undefined;
}

export interface FakeSlack {
  origin: string;
  apiUrl: string;
  calls: ApiCall[];
  posts: SinkPost[];
  uploads: Upload[];
  /** A fresh response_url. */
  responseUrl(): { id: string; url: string };
  /** The posts a response_url received. */
  postsTo(id: string): SinkPost[];
  /**
   * Wait until `id` has received at least `n` answers: the interim "Looking that up…" a slow answer is preceded
   * by is not counted (nor returned), so a test under load still gets the answer itself (`postsTo` has both).
   */
  waitForPosts(id: string, n?: number, timeoutMs?: number): Promise<SinkPost[]>;
  /** Wait until the Web API saw a call of `method` (among the calls from index `since` on). */
  waitForCall(method: string, timeoutMs?: number, since?: number): Promise<ApiCall>;
  /** Wait until views.open was called with this trigger id; the view it opened. */
  waitForView(triggerId: string, timeoutMs?: number): Promise<Record<string, any>>;
  /** Make a Web API method answer `{ ok: false, error }`. */
  failMethod(method: string, error: string | null): void;
  /** Make chat.postMessage to one channel answer `{ ok: false, error }` (`not_in_channel`: the bot left it). */
  failPostsIn(channel: string, error: string | null): void;
  /** Channels the workspace has, by id (conversations.info / conversations.list); others are not found. */
  channels: Map<string, { name: string; member: boolean; archived?: boolean }>;
  /** Users by id (users.info), with their admin and owner flags; others are not found. */
  users: Map<string, { isAdmin?: boolean; isOwner?: boolean; tz?: string }>;
  /** The views views.open opened, in order, with the token that opened each. */
  views: { triggerId: string; view: Record<string, any>; authorization: string | undefined }[];
  /** The Home tabs views.publish published, in order: for whom, the view, the token that published it. */
  published: PublishedView[];
  /** Wait until a Home tab of `userId` was published (from index `since` of `published` on) that `check` accepts. */
  waitForPublish(
    userId: string,
    check?: (view: Record<string, any>) => boolean,
    timeoutMs?: number,
    since?: number,
  ): Promise<PublishedView>;
  /** The URL apps.connections.open answers (a fake Socket Mode endpoint); null: the method is unknown. */
  setSocketModeUrl(url: string | null): void;
  /** The app's OAuth side: workspaces that can install, issued tokens, rotation. */
  oauth: OAuthFake;
  /** The authorize page's address (`SLACK_OAUTH_AUTHORIZE_URL`). */
  authorizeUrl: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function parseParams(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (contentType?.includes('application/json')) return JSON.parse(text || '{}') as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

export async function startFakeSlack(): Promise<FakeSlack> {
  const calls: ApiCall[] = [];
  const posts: SinkPost[] = [];
  const uploads: Upload[] = [];
  const failures = new Map<string, string>();
  const postFailures = new Map<string, string>();
  const channels = new Map<string, { name: string; member: boolean; archived?: boolean }>();
  const users = new Map<string, { isAdmin?: boolean; isOwner?: boolean; tz?: string }>();
  const views: FakeSlack['views'] = [];
  const published: PublishedView[] = [];
  const { notify, waitFor } = createWaiters();
  let nextSink = 0;
  let nextFile = 0;
  let origin = '';
  let socketModeUrl: string | null = null;
  const oauth = createOAuthFake();

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const raw = await readBody(req);
      if (url.pathname.startsWith('/response/')) {
        const id = url.pathname.slice('/response/'.length);
        posts.push({ id, body: JSON.parse(raw.toString('utf8') || '{}'), at: Date.now() });
        notify();
        return json(res, 200, { ok: true });
      }
      if (url.pathname === '/oauth/v2/authorize') {
        const r = oauth.authorize(url);
        res.writeHead(r.status, r.location ? { location: r.location } : { 'content-type': 'text/plain' });
        return res.end(r.error ?? '');
      }
      if (url.pathname.startsWith('/upload/')) {
        const fileId = url.pathname.slice('/upload/'.length);
        const ct = req.headers['content-type'];
        let bytes = raw;
        if (ct?.startsWith('multipart/form-data')) {
          const form = await new Response(raw, { headers: { 'content-type': ct } }).formData();
          const part = [...form.values()].find((v) => typeof v !== 'string');
          if (part && typeof part !== 'string') bytes = Buffer.from(await part.arrayBuffer());
        }
        uploads.push({ fileId, bytes, contentType: ct });
        notify();
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(`OK - ${bytes.length}`);
      }
      if (url.pathname.startsWith('/api/')) {
        const method = url.pathname.slice('/api/'.length);
        const params = parseParams(raw, req.headers['content-type']);
        calls.push({ method, params, authorization: req.headers.authorization });
        notify();
        const fail =
          failures.get(method) ??
          (method === 'chat.postMessage' ? postFailures.get(String(params.channel)) : undefined);
        if (fail) return json(res, 200, { ok: false, error: fail });
        const bearer = req.headers.authorization?.replace(/^Bearer /, '');
        switch (method) {
          case 'oauth.v2.access':
            return json(res, 200, oauth.access(params));
          case 'auth.test':
            return json(
              res,
              200,
              (bearer && oauth.authTest(bearer)) || {
                ok: true,
                url: 'https://linen-test.slack.com/',
                team: 'Linen Test',
                user: 'linen',
                team_id: 'T0LINEN',
                user_id: 'U0BOT',
                bot_id: 'B0BOT',
              },
            );
          case 'conversations.open':
            return json(res, 200, { ok: true, channel: { id: `D0${String(params.users ?? 'X')}` } });
          case 'chat.postMessage':
            return json(res, 200, {
              ok: true,
              channel: params.channel,
              ts: `1700000002.${String(calls.length).padStart(6, '0')}`,
            });
          case 'conversations.info': {
            const c = channels.get(String(params.channel));
            if (!c) return json(res, 200, { ok: false, error: 'channel_not_found' });
            return json(res, 200, {
              ok: true,
              channel: { id: params.channel, name: c.name, is_member: c.member, is_archived: Boolean(c.archived) },
            });
          }
          case 'conversations.list': {
            // Two per page, so that a lookup has to follow the cursor.
            const all = [...channels].filter(([, c]) => !(String(params.exclude_archived) === 'true' && c.archived));
            const start = Number(params.cursor || 0);
            const page = all
              .slice(start, start + 2)
              .map(([id, c]) => ({ id, name: c.name, name_normalized: c.name, is_archived: Boolean(c.archived) }));
            return json(res, 200, {
              ok: true,
              channels: page,
              response_metadata: { next_cursor: start + 2 < all.length ? String(start + 2) : '' },
            });
          }
          case 'apps.connections.open':
            if (socketModeUrl === null) return json(res, 200, { ok: false, error: 'unknown_method' });
            return json(res, 200, { ok: true, url: socketModeUrl });
          case 'users.info': {
            const u = users.get(String(params.user));
            if (!u) return json(res, 200, { ok: false, error: 'user_not_found' });
            return json(res, 200, {
              ok: true,
              user: {
                id: params.user,
                is_admin: Boolean(u.isAdmin),
                is_owner: Boolean(u.isOwner),
                ...(u.tz ? { tz: u.tz } : {}),
              },
            });
          }
          case 'views.open': {
            const view = typeof params.view === 'string' ? JSON.parse(params.view) : params.view;
            views.push({ triggerId: String(params.trigger_id), view, authorization: req.headers.authorization });
            notify();
            return json(res, 200, { ok: true, view: { id: `V0${views.length}`, ...view } });
          }
          case 'views.publish': {
            const view = typeof params.view === 'string' ? JSON.parse(params.view) : params.view;
            published.push({ userId: String(params.user_id), view, authorization: req.headers.authorization });
            notify();
            return json(res, 200, { ok: true, view: { id: `VH${published.length}`, ...view } });
          }
          case 'conversations.history':
            return json(res, 200, { ok: true, messages: [], has_more: false });
          case 'files.getUploadURLExternal': {
            const fileId = `F0${++nextFile}`;
            return json(res, 200, { ok: true, upload_url: `${origin}/upload/${fileId}`, file_id: fileId });
          }
          case 'files.completeUploadExternal': {
            const files = JSON.parse(String(params.files ?? '[]')) as { id: string; title?: string }[];
            return json(res, 200, { ok: true, files: files.map((f) => ({ id: f.id, title: f.title })) });
          }
          default:
            return json(res, 200, { ok: false, error: 'unknown_method' });
        }
      }
      res.writeHead(404);
      res.end();
    } catch (err) {
      res.writeHead(500);
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    apiUrl: `${origin}/api/`,
    calls,
    posts,
    uploads,
    channels,
    users,
    views,
    published,
    waitForPublish(userId, check = () => true, timeoutMs = 10_000, since = 0) {
      return waitFor(
        () => published.slice(since).find((p) => p.userId === userId && check(p.view)),
        timeoutMs,
        `a Home tab published for ${userId}`,
      );
    },
    responseUrl() {
      const id = `r${++nextSink}`;
      return { id, url: `${origin}/response/${id}` };
    },
    postsTo: (id) => posts.filter((p) => p.id === id),
    waitForPosts(id, n = 1, timeoutMs = 10_000) {
      return waitFor(
        () => {
          const got = posts.filter((p) => p.id === id && p.body.text !== INTERIM_TEXT);
          return got.length >= n ? got : undefined;
        },
        timeoutMs,
        `${n} post(s) to ${id}`,
      );
    },
    waitForCall(method, timeoutMs = 10_000, since = 0) {
      return waitFor(() => calls.slice(since).find((c) => c.method === method), timeoutMs, `a ${method} call`);
    },
    waitForView(triggerId, timeoutMs = 10_000) {
      return waitFor(() => views.find((v) => v.triggerId === triggerId)?.view, timeoutMs, `views.open of ${triggerId}`);
    },
    failMethod(method, error) {
      if (error === null) failures.delete(method);
      else failures.set(method, error);
    },
    failPostsIn(channel, error) {
      if (error === null) postFailures.delete(channel);
      else postFailures.set(channel, error);
    },
    setSocketModeUrl(url) {
      socketModeUrl = url;
    },
    oauth,
    authorizeUrl: `${origin}/oauth/v2/authorize`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
