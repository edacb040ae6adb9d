/**
 * Recent answers, each until its freshness ends, in a bounded memory: the least recently used go first when the
 * entries or their bodies exceed the limits. Entries are named by the key's fingerprint and the URL, so one key's
 * answers are never another's.
 */
import type { HttpResponse } from '../core/effects.ts';

export interface CacheLimits {
  /** Total size of the kept bodies (default 16 MiB). */
  maxBytes: number;
  /** Entries kept (default 2,000). */
  maxEntries: number;
}

export const DEFAULT_CACHE_LIMITS: CacheLimits = { maxBytes: 16 * 1024 * 1024, maxEntries: 2_000 };

interface Entry {
  response: HttpResponse;
  bytes: number;
  expiresAt: number;
}

/** A body's size in memory: UTF-16 for text. */
const sizeOf = (res: HttpResponse) => (typeof res.body === 'string' ? res.body.length * 2 : res.body.byteLength);

export class AnswerCache {
  readonly #limits: CacheLimits;
  // A Map keeps insertion order: re-inserting on each hit makes the first entry the least recently used.
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(limits: Partial<CacheLimits> = {}) {
    this.#limits = { ...DEFAULT_CACHE_LIMITS, ...limits };
  }

  get size(): number {
    return this.#entries.size;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The answer kept under `id`, if still fresh at `nowMs`. */
  get(id: string, nowMs: number): HttpResponse | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    this.#entries.delete(id);
    if (entry.expiresAt <= nowMs) {
      this.#bytes -= entry.bytes;
      return undefined;
    }
    this.#entries.set(id, entry);
    return entry.response;
  }

  /** Keep `response` under `id` until `expiresAt`; a body over an eighth of the memory limit is not kept. */
  set(id: string, response: HttpResponse, expiresAt: number): void {
    this.delete(id);
    const bytes = sizeOf(response);
    if (bytes > this.#limits.maxBytes / 8) return;
    this.#entries.set(id, { response, bytes, expiresAt });
    this.#bytes += bytes;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.#limits.maxBytes && this.#entries.size <= this.#limits.maxEntries) break;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
  }

  /** Forgets every answer whose id starts with `prefix` (all of one key's: its fingerprint and a space). */
  deleteStartingWith(prefix: string): void {
    for (const id of [...this.#entries.keys()]) if (id.startsWith(prefix)) this.delete(id);
  }

  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#bytes -= entry.bytes;
  }
}
