/**
 * A fake Bot Connector (the Teams `serviceUrl`) on loopback, answering as the real service does:
 * - `POST /v3/conversations/{id}/activities` (send; `{id};messageid={root}` posts into a channel thread),
 *   `POST .../activities/{activityId}` (reply to an activity), `PUT .../activities/{activityId}` (update),
 *   `DELETE .../activities/{activityId}` (delete), `POST /v3/conversations` (a 1:1 chat with a user, for proactive
 *   messages and invoice PDFs; with `activity`, its first message too). `?isTargetedActivity=true` is recorded.
 * - Every call needs a bearer token the token fake issued (else 401, as the service answers); every activity is
 *   recorded per conversation with the token's `appid`.
 * - Faults per conversation: 429 with `Retry-After` for the next N calls; 403 `BotNotInConversationRoster` once the
 *   bot was removed, 403 `ConversationBlockedByUser`, 404 `ConversationNotFound` once the conversation is gone; 412
 *   and 5xx for the next N calls; 413 `MessageSizeTooBig` over the message size limit.
 * - Teams' per-bot, per-conversation limits for sending (7 in 1 s, 8 in 2 s, 60 in 30 s, 1800 in an hour), enforced
 *   with 429 and the `Retry-After` that frees the window, when `enforceRateLimits` is on.
 * - The file-consent upload: `fileUpload()` gives the `uploadInfo` a `fileConsent/invoke` carries when the user
 *   accepts; its `uploadUrl` takes the bytes as a OneDrive upload session does (PUT with `Content-Range`, no
 *   Authorization header) and keeps them for the test.
 *
 * The service's paths carry the conversation id as it is (`19:...@thread.tacv2`, `a:1...`), not URL-encoded, as the
 * SDK sends them; encoded ones are decoded too. Error bodies are Bot Framework's ErrorResponse,
 * `{ error: { code, message } }`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bearerOf, sendJson, serveOnLoopback } from './loopback-http.ts';
import type { JwtClaims } from './teams-jwt.ts';
import { createWaiters } from './waiters.ts';

export type ConnectorOperation = 'send' | 'reply' | 'update' | 'delete';

export interface ConnectorActivity {
  /** The activity's id (the one the fake answered with, or the one updated or deleted). */
  id: string;
  operation: ConnectorOperation;
  /** The conversation, without any `;messageid=` thread suffix. */
  conversationId: string;
  /** The thread's root message id, for a post to `{conversation};messageid={root}`. */
  threadId?: string;
  /** The activity replied to: the path's activityId (`reply`), or the body's `replyToId`. */
  replyToId?: string;
  /** Sent with `?isTargetedActivity=true` (visible to one member). */
  targeted: boolean;
  /** The body as the bot sent it (none for a delete). */
  activity?: Record<string, any>;
  /** The `appid` claim of the bearer token it came with. */
  appId: string;
  at: number;
}

export interface ConnectorRequest {
  method: string;
  path: string;
  conversationId?: string;
  status: number;
  at: number;
}

export interface CreatedConversation {
  id: string;
  tenantId: string;
  userId: string;
  botId: string | undefined;
}

export interface FileUpload {
  uniqueId: string;
  name: string;
  /** The bytes received so far, in order. */
  bytes: Buffer;
  /** The total size announced by `Content-Range`. */
  size: number | undefined;
  complete: boolean;
  contentTypes: (string | undefined)[];
}

/** What a `fileConsent/invoke` accept carries in `value.uploadInfo`. */
export interface UploadInfo {
  contentUrl: string;
  name: string;
  uploadUrl: string;
  uniqueId: string;
  fileType: string;
  etag: string;
}

export type ConversationFault = 'bot-removed' | 'gone' | 'blocked';

