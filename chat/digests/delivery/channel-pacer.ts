/**
 * Paces the messages to each channel (about one a second, channels in parallel): within Slack's and Teams'
 * limits for a conversation (Teams: 7 a second and 60 in 30 seconds).
 */
import { sleep } from './retry.ts';

/** Serializes sends per channel with at least `intervalMs` between them; different channels run in parallel. */
export class ChannelPacer {
  readonly #tails = new Map<string, Promise<unknown>>();
  readonly #last = new Map<string, number>();
  constructor(
    readonly intervalMs = 1000,
    private readonly wait: (ms: number) => Promise<void> = sleep,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  run<T>(channel: string, fn: () => Promise<T>): Promise<T> {
    return this.runPrepared(channel, async () => ({ send: undefined }), fn);
  }

  /**
   * Like `run`, with `prepare` started as soon as the channel's previous send is done, alongside the spacing
   * wait (its latency does not widen the gap); `send` gets its result once the channel's slot is open. A
   * preparation that finds nothing to send (`skip`) ends at once and leaves the slot to the next one.
   */
  runPrepared<P, T>(
    channel: string,
    prepare: () => Promise<Prepared<P, T>>,
    send: (prepared: P) => Promise<T>,
  ): Promise<T> {
    const prev = this.#tails.get(channel) ?? Promise.resolve();
    const next = prev
      .catch(() => {})
      .then(async () => {
        const last = this.#last.get(channel);
        const due = last === undefined ? 0 : last + this.intervalMs - this.monotonic();
        const spaced = due > 0 ? this.wait(due) : Promise.resolve();
        const p = await prepare();
        if ('skip' in p) return p.skip;
        await spaced;
        try {
          return await send(p.send);
        } finally {
          this.#last.set(channel, this.monotonic());
        }
      });
    this.#tails.set(channel, next);
    const cleanup = () => {
      if (this.#tails.get(channel) === next) this.#tails.delete(channel);
    };
    next.then(cleanup, cleanup);
    return next;
  }
}

/** What a send's preparation found: something to send in the channel's slot, or an answer without sending. */
export type Prepared<P, T> = { send: P } | { skip: T };
