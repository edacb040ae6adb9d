/**
 * `GET /metrics` in Prometheus' text format. On its own port (`METRICS_PORT`, bound to `METRICS_BIND_ADDRESS`)
 * it is open to whoever reaches that address, unless `METRICS_TOKEN` is set, and served there by a small server of
 * its own that answers nothing else. On the bot's public port it is served only to
 * `Authorization: Bearer $METRICS_TOKEN`, and not at all without a token: the Slack-facing port must not tell the
 * internet what the service is doing.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ChatMetrics } from '../chat/operations/metrics.ts';
import { type Listening, listen } from './listen.ts';

export const METRICS_PATH = '/metrics';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Compares digests of equal length, so the time taken says nothing of the token. */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

function bearerOf(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

function plain(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(`${text}\n`);
}

/**
 * The handler. `open`: served without a token when none is set (its own port); otherwise a missing token means
 * 404, and a token set means 401 for any request without it.
 */
export function metricsHandler(metrics: ChatMetrics, options: { token: string | undefined; open: boolean }): Handler {
  return (req, res) => {
    const { token } = options;
    if (token === undefined && !options.open) return plain(res, 404, 'Not found');
    if (token !== undefined) {
      const given = bearerOf(req);
      if (given === undefined || !sameSecret(given, token))
        return plain(res, 401, 'Unauthorized', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(text);
      },
      () => plain(res, 500, 'The metrics could not be collected.'),
    );
  };
}

export type MetricsServer = Listening;

/** `GET /metrics` alone on its own port (404 for any other path or method). */
function startMetricsServer(options: { handler: Handler; port: number; host: string }): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === METRICS_PATH && req.method === 'GET') return options.handler(req, res);
    plain(res, 404, 'Not found');
  });
  return listen(server, options.port, options.host);
}

/** What `METRICS_PORT`, `METRICS_BIND_ADDRESS` and `METRICS_TOKEN` say (see config.ts). */
export interface MetricsServing {
  port: number | undefined;
  host: string;
  token: string | undefined;
}

/** `/metrics` on the bot's own port: with the token only, and only when it has no port of its own. */
export function metricsOnBotPort(metrics: ChatMetrics, serving: MetricsServing | undefined): Handler {
  const token = serving?.port === undefined ? serving?.token : undefined;
  return metricsHandler(metrics, { token, open: false });
}

/** `/metrics` on `METRICS_PORT` when it is set (undefined otherwise); a listen failure is one line naming it. */
export async function serveMetricsOwnPort(
  metrics: ChatMetrics,
  serving: MetricsServing | undefined,
): Promise<MetricsServer | undefined> {
  if (serving?.port === undefined) return undefined;
  const { port, host, token } = serving;
  return startMetricsServer({ handler: metricsHandler(metrics, { token, open: true }), port, host }).catch(
    (err: unknown) => {
      const code = (err as { code?: string }).code;
      throw new Error(
        `cannot listen on ${host} port ${port} for /metrics${code ? ` (${code})` : ''}: check METRICS_BIND_ADDRESS and METRICS_PORT.`,
      );
    },
  );
}
