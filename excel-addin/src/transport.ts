/**
 * The add-in's transport: the runtime's `fetch`, always to the service's relay on the page's own origin (the Linen
 * API names no CORS headers, so Excel would block a call to its origin). No redirect is followed, no cookie sent.
 * The relay's own failures (the API unreachable or too slow behind it) come back as the client's errors for them,
 * so a cell says what Sheets says.
 */
import type { AsyncTransport, HttpResponse } from '../../shared/core/effects.ts';
import { abortError } from '../../shared/core/run.ts';
import { ConnectionError, TimeoutError } from '../../shared/errors.ts';

/** Set by the relay on the answers it gives itself (see excel-addin/service/relay.ts). */
export const RELAY_ERROR_HEADER = 'x-linen-relay-error';

type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export function fetchTransport(fetchFn: Fetch): AsyncTransport {
  return {
    async request(req, options): Promise<HttpResponse> {
      const { signal, timeoutMs } = options;
      if (signal?.aborted) throw abortError(signal);
      const stop = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        stop.abort();
      }, timeoutMs);
      const onAbort = () => stop.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      const path = req.url.replace(/^[a-z]+:\/\/[^/]+/i, '').replace(/\?.*$/, '');
      try {
        // A browser sets its own User-Agent; the key goes in the Authorization header, same origin only.
        const { 'user-agent': _agent, ...headers } = req.headers;
        const res = await fetchFn(req.url, {
          method: 'GET',
          headers,
          signal: stop.signal,
          redirect: 'error',
          credentials: 'omit',
        });
        const body = req.responseType === 'bytes' ? new Uint8Array(await res.arrayBuffer()) : await res.text();
        const out: Record<string, string> = {};
        res.headers.forEach((value, name) => {
          out[name.toLowerCase()] = value;
        });
        const relayed = out[RELAY_ERROR_HEADER];
        if (relayed === 'upstream_timeout')
          throw new TimeoutError({ message: `GET ${path}: the Linen API did not answer the relay in time` });
        if (relayed === 'upstream_unreachable')
          throw new ConnectionError({ message: `GET ${path}: the relay could not reach the Linen API` });
        return { status: res.status, headers: out, body };
      } catch (e) {
        if (signal?.aborted) throw abortError(signal);
        if (e instanceof TimeoutError || e instanceof ConnectionError) throw e;
        if (timedOut) throw new TimeoutError({ message: `GET ${path} timed out after ${timeoutMs} ms` });
        throw new ConnectionError({ message: `GET ${path} failed: ${e instanceof Error ? e.message : String(e)}` });
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      }
    },
  };
}
