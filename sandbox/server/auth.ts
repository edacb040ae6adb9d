/** Bearer-key authentication: only `Authorization: Bearer <key>` is read, never a key in the URL. */
import type { IncomingMessage } from 'node:http';
import type { ApiKey, SandboxData, Scope } from '../model.ts';
import { ApiError } from './errors.ts';

const keyIndex = new WeakMap<SandboxData, Map<string, ApiKey>>();

function keysOf(data: SandboxData): Map<string, ApiKey> {
  let index = keyIndex.get(data);
  if (!index) {
    index = new Map(data.keys.map((k) => [k.secret, k]));
    keyIndex.set(data, index);
  }
  return index;
}

/** The active key of a request; 401 for a missing, malformed, unknown or revoked key. */
export function authenticate(req: IncomingMessage, data: SandboxData): ApiKey {
  const header = req.headers.authorization;
  if (!header) throw new ApiError(401, 'unauthorized', 'Missing API key: send it as "Authorization: Bearer <key>".');
  const m = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) {
    throw new ApiError(401, 'unauthorized', 'Malformed Authorization header: expected "Bearer <key>".');
  }
  const key = keysOf(data).get(m[1]!);
  if (!key) throw new ApiError(401, 'unauthorized', 'Unknown API key.');
  if (key.revoked) throw new ApiError(401, 'unauthorized', 'This API key has been revoked.');
  return key;
}

export function requireScope(key: ApiKey, scope: Scope | 'any'): void {
  if (scope === 'any' || key.scopes.includes(scope)) return;
  throw new ApiError(403, 'forbidden', `This API key lacks the "${scope}" scope required by this endpoint.`);
}
