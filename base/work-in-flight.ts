/**
 * The work a platform is still doing for requests it already answered: a request is acknowledged at once and
 * answered afterwards (Slack through its response_url, Teams by a post of the bot's), so a command's work outlives
 * its HTTP request. A shutdown waits for it, up to its drain.
 */
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

  /** Counts `work` until it settles (work that goes on after its request was answered, as Teams' does). */
  track<T>(work: Promise<T>): Promise<T> {
    this.#count++;
    const done = () => {
      this.#count--;
      if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    };
    work.then(done, done);
    return work;
  }

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
