/**
 * The sandbox Linen API: `startSandbox()` serves seeded data over HTTP exactly as `docs/linen-api-v1.md` describes,
 * with the decisions of sandbox/README.md.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SandboxChanges } from './changes/index.ts';
import { DataStore, noonOf } from './changes/store.ts';
import type { SandboxData } from './model.ts';
import { routes } from './routes/index.ts';
import { CursorCodec } from './server/cursor.ts';
import { isLocalDate, isTimeZone, todayIn } from './server/dates.ts';
import { FaultController, type FaultSettings } from './server/faults.ts';
import { createSandboxServer } from './server/http.ts';
import { LinkSigner } from './server/links.ts';
import { RateLimiter, type RateLimitOptions } from './server/rate-limit.ts';
import { RequestLog } from './server/request-log.ts';
import { Router } from './server/router.ts';

export type { SandboxData } from './model.ts';
export {
  FaultController,
  type FaultKind,
  type FaultSettings,
  parseFaultSpec,
  type QueuedFault,
} from './server/faults.ts';

export interface SandboxOptions {
  /** 0 picks a free port (default 0). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** The organization's timezone (default America/Chicago). Ignored when `data` is given. */
  timeZone?: string;
  /** Seed of the generated data (default `linen`). */
  seed?: string;
  /** "Today", `YYYY-MM-DD` org-local; default the current org-local day (or `data.seeded.today` with `data`). */
  today?: string;
  /** Default 120 requests per 60 000 ms per key. */
  rateLimit?: Partial<RateLimitOptions>;
  /** Wall clock (epoch ms) for PDF link expiry and the default "today". Rate limiting uses a monotonic clock. */
  now?: () => number;
  /** Initial fault settings (all off by default). */
  faults?: Partial<FaultSettings>;
  /** Serve this data instead of generating it. */
  data?: SandboxData;
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  /** The data served now: the seeded data, or the version the latest change made. */
  readonly data: SandboxData;
  faults: FaultController;
  /** Changes the served data while the server runs (also over HTTP under `/__sandbox/changes`). */
  changes: SandboxChanges;
  /** Every authenticated /v1 request received, with the fault it met (also `GET /__sandbox/requests`). */
  requests: RequestLog;
  close(): Promise<void>;
}

export const DEFAULT_TIME_ZONE = 'America/Chicago';
export const DEFAULT_SEED = 'linen';
export const DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 120, windowMs: 60_000 };

const generated = new Map<string, SandboxData>();

/** Generated data, once per seed, day and timezone for the whole process. */
export async function loadSandboxData(options: {
  today: string;
  timeZone: string;
  seed: string;
  asOf?: number;
}): Promise<SandboxData> {
  const cacheKey = `${options.seed}\u0000${options.today}\u0000${options.timeZone}\u0000${options.asOf ?? 'noon'}`;
  const cached = generated.get(cacheKey);
  if (cached) return cached;
  const { generateSandboxData } = await import('./seed/index.ts');
  const data: SandboxData = generateSandboxData(options);
  generated.set(cacheKey, data);
  return data;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const now = options.now ?? Date.now;
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new RangeError(`port must be an integer from 0 to 65535`);
  if (options.today !== undefined && !isLocalDate(options.today))
    throw new RangeError(`today must be a YYYY-MM-DD day`);

  let data: SandboxData;
  const startedAt = now();
  // The instant the data is "as of": changes are stamped after it.
  let asOf: number;
  if (options.data) {
    data = options.data;
    asOf = noonOf(data.seeded.today, data.organization.time_zone);
  } else {
    const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;
    if (!isTimeZone(timeZone)) throw new RangeError(`unknown timezone "${timeZone}"`);
    const seed = options.seed ?? DEFAULT_SEED;
    // A pinned day is seeded as of its noon (reproducible); otherwise the data is as of this instant, so nothing
    // seeded lies in the future.
    asOf = options.today !== undefined ? noonOf(options.today, timeZone) : startedAt;
    data = await loadSandboxData(
      options.today !== undefined
        ? { today: options.today, timeZone, seed }
        : { today: todayIn(timeZone, startedAt), timeZone, seed, asOf: startedAt },
    );
  }
  const tz = data.organization.time_zone;
  const pinnedToday = options.today ?? (options.data ? data.seeded.today : undefined);
  const today = pinnedToday !== undefined ? () => pinnedToday : () => todayIn(tz, now());

  const rateLimit = { ...DEFAULT_RATE_LIMIT, ...options.rateLimit };
  const faults = new FaultController(options.faults ?? {});
  const requests = new RequestLog();
  const store = new DataStore(data);
  const changes = new SandboxChanges({ store, today, now, asOf, startedAt });
  const secret = randomBytes(32);
  let origin = '';
  const server = createSandboxServer({
    store,
    changes,
    router: new Router(routes),
    limiter: new RateLimiter(rateLimit),
    faults,
    requests,
    cursors: new CursorCodec(Buffer.concat([secret, Buffer.from('cursor')])),
    links: new LinkSigner(Buffer.concat([secret, Buffer.from('pdf')])),
    today,
    now,
    fallbackOrigin: () => origin,
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const wildcard = host === '0.0.0.0' || host === '::';
  const urlHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  origin = `http://${urlHost}:${address.port}`;

  let closing: Promise<void> | null = null;
  return {
    baseUrl: `${origin}/v1`,
    origin,
    port: address.port,
    get data() {
      return store.current;
    },
    faults,
    changes,
    requests,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
