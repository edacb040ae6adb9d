/**
 * Group commit: requests arriving while a write is in flight (or within `windowMs` of the first) are written
 * together by one set-based statement. Each caller gets its own row's answer; a failed statement rejects every
 * request it carried (each caller then handles it as its own transient failure).
 */
export class GroupCommit<Req, Res> {
  #queue: { req: Req; resolve: (r: Res) => void; reject: (e: unknown) => void }[] = [];
  #scheduled = false;
  #inFlight: Promise<void> | null = null;

  constructor(
    private readonly write: (batch: Req[]) => Promise<Res[]>,
    private readonly windowMs = 0,
    private readonly maxBatch = 500,
  ) {}

  submit(req: Req): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      this.#queue.push({ req, resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves once every request submitted so far has been written. */
  async drain(): Promise<void> {
    while (this.#inFlight || this.#queue.length) {
      if (this.#inFlight) await this.#inFlight;
      else this.#flush();
    }
  }

  /** The first request waits `windowMs` for company; those that queued behind a write go right after it. */
  #schedule(afterWrite = false): void {
    if (this.#scheduled || this.#inFlight) return;
    this.#scheduled = true;
    const go = () => {
      this.#scheduled = false;
      if (!this.#inFlight) this.#flush();
    };
    if (this.windowMs > 0 && !afterWrite) setTimeout(go, this.windowMs);
    else setImmediate(go);
  }

  #flush(): void {
    const batch = this.#queue.splice(0, this.maxBatch);
    if (!batch.length) return;
    this.#inFlight = (async () => {
      try {
        const out = await this.write(batch.map((b) => b.req));
        for (const [i, b] of batch.entries()) b.resolve(out[i]!);
      } catch (e) {
        for (const b of batch) b.reject(e);
      }
    })().finally(() => {
      this.#inFlight = null;
      if (this.#queue.length) this.#schedule(true);
    });
  }
}
