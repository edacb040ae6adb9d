/**
 * Graceful shutdown: what the bot waits for before it closes its store. A request is acknowledged at once and
 * answered afterwards (through its response_url), so the work of a command outlives its HTTP request; it is
 * counted here until its listener is done. Requests that still reach the bot while it stops are refused.
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

export class WorkInFlight {
  #count = 0;
  #waiters: (() => void)[] = [];

  get size(): number {
    return this.#count;
  }

  /** Bolt global middleware: each request counts until every listener it reached is done. */
  readonly middleware = async ({ next }: { next: () => Promise<void> }): Promise<void> => {
    this.#count++;
    try {
      await next();
    } finally {
      this.#count--;
      if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  };

  /** True once nothing is under way; false if something still is after `ms`. */
  idle(ms: number): Promise<boolean> {
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== wake);
        resolve(false);
      }, ms);
      this.#waiters.push(wake);
    });
  }
}

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
