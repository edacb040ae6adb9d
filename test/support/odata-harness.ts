/**
 * The OData feed over real HTTP in front of the sandbox: the feed's routes on a loopback server (each key paced in
 * the process, as the service does without PostgreSQL), the sandbox pinned to TODAY, and the feed's log lines
 * kept for the leak check. `get` sends a request as a tool does: Basic with the key as the password.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createODataRoutes, type ODataRoutes } from '../../odata/routes.ts';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { getOrInsert } from '../../shared/collections.ts';
import type { AsyncTransport } from '../../shared/core/effects.ts';
import { Pacer, type RequestPacer } from '../../shared/core/pacing.ts';
import { UndiciTransport } from '../../shared/node.ts';
import { keyFingerprint } from '../../shared/sharing/shared-answers.ts';

export const TODAY = '2026-11-05';
export const TZ = 'America/Chicago';
export const DEMO_KEY = 'lk_live_demo_all_access';
/** Noon of TODAY in the organization's time zone, as UTC: the feed's "today" for open-ended windows. */
export const NOW = Date.parse(`${TODAY}T18:00:00Z`);

export interface ODataHarness {
  sandbox: Sandbox;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `http://127.0.0.1:PORT/odata/` */
  root: string;
  logs: string[];
  /** Every request the feed sent to the API, as its URL (the key travels in a header, never here). */
  apiUrls: URL[];
  /** A request to the feed (a path under the origin), Basic with `key` as the password unless `auth` is given. */
  get(
    path: string,
    o?: { key?: string; auth?: string | null; method?: string; headers?: Record<string, string> },
  ): Promise<Response>;
  close(): Promise<void>;
}

export const basic = (key: string, user = 'analyst') => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;

export async function startODataHarness(
  o: { publicUrl?: string; sandbox?: Sandbox; rateLimit?: { limit: number; windowMs: number } } = {},
): Promise<ODataHarness> {
  const rateLimit = o.rateLimit ?? { limit: 100_000, windowMs: 60_000 };
  const sandbox = o.sandbox ?? (await startSandbox({ port: 0, today: TODAY, timeZone: TZ, rateLimit }));
  const pacers = new Map<string, RequestPacer>();
  const logs: string[] = [];
  const apiUrls: URL[] = [];
  const undici = new UndiciTransport();
  const transport: AsyncTransport = {
    request(req, options) {
      apiUrls.push(new URL(req.url));
      return undici.request(req, options);
    },
    close: () => undici.close(),
  };
  const line = (level: string) => (text: string) => logs.push(`${level} ${text}`);
  const routes: ODataRoutes = createODataRoutes({
    baseUrl: sandbox.baseUrl,
    pacerFor: (key) => getOrInsert(pacers, keyFingerprint(key), () => new Pacer({ ...rateLimit })),
    logger: { info: line('info'), warn: line('warn'), error: line('error'), debug: line('debug') },
    publicUrl: o.publicUrl,
    transport,
    now: () => NOW,
  });
  const server: Server = createServer((req, res) => {
    routes(req, res).then(
      (handled) => {
        if (!handled) {
          res.writeHead(404);
          res.end();
        }
      },
      () => {
        res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    sandbox,
    origin,
    root: `${origin}/odata/`,
    logs,
    apiUrls,
    get(path, r = {}) {
      const auth = r.auth === undefined ? basic(r.key ?? DEMO_KEY) : r.auth;
      return fetch(`${origin}${path}`, {
        method: r.method ?? 'GET',
        headers: { ...(auth === null ? {} : { authorization: auth }), ...r.headers },
      });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await routes.close();
      if (!o.sandbox) await sandbox.close();
    },
  };
}
