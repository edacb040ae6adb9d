/**
 * The operator's GET routes (`/healthz`, `/readyz`) on their own small HTTP server, for Socket Mode (which has no
 * HTTP receiver): bound to the address the operator configures, which Bolt's Socket Mode receiver cannot do for
 * its custom routes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type Listening, listen } from './listen.ts';

export type HealthHandler = (req: IncomingMessage, res: ServerResponse) => void;

export type HealthServer = Listening;

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
  return listen(server, options.port, options.host);
}
