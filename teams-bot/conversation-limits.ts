/**
 * Teams' limits on what one bot sends to one conversation (a 1:1 chat, a group chat, or a channel with its
 * threads): 7 operations a second, 8 in 2 seconds, 60 in 30 seconds. Every post and update of this process waits
 * here for room in each window, so thirty people asking in one channel at once are answered in turn instead of
 * being refused with 429. Other replicas are not counted: their 429s are waited out by the caller. The hourly
 * limit (1,800) is left to that 429 handling too: no conversation of ours comes near it.
 */
import { Lru } from '../chat/connections/lru.ts';
import { sleep } from '../chat/digests/delivery/retry.ts';

export const CONVERSATION_LIMITS: readonly { windowMs: number; limit: number }[] = [
  { windowMs: 1_000, limit: 7 },
  { windowMs: 2_000, limit: 8 },
  { windowMs: 30_000, limit: 60 },
];
const LONGEST_MS = Math.max(...CONVERSATION_LIMITS.map((w) => w.windowMs));

export class ConversationLimits {
  /**
   * Each conversation's recent operations, oldest first: when each was let through, then when Teams answered it.
   * Teams counts a call when it arrives, somewhere in between: counting from the answer keeps a margin for that.
   */
  readonly #sent = new Lru<string, { at: number }[]>(10_000);
  readonly #queues = new Map<string, Promise<unknown>>();
  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly wait: (ms: number) => Promise<void> = sleep,
  ) {}

  /**
   * Resolves once one more operation in `conversation` keeps within every window, and counts it; call what it
   * resolves to when Teams has answered.
   */
  take(conversation: string): Promise<() => void> {
    const mine = (this.#queues.get(conversation) ?? Promise.resolve()).then(() => this.#admit(conversation));
    this.#queues.set(conversation, mine);
    void mine.then(() => {
      if (this.#queues.get(conversation) === mine) this.#queues.delete(conversation);
    });
    return mine;
  }

  /** How long until one more operation fits (0: now). */
  waitFor(conversation: string): number {
    const sent = (this.#sent.get(conversation) ?? []).map((s) => s.at).sort((a, b) => a - b);
    const at = this.now();
    let wait = 0;
    for (const { windowMs, limit } of CONVERSATION_LIMITS) {
      const inWindow = sent.filter((t) => t > at - windowMs);
      if (inWindow.length >= limit) wait = Math.max(wait, inWindow[inWindow.length - limit]! + windowMs - at);
    }
    return wait;
  }

  async #admit(conversation: string): Promise<() => void> {
    for (let wait = this.waitFor(conversation); wait > 0; wait = this.waitFor(conversation)) await this.wait(wait);
    const at = this.now();
    const sent = (this.#sent.get(conversation) ?? []).filter((s) => s.at > at - LONGEST_MS);
    const mine = { at };
    sent.push(mine);
    this.#sent.set(conversation, sent);
    return () => {
      mine.at = Math.max(mine.at, this.now());
    };
  }
}
