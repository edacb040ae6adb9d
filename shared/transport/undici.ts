/**
 * The Node transport: one keep-alive undici Agent for all requests of a client. The only file in shared/
 * that imports undici, so everything else stays bundleable for Apps Script.
 */
import { Agent, request } from 'undici';
import type { AsyncTransport, HttpRequest, HttpResponse } from '../core/effects.ts';
import { ConnectionError, TimeoutError } from '../errors.ts';

export interface UndiciTransportOptions {
  /** TCP/TLS connect timeout (default 10 s). */
  connectTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this long (default 30 s). */
  keepAliveTimeoutMs?: number;
  /** Maximum sockets per origin (default 8). */
  connections?: number;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function secretsOf(req: HttpRequest): string[] {
  const auth = req.headers.authorization ?? '';
  const token = auth.replace(/^bearer\s+/i, '');
  return token ? [token, auth] : [];
}

export class UndiciTransport implements AsyncTransport {
  readonly #agent: Agent;

  constructor(options: UndiciTransportOptions = {}) {
    this.#agent = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 10_000 },
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      connections: options.connections ?? 8,
    });
  }

  async request(req: HttpRequest, options: { signal?: AbortSignal; timeoutMs: number }): Promise<HttpResponse> {
    const timeout = AbortSignal.timeout(Math.max(1, options.timeoutMs));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const secrets = secretsOf(req);
    try {
      const res = await request(req.url, {
        dispatcher: this.#agent,
        method: req.method,
        headers: req.headers,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      const body = req.responseType === 'bytes' ? new Uint8Array(await res.body.arrayBuffer()) : await res.body.text();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { status: res.statusCode, headers, body };
    } catch (e) {
      if (options.signal?.aborted) throw e;
      const code = String((e as { code?: unknown }).code ?? '');
      const msg = e instanceof Error ? e.message : String(e);
      if (timeout.aborted || TIMEOUT_CODES.has(code)) {
        throw new TimeoutError({
          message: `${req.method} ${new URL(req.url).pathname} timed out after ${options.timeoutMs} ms`,
          secrets,
          cause: e,
        });
      }
      throw new ConnectionError({
        message: `${req.method} ${new URL(req.url).pathname} failed: ${code ? `${code} ` : ''}${msg}`,
        secrets,
        cause: e,
      });
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
