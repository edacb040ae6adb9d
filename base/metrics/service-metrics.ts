/**
 * The metrics every part of the service shares, in a registry of its own per running service (several services in
 * one test process do not share counters): the process's default metrics, the Linen API requests of each surface
 * with their pacing and shared answers, and the store's failures. Each part adds its own counters to the same
 * registry (the chat core's commands, digests and alerts: `chat/operations/metrics.ts`). Labels are bounded sets,
 * never a team, tenant, customer, key or token.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { RequestObserver } from '../../shared/core/observer.ts';

const PACING_WAIT_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60];
const WINDOW_USE_BUCKETS = [0.25, 0.5, 0.75, 0.9, 0.95, 1];

export class ServiceMetrics<Surface extends string = string> {
  readonly registry = new Registry();
  /** Where requests are counted when no other surface is named (the service's first). */
  readonly platform: Surface;
  readonly #apiRequests: Counter<'platform' | 'endpoint' | 'status'>;
  readonly #rateLimited: Counter<'platform' | 'endpoint'>;
  readonly #pacingWait: Histogram<'platform'>;
  readonly #pacingRefused: Counter<'platform'>;
  readonly #windowUse: Histogram<'platform'>;
  readonly #coalesced: Counter<'platform' | 'endpoint'>;
  readonly #cacheHits: Counter<'platform' | 'endpoint'>;
  readonly #storeErrors: Counter<'operation'>;

  constructor(platform: Surface) {
    this.platform = platform;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#apiRequests = new Counter({
      name: 'linen_api_requests_total',
      help: 'Linen API requests sent, by endpoint template and status (HTTP code, timeout or connection).',
      labelNames: ['platform', 'endpoint', 'status'],
      registers,
    });
    this.#rateLimited = new Counter({
      name: 'linen_api_rate_limited_total',
      help: 'Linen API answers 429 (rate limited): a key went over its 120 requests a minute.',
      labelNames: ['platform', 'endpoint'],
      registers,
    });
    this.#pacingWait = new Histogram({
      name: 'linen_pacing_wait_seconds',
      help: "Waits for a slot of a key's pacing before a request, in seconds.",
      labelNames: ['platform'],
      buckets: PACING_WAIT_BUCKETS,
      registers,
    });
    this.#pacingRefused = new Counter({
      name: 'linen_pacing_refused_total',
      help: "Calls answered busy because the key's next pacing slot frees beyond the call's time budget.",
      labelNames: ['platform'],
      registers,
    });
    this.#windowUse = new Histogram({
      name: 'linen_pacing_window_use_ratio',
      help: "How full its key's window of 120 requests a minute was when a request took its slot (1: the last slot).",
      labelNames: ['platform'],
      buckets: WINDOW_USE_BUCKETS,
      registers,
    });
    this.#coalesced = new Counter({
      name: 'linen_api_coalesced_total',
      help: 'Requests not sent because the same one of the same key was already in flight.',
      labelNames: ['platform', 'endpoint'],
      registers,
    });
    this.#cacheHits = new Counter({
      name: 'linen_api_cache_hits_total',
      help: 'Requests answered from an answer of the same key kept while fresh.',
      labelNames: ['platform', 'endpoint'],
      registers,
    });
    this.#storeErrors = new Counter({
      name: 'linen_store_errors_total',
      help: "Failed operations of the service's store (PostgreSQL or PGlite), by operation.",
      labelNames: ['operation'],
      registers,
    });
  }

  /** What the Linen clients of one surface report, counted here under it. */
  linenObserverFor(platform: Surface): RequestObserver {
    return {
      request: ({ endpoint, status }) => {
        this.#apiRequests.inc({ platform, endpoint, status });
        if (status === '429') this.#rateLimited.inc({ platform, endpoint });
      },
      pacingWait: ({ seconds }) => this.#pacingWait.observe({ platform }, seconds),
      pacingRefused: () => this.#pacingRefused.inc({ platform }),
      slotTaken: ({ used, limit }) => this.#windowUse.observe({ platform }, used / limit),
      shared: ({ endpoint, how }) => (how === 'cached' ? this.#cacheHits : this.#coalesced).inc({ platform, endpoint }),
    };
  }

  /** What the service's own Linen clients report, counted under its first surface. */
  get linenObserver(): RequestObserver {
    return this.linenObserverFor(this.platform);
  }

  storeError(operation: string): void {
    this.#storeErrors.inc({ operation });
  }
}
