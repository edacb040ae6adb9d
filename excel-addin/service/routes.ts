/**
 * Everything the service answers for Excel, behind one framework-free function: `routes(req, res)` answers a
 * request under `/excel` and resolves true, or leaves it alone and resolves false (synchronously decided, before
 * anything is read), so any Node HTTP server can mount it in front of its own listener (see mount.ts).
 *
 *   /excel                 -> /excel/
 *   /excel/api/v1/<path>   the relay to the Linen API (relay.ts)
 *   /excel/api/...         404 (the relay speaks v1 only)
 *   /excel/<file>          the built add-in (files.ts; /excel/ is the runtime page)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AsyncTransport } from '../../shared/core/effects.ts';
import type { RequestObserver } from '../../shared/core/observer.ts';
import type { RequestPacer } from '../../shared/core/pacing.ts';
import { addinFiles } from './files.ts';
import { createRelay, RELAY_PREFIX, type RelayLog } from './relay.ts';

export interface ExcelRoutesDeps {
  /** `LINEN_BASE_URL`, ending in `/v1`. */
  baseUrl: string;
  /** The pacer every client of a key shares: today `keyPacers(...).for` (PostgreSQL across replicas). */
  pacerFor(apiKey: string): RequestPacer;
  /** The service's scrubbing logger. */
  logger: RelayLog;
  /** The service's request metrics (a `RequestObserver`), when it keeps any. */
  observer?: RequestObserver | undefined;
  /** The built add-in: dist/excel-addin. */
  filesDir: string;
  /** Tests: the relay's transport to the API (default undici). */
  transport?: AsyncTransport | undefined;
}

export interface ExcelRoutes {
  (req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Closes the relay's connections to the API. */
  close(): Promise<void>;
}

export function createExcelRoutes(deps: ExcelRoutesDeps): ExcelRoutes {
  const relay = createRelay({
    baseUrl: deps.baseUrl,
    pacerFor: deps.pacerFor,
    log: deps.logger,
    observer: deps.observer,
    transport: deps.transport,
  });
  const files = addinFiles(deps.filesDir);
  const routes = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    if (path === '/excel') {
      res.writeHead(308, { location: '/excel/' });
      res.end();
      return true;
    }
    if (!path.startsWith('/excel/')) return false;
    if (path.startsWith(`${RELAY_PREFIX}/`)) await relay.handle(req, res);
    else if (path === '/excel/api' || path.startsWith('/excel/api/')) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error: { code: 'not_found', message: 'The relay is at /excel/api/v1.' } }));
    } else await files.handle(req, res);
    return true;
  };
  return Object.assign(routes, { close: () => relay.close() });
}
