/**
 * A small HTTP server of GET routes alone, on its own port and address: `/metrics` when `METRICS_PORT` is set
 * (metrics-endpoint.ts). Everything else is served by the service's one server (http-server.ts).
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
