/**
 * Graceful shutdown: how long the service waits before it closes its store (the work under way is counted by each
 * platform's WorkInFlight, chat/work-in-flight.ts), and the requests that still reach it while it stops, refused.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { INTERACTIVE_DEADLINES } from '../chat/answers/answer-in-time.ts';

/**
 * How long a shutdown waits for commands and digests under way: a command's deadline, and its answer's post. The
 * store is closed after it, and the process gone well inside 20 s.
 */
export const DRAIN_MS = INTERACTIVE_DEADLINES.deadlineMs + 2_000;

/** After the drain, how long closing the Linen clients may take (a request still open is abandoned). */
export const CLOSE_MS = 1_000;

/**
 * Once stopping, a request on a connection still open (new connections are refused: the listener is closed) gets
 * 503 and the connection is closed, except the operator's probes in `probes`.
 */
export function refuseWhileStopping(
  listener: RequestListener,
  isStopping: () => boolean,
  probes: readonly string[],
): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    if (isStopping() && !probes.includes(new URL(req.url ?? '/', 'http://localhost').pathname)) {
      res.writeHead(503, { 'content-type': 'application/json', connection: 'close', 'retry-after': '5' });
      res.end(JSON.stringify({ ok: false, error: 'shutting down' }));
      return;
    }
    listener(req, res);
  };
}
