/**
 * The service's one HTTP server on `PORT` (at `BIND_ADDRESS`): the operator's probes (`/healthz`, `/readyz`, and
 * `/metrics` with its token), then each mounted part in turn (Slack's `/slack/...`, Teams' `/api/messages`,
 * Excel's `/excel/...`), each answering the requests of its own paths. Once stopping, a request on a connection
 * still open gets 503, except the probes.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from './listen.ts';
import { refuseWhileStopping } from './shutdown.ts';

/** Answers a request and says so, or leaves it (false) for the next route. */
export type Route = (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;

export type GetHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpServerOptions {
  port: number;
  host?: string | undefined;
  /** GET handlers by exact path: the probes, answered even while stopping. */
  probes: Readonly<Record<string, GetHandler>>;
  /** The mounted parts, asked in order. */
  routes: readonly Route[];
  isStopping: () => boolean;
  /** A route that failed unexpectedly (its own errors are its to answer). */
  onError?: ((err: unknown) => void) | undefined;
}

export interface HttpServer {
  server: Server;
  port: number;
  /** The address it listens on (`::` or `0.0.0.0`: all interfaces). */
  address: string;
  /** Stops listening and ends the connections still open. */
  close(): Promise<void>;
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('Not found\n');
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const probe = Object.hasOwn(options.probes, path) ? options.probes[path] : undefined;
    if (probe && req.method === 'GET') return probe(req, res);
    for (const route of options.routes) if (await route(req, res)) return;
    notFound(res);
  };
  const listener = refuseWhileStopping(
    (req, res) => {
      serve(req, res).catch((err: unknown) => {
        options.onError?.(err);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('Internal error\n');
        } else res.end();
      });
    },
    options.isStopping,
    Object.keys(options.probes),
  );
  const server = createServer(listener);
  return { server, ...(await listen(server, options.port, options.host)) };
}