export interface TeamsConnectorFake {
  origin: string;
  /** The `serviceUrl` of the activities Teams sends: a region path with a trailing slash, as Teams gives it. */
  serviceUrl: string;
  /** Every activity sent, replied, updated or deleted, in order. */
  activities: ConnectorActivity[];
  /** Every request, with the status it got. */
  requests: ConnectorRequest[];
  /** The 1:1 conversations `POST /v3/conversations` created. */
  createdConversations: CreatedConversation[];
  uploads: FileUpload[];
  /** The sends and replies that reached a conversation (any of its threads), in order. */
  postsTo(conversationId: string): ConnectorActivity[];
  /** Waits until a conversation has received at least `n` sends or replies. */
  waitForPosts(conversationId: string, n?: number, timeoutMs?: number): Promise<ConnectorActivity[]>;
  /** Waits until a file upload is complete. */
  waitForUpload(uniqueId: string, timeoutMs?: number): Promise<FileUpload>;
  /** Waits until `check` (asked again after every request the fake takes) returns a value. */
  waitUntil<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T>;
  /** The next `count` calls to the conversation answer 429 with `Retry-After: retryAfterSeconds`. */
  throttle(conversationId: string, count: number, retryAfterSeconds?: number): void;
  /** The next `count` calls to the conversation answer `status` (412 PreconditionFailed, or 5xx). */
  failNext(conversationId: string, count: number, status?: 412 | 500 | 502 | 503 | 504): void;
  /** From now on every call to the conversation is refused as the service refuses it in that case; null undoes it. */
  setFault(conversationId: string, fault: ConversationFault | null): void;
  /** Enforce Teams' per-conversation send limits (off by default). */
  enforceRateLimits: boolean;
  /** The largest activity accepted, counted as Teams counts it: the JSON payload in UTF-16 (default 100 KB). */
  messageSizeLimit: number;
  /** An upload slot for the file-consent flow: what the accept invoke's `uploadInfo` holds. */
  fileUpload(name: string): UploadInfo;
  close(): Promise<void>;
}

export interface ConnectorFakeOptions {
  /** Vouches for a bearer token: its claims (with `appid`) if the token service issued it and it is unexpired. */
  verifyToken(token: string): JwtClaims | undefined;
  /** The clock the rate limits count with (default Date.now). */
  now?: () => number;
}

/** Teams' per-bot, per-conversation limits for "send to conversation", as [window in ms, most operations]. */
export const SEND_LIMITS: readonly (readonly [number, number])[] = [
  [1_000, 7],
  [2_000, 8],
  [30_000, 60],
  [3_600_000, 1_800],
];

const ERRORS = {
  401: { message: 'Authorization has been denied for this request.' },
  'bot-removed': [403, 'BotNotInConversationRoster', 'The bot is not part of the conversation roster.'],
  blocked: [403, 'ConversationBlockedByUser', 'User blocked the conversation with the bot.'],
  gone: [404, 'ConversationNotFound', 'Conversation not found.'],
  412: [412, 'PreconditionFailed', 'Precondition failed, please try again.'],
  413: [413, 'MessageSizeTooBig', 'Message size too large.'],
  429: [429, 'Throttled', 'Too many requests.'],
} as const;

const errorBody = (code: string, message: string) => ({ error: { code, message } });

interface ConversationState {
  fault: ConversationFault | null;
  throttles: number[];
  failures: number[];
  /** When each accepted send or reply happened, for the rate limits. */
  sent: number[];
}

