/**
 * The Teams SDK's `IHttpServerAdapter` over plain node:http, so that Teams' `POST /api/messages` can be served by
 * the same HTTP server as Slack's `/slack/events` and `/healthz`, with no Express.
 *
 * The SDK registers its routes here (`registerRoute`: method + path to a handler that takes the parsed JSON body and
 * the headers and returns a status and a body); the server that owns the port calls `handle` for every request and
 * serves the request itself when `handle` answers false. The SDK's handler authenticates the request (Bot Framework
 * JWT) and answers only once the activity's handler has returned.
 *
 * Every request counts as unanswered until its response is written (`base/pending-acks.ts`), so that the answers
 * the handlers leave for after the acknowledgement wait for a burst's acknowledgements. An invoke stops counting
 * once its body is read: Teams waits for its answer, which is its handler's own work (a search's result, a card),
 * and the answers must not wait for that.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { HttpMethod, HttpRouteHandler, IHttpServerAdapter } from '@microsoft/teams.apps';
import { trackUnanswered } from '../base/pending-acks.ts';

/**
 * The largest activity accepted. Teams refuses a bot message over 100 KB (counted in UTF-16); what it posts to a bot
 * (a message, an invoke with a card's inputs) is smaller. 256 KB keeps every real activity and refuses the rest
 * before it is parsed.
 */
export const MAX_ACTIVITY_BYTES = 256 * 1024;

class RequestRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_ACTIVITY_BYTES)
    throw new RequestRefused(413, `The activity is larger than ${MAX_ACTIVITY_BYTES} bytes.`);
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new RequestRefused(415, 'An activity is sent as application/json.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_ACTIVITY_BYTES)
      throw new RequestRefused(413, `The activity is larger than ${MAX_ACTIVITY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new RequestRefused(400, 'The activity is not valid JSON.');
  }
}

/** Node's headers without the absent ones, as the SDK's request type has them. */
function headersOf(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value;
  return out;
}

function reply(res: ServerResponse, status: number, body: unknown) {
  if (body === undefined || body === null) {
    res.writeHead(status);
    res.end();
  } else if (typeof body === 'string') {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  } else {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  }
}

export class NodeHttpAdapter implements IHttpServerAdapter {
  private readonly routes = new Map<string, HttpRouteHandler>();

  registerRoute(method: HttpMethod, path: string, handler: HttpRouteHandler): void {
    this.routes.set(`${method} ${path}`, handler);
  }

  /** Serves the request if a route matches it; false (and the response untouched) otherwise. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const handler = this.routes.get(`${req.method} ${new URL(req.url ?? '/', 'http://localhost').pathname}`);
    if (!handler) return false;
    const answered = trackUnanswered(res);
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (err) {
      if (!(err instanceof RequestRefused)) throw err;
      reply(res, err.status, { error: err.message });
      return true;
    }
    if ((body as { type?: unknown } | null)?.type === 'invoke') answered();
    try {
      const response = await handler({ body, headers: headersOf(req.headers) });
      reply(res, response.status, response.body);
    } catch {
      // The SDK answers its own failures; this is a failure outside it. No detail: it may name the request.
      if (!res.headersSent) reply(res, 500, { error: 'Internal server error' });
      else res.end();
    }
    return true;
  }
}
