/**
 * The operator's GET routes (`/healthz`, `/readyz`) on their own small HTTP server, for Socket Mode (which has no
 * HTTP receiver): bound to the address the operator configures, which Bolt's Socket Mode receiver cannot do for
 * its custom routes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type HealthHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HealthServer {
  port: number;
  address: string;
  close(): Promise<void>;
}

export async function startHealthServer(options: {
  /** Handlers by path, each for GET. */
  routes: Readonly<Record<string, HealthHandler>>;
  port: number;
  host?: string | undefined;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const handler = Object.hasOwn(options.routes, path) ? options.routes[path] : undefined;
    if (handler && req.method === 'GET') return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port, ...(options.host ? { host: options.host } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  return {
    port,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
