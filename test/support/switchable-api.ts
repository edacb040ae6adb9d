/**
 * A pass-through HTTP proxy in front of the sandbox that a test switches while the service runs: `hold()` keeps every
 * request from then on waiting until `release()` (a check stuck mid-read, deterministically), and `revoke(key)` makes
 * the API refuse that key as a revoked one (until `restore(key)`) (401 `unauthorized` in the API's error envelope), which the sandbox itself
 * cannot do to a seeded key.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWaiters } from './waiters.ts';

export interface SwitchableApi {
  /** The proxy's address with the target's path, e.g. `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Requests waiting for `release()`. */
  readonly heldCount: number;
  hold(): void;
  /** Lets every held request through, and those after it. */
  release(): void;
  revoke(apiKey: string): void;
  /** The key works again. */
  restore(apiKey: string): void;
  /** Resolves once `n` requests are held. */
  untilHeld(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startSwitchableApi(targetBaseUrl: string): Promise<SwitchableApi> {
  const target = new URL(targetBaseUrl);
  const revoked = new Set<string>();
  const held: (() => void)[] = [];
  let holding = false;
  const { notify, waitFor } = createWaiters();
  const server = createServer((req, res) => {
    const forward = () => {
      const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (bearer && revoked.has(bearer)) {
        const body = JSON.stringify({
          error: { code: 'unauthorized', message: 'This API key has been revoked.' },
          request_id: 'req_revoked0000',
        });
        res.writeHead(401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
        return;
      }
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (!holding) return forward();
    held.push(forward);
    notify();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    get heldCount() {
      return held.length;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const go of held.splice(0)) go();
    },
    revoke: (apiKey) => revoked.add(apiKey),
    restore: (apiKey) => revoked.delete(apiKey),
    untilHeld: async (n) => {
      await waitFor(() => (held.length >= n ? true : undefined), 15_000, `${n} held request(s)`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