export async function startTeamsConnectorFake(options: ConnectorFakeOptions): Promise<TeamsConnectorFake> {
  const now = options.now ?? Date.now;
  const activities: ConnectorActivity[] = [];
  const requests: ConnectorRequest[] = [];
  const createdConversations: CreatedConversation[] = [];
  const uploads: FileUpload[] = [];
  const conversations = new Map<string, ConversationState>();
  const { notify, waitFor } = createWaiters();
  let lastId = 0;
  let origin = '';

  const stateOf = (conversationId: string) => {
    let s = conversations.get(conversationId);
    if (!s) {
      s = { fault: null, throttles: [], failures: [], sent: [] };
      conversations.set(conversationId, s);
    }
    return s;
  };
  // Teams message ids are millisecond timestamps; channel threads are addressed by them.
  const nextActivityId = () => {
    lastId = Math.max(Date.now(), lastId + 1);
    return String(lastId);
  };

  /** Seconds until every send window has room again, or 0 when a send may go now. */
  const retryAfterFor = (s: ConversationState, at: number): number => {
    let waitMs = 0;
    for (const [windowMs, most] of SEND_LIMITS) {
      const inWindow = s.sent.filter((t) => t > at - windowMs);
      if (inWindow.length >= most) waitMs = Math.max(waitMs, inWindow[inWindow.length - most]! + windowMs - at);
    }
    return waitMs > 0 ? Math.max(1, Math.ceil(waitMs / 1000)) : 0;
  };

  const handleUpload = (req: IncomingMessage, res: ServerResponse, body: Buffer, uniqueId: string) => {
    const upload = uploads.find((u) => u.uniqueId === uniqueId);
    if (!upload || req.method !== 'PUT')
      return sendJson(res, 404, errorBody('itemNotFound', 'The upload session does not exist.'));
    // The upload URL is pre-authenticated: OneDrive refuses a request that also carries an Authorization header.
    if (req.headers.authorization)
      return sendJson(res, 401, errorBody('unauthenticated', 'The upload URL takes no Authorization header.'));
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(req.headers['content-range'] ?? '');
    const [start, end, total] = range ? [Number(range[1]), Number(range[2]), Number(range[3])] : [NaN, NaN, NaN];
    if (!range || start !== upload.bytes.length || end - start + 1 !== body.length || end >= total)
      return sendJson(
        res,
        416,
        errorBody('invalidRange', `Expected Content-Range bytes ${upload.bytes.length}-.../total matching the body.`),
      );
    upload.bytes = Buffer.concat([upload.bytes, body]);
    upload.size = total;
    upload.contentTypes.push(req.headers['content-type']);
    if (upload.bytes.length < total) {
      return sendJson(res, 202, {
        expirationDateTime: new Date(Date.now() + 3_600_000).toISOString(),
        nextExpectedRanges: [`${upload.bytes.length}-`],
      });
    }
    upload.complete = true;
    notify();
    return sendJson(res, 201, { id: upload.uniqueId, name: upload.name, size: total, file: {} });
  };

  const server = await serveOnLoopback((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    const upload = /^\/upload\/([^/]+)$/.exec(url.pathname);
    if (upload) return handleUpload(req, res, body, decodeURIComponent(upload[1]!));

    const record: ConnectorRequest = { method, path: url.pathname, status: 200, at: now() };
    requests.push(record);
    const answer = (status: number, payload?: unknown, headers: Record<string, string> = {}) => {
      record.status = status;
      notify();
      if (payload === undefined) {
        res.writeHead(status, headers);
        res.end();
      } else sendJson(res, status, payload, headers);
    };
    const fail = ([status, code, message]: readonly [number, string, string], headers: Record<string, string> = {}) =>
      answer(status, errorBody(code, message), headers);

    // Teams' serviceUrl has a region path (`/amer/`); the API is under it.
    const m = /^\/amer\/v3\/conversations(?:\/([^/]+)(?:\/activities(?:\/([^/]+))?)?)?$/.exec(url.pathname);
    if (!m) return answer(404, errorBody('NotFound', `No such resource: ${method} ${url.pathname}`));

    const claims = (() => {
      const token = bearerOf(req);
      return token ? options.verifyToken(token) : undefined;
    })();
    if (!claims) return answer(401, ERRORS[401]);
    const appId = String(claims.appid);

    let parsed: Record<string, any> | undefined;
    if (method === 'POST' || method === 'PUT') {
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return answer(400, errorBody('BadSyntax', 'The request body is not JSON.'));
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        return answer(400, errorBody('BadSyntax', 'The request body is not a JSON object.'));
    }

    const [rawConversation, rawActivityId] = [m[1], m[2]].map((s) =>
      s === undefined ? undefined : decodeURIComponent(s),
    );
    if (rawConversation === undefined) {
      if (method !== 'POST') return answer(405, errorBody('BadArgument', 'Only POST creates a conversation.'));
      return createConversation(parsed!, appId, answer);
    }

    const conversationId = rawConversation.split(';')[0]!;
    const threadId = /;messageid=(\d+)/.exec(rawConversation)?.[1];
    record.conversationId = conversationId;
    const s = stateOf(conversationId);
    if (s.fault) return fail(ERRORS[s.fault]);
    if (s.throttles.length > 0) return fail(ERRORS[429], { 'retry-after': String(s.throttles.shift()) });
    const failure = s.failures.shift();
    if (failure === 412) return fail(ERRORS[412]);
    if (failure !== undefined)
      return fail([failure, failure === 503 ? 'ServiceUnavailable' : 'InternalServerError', 'The service failed.']);

    const targeted = url.searchParams.get('isTargetedActivity') === 'true';
    const base = { conversationId, ...(threadId ? { threadId } : {}), targeted, appId, at: now() };
    if (method === 'DELETE' && rawActivityId) {
      activities.push({ ...base, id: rawActivityId, operation: 'delete' });
      return answer(200);
    }
    if (!parsed || typeof parsed.type !== 'string')
      return answer(400, errorBody('BadArgument', 'Activity.Type is required.'));
    if (JSON.stringify(parsed).length * 2 > fake.messageSizeLimit) return fail(ERRORS[413]);
    if (method === 'PUT' && rawActivityId) {
      activities.push({ ...base, id: rawActivityId, operation: 'update', activity: parsed });
      return answer(200, { id: rawActivityId });
    }
    if (method !== 'POST') return answer(405, errorBody('BadArgument', `${method} is not supported here.`));

    if (fake.enforceRateLimits) {
      const wait = retryAfterFor(s, now());
      if (wait > 0) return fail(ERRORS[429], { 'retry-after': String(wait) });
    }
    s.sent.push(now());
    const id = nextActivityId();
    const replyToId = rawActivityId ?? (typeof parsed.replyToId === 'string' ? parsed.replyToId : undefined);
    activities.push({
      ...base,
      id,
      operation: rawActivityId ? 'reply' : 'send',
      ...(replyToId ? { replyToId } : {}),
      activity: parsed,
    });
    return answer(201, { id });
  });
  origin = server.origin;

  function createConversation(
    params: Record<string, any>,
    appId: string,
    answer: (status: number, payload?: unknown) => void,
  ) {
    const members = Array.isArray(params.members) ? params.members : [];
    const tenantId = params.channelData?.tenant?.id ?? params.tenantId;
    if (members.length !== 1 || typeof members[0]?.id !== 'string')
      return answer(400, errorBody('BadArgument', 'A 1:1 conversation needs exactly one member.'));
    if (typeof tenantId !== 'string') return answer(400, errorBody('BadArgument', 'The tenant id is required.'));
    const userId: string = members[0].id;
    // Teams answers the same 1:1 conversation for the same user each time.
    let conversation = createdConversations.find((c) => c.tenantId === tenantId && c.userId === userId);
    if (!conversation) {
      conversation = { id: `a:1${randomBytes(48).toString('base64url')}`, tenantId, userId, botId: params.bot?.id };
      createdConversations.push(conversation);
    }
    const s = stateOf(conversation.id);
    if (s.fault) return answer(ERRORS[s.fault][0], errorBody(ERRORS[s.fault][1], ERRORS[s.fault][2]));
    if (params.activity && typeof params.activity === 'object') {
      const id = nextActivityId();
      s.sent.push(now());
      activities.push({
        id,
        operation: 'send',
        conversationId: conversation.id,
        targeted: false,
        activity: params.activity,
        appId,
        at: now(),
      });
      return answer(201, { id: conversation.id, activityId: id, serviceUrl: fake.serviceUrl });
    }
    return answer(201, { id: conversation.id });
  }

  const postsTo = (conversationId: string) =>
    activities.filter(
      (a) => a.conversationId === conversationId && (a.operation === 'send' || a.operation === 'reply'),
    );

  const fake: TeamsConnectorFake = {
    origin,
    serviceUrl: `${origin}/amer/`,
    activities,
    requests,
    createdConversations,
    uploads,
    postsTo,
    waitForPosts(conversationId, n = 1, timeoutMs = 10_000) {
      return waitFor(
        () => {
          const got = postsTo(conversationId);
          return got.length >= n ? got : undefined;
        },
        timeoutMs,
        `${n} post(s) to ${conversationId}`,
      );
    },
    waitUntil: (check, timeoutMs, what) => waitFor(check, timeoutMs, what),
    waitForUpload(uniqueId, timeoutMs = 10_000) {
      return waitFor(
        () => uploads.find((u) => u.uniqueId === uniqueId && u.complete),
        timeoutMs,
        `the upload ${uniqueId}`,
      );
    },
    throttle(conversationId, count, retryAfterSeconds = 1) {
      for (let i = 0; i < count; i++) stateOf(conversationId).throttles.push(retryAfterSeconds);
    },
    failNext(conversationId, count, status = 500) {
      for (let i = 0; i < count; i++) stateOf(conversationId).failures.push(status);
    },
    setFault(conversationId, fault) {
      stateOf(conversationId).fault = fault;
    },
    enforceRateLimits: false,
    messageSizeLimit: 100 * 1024,
    fileUpload(name) {
      const uniqueId = randomUUID().toUpperCase();
      uploads.push({ uniqueId, name, bytes: Buffer.alloc(0), size: undefined, complete: false, contentTypes: [] });
      return {
        contentUrl: `${origin}/personal/user/Documents/Applications/${encodeURIComponent(name)}`,
        name,
        uploadUrl: `${origin}/upload/${uniqueId}`,
        uniqueId,
        fileType: name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '',
        etag: randomBytes(4).toString('hex'),
      };
    },
    close: server.close,
  };
  return fake;
}
