/**
 * UrlFetchApp takes no timeout: once the add-on starts a request, it lasts until the API answers or UrlFetchApp
 * gives up, and Sheets ends the execution at 30 s whatever it is doing. What the add-on controls is whether to
 * start one. This transport starts a request only when the call's time left (the `timeoutMs` the client passes,
 * its budget's remainder) exceeds the longest request this client has seen: at the pace the API is answering,
 * the request can end in time. Otherwise the call fails at once with "did not answer in time".
 */
import { type SyncTransport, TimeoutError } from '../../shared/index.ts';

export function latencyGuard(transport: SyncTransport): SyncTransport {
  let slowestMs = 0;
  return {
    request(req, options) {
      if (slowestMs >= options.timeoutMs) {
        throw new TimeoutError({
          message: `not started: requests take up to ${slowestMs} ms and the time budget has ${options.timeoutMs} ms left`,
        });
      }
      const started = Date.now();
      try {
        return transport.request(req, options);
      } finally {
        slowestMs = Math.max(slowestMs, Date.now() - started);
      }
    },
  };
}
