/**
 * Every authenticated /v1 request the sandbox received, with the fault it met: how tests count the requests a
 * client really sent (its retries included) without wrapping the client's transport.
 */
import type { FaultDecision } from './faults.ts';

export interface LoggedRequest {
  /** The path without the query, e.g. `/v1/invoices`. */
  path: string;
  /** The injected fault, `none` for a request served normally. */
  fault: FaultDecision['action'];
}

/** The newest entries kept: enough for any test, bounded for long runs (soak, benchmarks). */
const KEEP = 10_000;

export class RequestLog {
  #entries: LoggedRequest[] = [];
  #total = 0;

  record(entry: LoggedRequest): void {
    this.#total += 1;
    this.#entries.push(entry);
    if (this.#entries.length > KEEP) this.#entries.splice(0, this.#entries.length - KEEP);
  }

  /** Requests since the start or the last `clear()`. */
  get count(): number {
    return this.#total;
  }

  /** The newest requests, oldest first (at most 10,000). */
  get entries(): readonly LoggedRequest[] {
    return this.#entries.map((e) => ({ ...e }));
  }

  clear(): void {
    this.#entries = [];
    this.#total = 0;
  }
}
