/**
 * Checks made in front of Bolt's HTTPReceiver, before a request's body is read or anything is done with it:
 * - a body larger than `MAX_BODY_BYTES` (declared in Content-Length) is refused with 413; a body sent without a
 *   length is cut off at the same size by the receiver's own `bodyLimit`;
 * - a timestamp more than 5 minutes in the future is refused with 401, like one more than 5 minutes in the past
 *   (which Bolt refuses itself): a signed request replayed later must not be accepted because its clock was ahead.
 * The signature itself is verified by Bolt. Every request let through is counted until it is answered, so that
 * listeners acknowledge a burst before answering any of it (`base/pending-acks.ts`).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { trackUnanswered } from '../base/pending-acks.ts';

/**
 * The largest body accepted. A slash command is a few KB (its text is at most 4,000 characters); the largest
 * interaction is a click on a message at Block Kit's limits (50 blocks of 3,000 characters), which Slack sends
 * with the whole message, form-encoded: about 150 KB of text, up to three times that once encoded. 512 KB
 * keeps every real request and refuses the rest long before Bolt's own 4 MB.
 */
export const MAX_BODY_BYTES = 512 * 1024;

/** Slack's replay window: the request's timestamp must be within 5 minutes of our clock, either way. */
export const MAX_CLOCK_SKEW_S = 5 * 60;

export interface GuardOptions {
  /** The paths Slack posts to (the receiver's endpoints). */
  paths: readonly string[];
  /** One line per refused request (no header values: they may carry a signature). */
  warn: (line: string) => void;
}

type Refusal = { status: 401 | 413; reason: string };

function refusalOf(req: IncomingMessage, nowMs: number): Refusal | undefined {
  const length = Number(req.headers['content-length']);
  if (Number.isFinite(length) && length > MAX_BODY_BYTES)
    return { status: 413, reason: `a body of ${length} bytes (limit ${MAX_BODY_BYTES})` };
  const raw = req.headers['x-slack-request-timestamp'];
  const ts = typeof raw === 'string' ? Number(raw) : Number.NaN;
  if (Number.isFinite(ts) && ts > Math.floor(nowMs / 1000) + MAX_CLOCK_SKEW_S)
    return { status: 401, reason: 'a timestamp more than 5 minutes in the future' };
  return undefined;
}

/** The receiver's request listener behind the checks above. */
export function guardSlackRequests(listener: RequestListener, options: GuardOptions): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (req.method === 'POST' && options.paths.includes(path)) {
      // The wall clock, as Bolt's own check: Slack's timestamps are real time.
      const refusal = refusalOf(req, Date.now());
      if (refusal) {
        options.warn(`refused a request to ${path}: ${refusal.reason}`);
        // The body is never read: close the connection rather than drain it.
        res.writeHead(refusal.status, { connection: 'close' });
        res.end();
        return;
      }
      trackUnanswered(res);
    }
    listener(req, res);
  };
}
