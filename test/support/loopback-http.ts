/** What the Teams fakes share: a node:http server on 127.0.0.1 port 0, its request bodies and JSON answers. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackHandler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void | Promise<void>;

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close(): Promise<void>;
}

/** Serves `handler` on a free loopback port; a handler that throws answers 500 with the error's message. */
export async function serveOnLoopback(handler: LoopbackHandler): Promise<LoopbackServer> {
  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      await handler(req, res, Buffer.concat(chunks));
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** The bearer token of a request, or undefined. */
export function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '');
  return m?.[1];
}
