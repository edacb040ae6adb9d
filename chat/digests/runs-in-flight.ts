/**
 * The runs a worker has claimed and not yet carried to their end. The worker claims the next batch of a backlog
 * while earlier ones are still going out, up to a bound; a run claimed again while still here (its lease ran out
 * while it waited for its channel) is left to the delivery already under way.
 */
export class RunsInFlight {
  readonly #ids = new Set<string>();
  #waiters: (() => void)[] = [];

  get size(): number {
    return this.#ids.size;
  }

  ids(): IterableIterator<string> {
    return this.#ids.values();
  }

  has(runId: string): boolean {
    return this.#ids.has(runId);
  }

  add(runId: string): void {
    this.#ids.add(runId);
  }

  delete(runId: string): void {
    if (!this.#ids.delete(runId)) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once fewer than `count` runs are in flight. */
  async below(count: number): Promise<void> {
    while (this.#ids.size >= count) await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }
}
