/**
 * Mounting the Excel routes in front of a Node HTTP server's listener (the Slack receiver's, the standalone
 * server's): a request under `/excel` is answered by the routes, any other goes on to `listener` untouched.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ExcelRoutes } from './routes.ts';

export function withExcelRoutes(
  listener: RequestListener,
  routes: ExcelRoutes,
  onError: (line: string) => void,
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    routes(req, res).then(
      (handled) => {
        if (!handled) listener(req, res);
      },
      (e: unknown) => {
        onError(
          `excel: could not answer ${req.method} ${(req.url ?? '').split('?', 1)[0]}: ${e instanceof Error ? e.name : 'error'}`,
        );
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end();
      },
    );
  };
}
