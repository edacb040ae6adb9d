/**
 * A person waiting in a chat gets an answer by a deadline, whatever the Linen API does: when the answer is not
 * ready after about 2 s an interim message says it is on its way, and when it is not ready by the deadline one
 * sentence says the Linen API is not answering. The work left behind is bounded by the interactive client's
 * own budgets (see linen.ts) and its late result is dropped.
 */
import { type Content, note } from '../content/document.ts';
import { icon } from '../content/rich.ts';
import { errorView } from '../views/common.ts';
import { notAnswering } from './friendly-errors.ts';

export interface Deadlines {
  /** After this long without an answer, the interim message is shown. */
  interimMs: number;
  /** By this long, the person has an answer: the real one, or that the Linen API is not answering. */
  deadlineMs: number;
}

/** A platform shows its own error only for a missing acknowledgement; these are our own promise to the person. */
export const INTERACTIVE_DEADLINES: Deadlines = { interimMs: 2_000, deadlineMs: 15_000 };

export const INTERIM_TEXT = 'Looking that up…';

export const interimContent = (): Content => ({
  summary: [INTERIM_TEXT],
  parts: [note([icon('hourglass'), ` ${INTERIM_TEXT}`])],
});

export const notAnsweringContent = (): Content => errorView(notAnswering());

export type Outcome<T> = { inTime: true; value: T } | { inTime: false };

export interface InTimeOptions {
  deadlines: Deadlines;
  /** Called once when the interim moment passes without an answer; awaited before this returns. */
  onInterim?: (() => Promise<void>) | undefined;
  /** Called when the deadline passed: the late result is dropped (the race keeps a late failure handled). */
  onLate?: (() => void) | undefined;
}

/** `work`'s value if it settles by the deadline; the interim callback has completed by the time this returns. */
export async function answerInTime<T>(work: Promise<T>, options: InTimeOptions): Promise<Outcome<T>> {
  const { deadlines, onInterim } = options;
  let interim: Promise<void> | undefined;
  const timers: NodeJS.Timeout[] = [];
  const late = new Promise<Outcome<T>>((resolve) => {
    timers.push(setTimeout(() => resolve({ inTime: false }), deadlines.deadlineMs));
    if (onInterim) {
      timers.push(
        setTimeout(() => {
          interim = onInterim().catch(() => {});
        }, deadlines.interimMs),
      );
    }
  });
  try {
    const outcome = await Promise.race([work.then((value): Outcome<T> => ({ inTime: true, value })), late]);
    if (!outcome.inTime) options.onLate?.();
    return outcome;
  } finally {
    for (const t of timers) clearTimeout(t);
    // The final answer must follow the interim one, or it would be the one replaced.
    await interim;
  }
}
