/**
 * Test controls outside /v1: `GET /__sandbox/health`, `GET|POST|DELETE /__sandbox/faults`,
 * `GET|DELETE /__sandbox/requests` and the data changes under `/__sandbox/changes`. No key needed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runChangeRoute } from '../changes/http.ts';
import { ApiError, invalidParams, notFound } from './errors.ts';
import { applyFaultBody } from './faults.ts';
import type { ServerDeps } from './http.ts';
import { sendJson } from './respond.ts';

async function readBody(req: IncomingMessage, max = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw invalidParams('Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON body, or undefined when there is none. */
async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalidParams('The body must be a JSON object.');
  }
}

export async function handleAdmin(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  rawPath: string,
  requestId: string,
  headers: Record<string, string>,
): Promise<void> {
  const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const method = req.method ?? 'GET';
  const faultsView = () => ({ settings: deps.faults.settings, queued: deps.faults.pending });
  if (path === '/__sandbox/health') {
    if (method !== 'GET')
      throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed here.`, { Allow: 'GET' });
    const { organization, seeded } = deps.store.current;
    sendJson(
      res,
      200,
      {
        data: {
          status: 'ok',
          organization: organization.name,
          time_zone: organization.time_zone,
          today: deps.today(),
          seeded,
        },
        request_id: requestId,
      },
      headers,
    );
    return;
  }
  if (path === '/__sandbox/faults') {
    if (method === 'GET') {
      sendJson(res, 200, { data: faultsView(), request_id: requestId }, headers);
      return;
    }
    if (method === 'DELETE') {
      deps.faults.reset();
      sendJson(res, 200, { data: faultsView(), request_id: requestId }, headers);
      return;
    }
    if (method === 'POST') {
      const text = await readBody(req);
      let body: unknown;
      try {
        body = text.trim() === '' ? {} : JSON.parse(text);
      } catch {
        throw invalidParams('The body must be a JSON object of fault settings.');
      }
      try {
        applyFaultBody(deps.faults, body);
      } catch (err) {
        throw invalidParams(`Invalid fault settings: ${(err as Error).message}.`);
      }
      sendJson(res, 200, { data: faultsView(), request_id: requestId }, headers);
      return;
    }
    throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed here.`, {
      Allow: 'GET, POST, DELETE',
    });
  }
  if (path === '/__sandbox/requests') {
    if (method === 'DELETE') deps.requests.clear();
    else if (method !== 'GET')
      throw new ApiError(405, 'method_not_allowed', `Method ${method} is not allowed here.`, { Allow: 'GET, DELETE' });
    const data = { count: deps.requests.count, entries: deps.requests.entries };
    sendJson(res, 200, { data, request_id: requestId }, headers);
    return;
  }
  if (path === '/__sandbox/changes' || path.startsWith('/__sandbox/changes/')) {
    const subPath = path.slice('/__sandbox/changes'.length);
    const { status, data } = await runChangeRoute(deps.changes, method, subPath, () => readJsonBody(req));
    sendJson(res, status, { data, request_id: requestId }, headers);
    return;
  }
  throw notFound(`No sandbox control at ${path}.`);
}
