/**
 * Acknowledgements first: Slack wants every request acknowledged within 3 seconds and Teams within 15, and on one
 * event loop a command's answer (its API calls, parsing, cards, the post of the answer) takes turns with the
 * acknowledgements of the requests behind it. Work done after an acknowledgement waits until no request to the bot
 * is left unanswered, so a burst is acknowledged before any of it is answered. The wait is capped: a request whose
 * body is still arriving, or one that is slow to answer, never holds the answers back for more than MAX_WAIT_MS.
 *
 * One count for the process, not one per adapter: Slack's and Teams' requests share its event loop, so an answer
 * on either platform gives way to the acknowledgements of both.
 */
import type { ServerResponse } from 'node:http';

export const MAX_WAIT_MS = 500;

let unanswered = 0;
let waiters: (() => void)[] = [];
let releasing = false;

/**
 * Lets the waiting work go in the order it came, one piece a turn of the event loop: requests that arrived meanwhile
 * are read in between (a busy machine delivers a burst in waves), and one read stops the rest until it is answered.
 * All at once, the start of every answer of a wave would run before the next wave is read.
 */
function releaseInTurn(): void {
  if (releasing) return;
  releasing = true;
  const next = () =>
    setImmediate(() => {
      const wake = unanswered === 0 ? waiters.shift() : undefined;
      if (!wake) {
        releasing = false;
        return;
      }
      wake();
      next();
    });
  next();
}

/**
 * Counts a request to the bot until its response is sent (or its connection closes), or until the function returned
 * is called: a request whose answer is itself work (a Teams invoke answered with its result) is let go once known.
 */
export function trackUnanswered(res: ServerResponse): () => void {
  unanswered++;
  let counted = true;
  const answered = () => {
    if (!counted) return;
    counted = false;
    res.off('close', answered);
    unanswered--;
    if (unanswered === 0) releaseInTurn();
  };
  res.once('close', answered);
  return answered;
}

/**
 * Resolves once every request received so far has been answered and the work queued before is under way, or after
 * MAX_WAIT_MS.
 */
export function yieldToPendingAcks(): Promise<void> {
  return new Promise<void>((resolve) =>
    // setImmediate first: requests already read from their sockets get their turn at the acknowledgement.
    setImmediate(() => {
      if (unanswered === 0 && waiters.length === 0) return resolve();
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
      if (unanswered === 0) releaseInTurn();
    }),
  );
}
