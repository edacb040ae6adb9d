/** JSON responses with the API's headers. */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ApiError, errorEnvelope } from './errors.ts';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function newRequestId(): string {
  return `req_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

export function sendError(
  res: ServerResponse,
  err: ApiError,
  requestId: string,
  headers: Record<string, string>,
): void {
  sendJson(res, err.status, errorEnvelope(err, requestId), { ...headers, ...err.headers, 'X-Request-Id': requestId });
}
