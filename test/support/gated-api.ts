/**
 * A pass-through HTTP proxy in front of the sandbox that holds every request until the test lets it through, and
 * notes whether the requester hung up before its answer: how a test sees that a request was cancelled upstream.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createWaiters } from './waiters.ts';

export interface HeldRequest {
  path: string;
  /** The requester closed the connection before the answer. */
  closedEarly: boolean;
  answered: boolean;
}

export interface GatedApi {
  /** The proxy's address with the target's path, e.g. `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  held: HeldRequest[];
  /** Let every held request (and every later one) through. */
  open(): void;
  /** Resolves once `check` holds (checked at every request and hang-up). */
  until(check: () => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

export async function startGatedApi(targetBaseUrl: string): Promise<GatedApi> {
  const target = new URL(targetBaseUrl);
  const held: HeldRequest[] = [];
  let isOpen = false;
  const waiting: (() => void)[] = [];
  const { notify, waitFor } = createWaiters();
  const server = createServer((req, res) => {
    const entry: HeldRequest = { path: req.url ?? '', closedEarly: false, answered: false };
    held.push(entry);
    notify();
    res.once('close', () => {
      if (!entry.answered) entry.closedEarly = true;
      notify();
    });
    const forward = () => {
      if (entry.closedEarly) return;
      const upstream = request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
        (up) => {
          entry.answered = true;
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      upstream.end();
    };
    if (isOpen) forward();
    else waiting.push(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    held,
    open() {
      isOpen = true;
      for (const go of waiting.splice(0)) go();
    },
    until: async (check, what) => {
      await waitFor(() => (check() ? true : undefined), 15_000, what);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A gated API in front of `target()` for each test of a file that asks for one (`const gated = gatedApis(...)`, then
 * `await gated()` in the test): let through and closed after the test, whatever it left held.
 */
export function gatedApis(target: () => string): () => Promise<GatedApi> {
  const started: GatedApi[] = [];
  afterEach(async () => {
    for (const g of started.splice(0)) {
      g.open();
      await g.close();
    }
  });
  return async () => {
    const g = await startGatedApi(target());
    started.push(g);
    return g;
  };
}
