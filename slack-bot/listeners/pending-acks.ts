/**
 * Acknowledgements first: Slack wants every request acknowledged within 3 seconds, and on one event loop a
 * command's answer (its API calls, parsing, the response_url post) takes turns with the acknowledgements of the
 * requests behind it. A listener's work after its `ack()` waits until no request to the bot is left unanswered,
 * so a burst of commands is acknowledged before any of them is answered. The wait is capped: a request whose body
 * is still arriving never holds the answers back for more than MAX_WAIT_MS.
 */
import type { ServerResponse } from 'node:http';

export const MAX_WAIT_MS = 500;

let unanswered = 0;
let waiters: (() => void)[] = [];

function answered(): void {
  unanswered--;
  if (unanswered > 0) return;
  const wake = waiters;
  waiters = [];
  for (const w of wake) w();
}

/** Counts a request to the bot until its response is sent (or its connection closes). */
export function trackUnanswered(res: ServerResponse): void {
  unanswered++;
  res.once('close', answered);
}

/** Resolves once every request received so far has been answered, or after MAX_WAIT_MS. */
export function yieldToPendingAcks(): Promise<void> {
  return new Promise<void>((resolve) =>
    // setImmediate first: requests already read from their sockets get their turn at the acknowledgement.
    setImmediate(() => {
      if (unanswered === 0) return resolve();
      const timer = setTimeout(() => {
        waiters = waiters.filter((w) => w !== wake);
        resolve();
      }, MAX_WAIT_MS);
      timer.unref();
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      waiters.push(wake);
    }),
  );
}
