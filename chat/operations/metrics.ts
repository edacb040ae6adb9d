/**
 * The service's metrics, in a registry of its own per running bot (several bots in one test process do not
 * share counters). Labels are bounded sets: a platform, a command or action name, an outcome, an endpoint
 * template, a status, a digest kind, a reason. Never a team, tenant, customer, key or token.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestObserver } from '../../shared/core/observer.ts';
import type { AnswerOutcome } from '../answers/outcome.ts';
import type { DigestObserver } from '../digests/engine.ts';

/** Where the service answers; `digests` for the worker's reads, which one key's subscriptions share. */
export type Platform = 'slack' | 'teams' | 'excel_relay' | 'odata' | 'console' | 'digests';

/** A button: share an answer, choose a customer, an invoice PDF. */
export type ActionName = 'share' | 'choose_customer' | 'pdf';

/** Why a subscription stopped: the Linen key refused or gone, the app removed, the unsure post not sent again. */
const OWN_STOP_REASONS = new Set(['linen_auth', 'linen_key_missing', 'uninstalled']);

/** A stop code as a label: one of a known set (the platforms' permanent errors and our own), else `other`. */
export function stopReasonOf(code: string, platformCodes: ReadonlySet<string>): string {
  return platformCodes.has(code) || OWN_STOP_REASONS.has(code) ? code : 'other';
}

/** Counts of the store's rows, read when Prometheus scrapes. */
export interface StoreCounts {
  /** By platform: Slack installations, Teams tenants with the app installed. */
  installations: Record<string, number> | null;
  /** By platform: workspaces or tenants with a Linen key connected. */
  connections: Record<string, number> | null;
  subscriptions: { platform: string; status: string; n: number }[];
  /** Seconds since the earliest digest that is due and not yet out (0: none is). */
  overdueSeconds: number;
}

const ANSWER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30];
const LATENESS_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];
const PACING_WAIT_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60];
const WINDOW_USE_BUCKETS = [0.25, 0.5, 0.75, 0.9, 0.95, 1];

export class BotMetrics {
  readonly registry = new Registry();
  readonly platform: Platform;
  readonly #commands: Counter<'platform' | 'command' | 'outcome'>;
  readonly #actions: Counter<'platform' | 'action' | 'outcome'>;
  readonly #answerSeconds: Histogram<'platform' | 'via'>;
  readonly #apiRequests: Counter<'platform' | 'endpoint' | 'status'>;
  readonly #rateLimited: Counter<'platform' | 'endpoint'>;
  readonly #pacingWait: Histogram<'platform'>;
  readonly #pacingRefused: Counter<'platform'>;
  readonly #windowUse: Histogram<'platform'>;
  readonly #coalesced: Counter<'platform' | 'endpoint'>;
  readonly #cacheHits: Counter<'platform' | 'endpoint'>;
  readonly #digestRuns: Counter<'platform' | 'kind' | 'outcome'>;
  readonly #lateness: Histogram<'platform' | 'kind'>;
  readonly #stopped: Counter<'platform' | 'reason'>;
  readonly #storeErrors: Counter<'operation'>;

  /** The platforms' permanent delivery error codes, kept as stop reasons (any other is `other`). */
  readonly #stopCodes = new Set<string>();

  constructor(platform: Platform) {
    this.platform = platform;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#commands = new Counter({
      name: 'linen_commands_total',
      help: 'Slash commands answered, by command and outcome (answered, busy, refused, error).',
      labelNames: ['platform', 'command', 'outcome'],
      registers,
    });
    this.#actions = new Counter({
      name: 'linen_actions_total',
      help: 'Buttons answered (share, choose_customer, pdf), by outcome.',
      labelNames: ['platform', 'action', 'outcome'],
      registers,
    });
    this.#answerSeconds = new Histogram({
      name: 'linen_answer_seconds',
      help: 'Time from a command or button to its answer, in seconds.',
      labelNames: ['platform', 'via'],
      buckets: ANSWER_BUCKETS,
      registers,
    });
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
    this.#digestRuns = new Counter({
      name: 'linen_digest_runs_total',
      help: 'Digest runs ended, by kind and outcome (posted, recovered, quiet, skipped, failed, retry, lost).',
      labelNames: ['platform', 'kind', 'outcome'],
      registers,
    });
    this.#lateness = new Histogram({
      name: 'linen_digest_lateness_seconds',
      help: 'How long after its scheduled minute a digest was posted, in seconds.',
      labelNames: ['platform', 'kind'],
      buckets: LATENESS_BUCKETS,
      registers,
    });
    this.#stopped = new Counter({
      name: 'linen_digest_subscriptions_stopped_total',
      help: 'Digest subscriptions that stopped (failing until resumed), by reason.',
      labelNames: ['platform', 'reason'],
      registers,
    });
    this.#storeErrors = new Counter({
      name: 'linen_store_errors_total',
      help: "Failed operations of the bot's store (PostgreSQL or PGlite), by operation.",
      labelNames: ['operation'],
      registers,
    });
  }

  command(command: string, outcome: AnswerOutcome, seconds: number, platform: Platform = this.platform): void {
    this.#commands.inc({ platform, command, outcome });
    this.#answerSeconds.observe({ platform, via: 'command' }, seconds);
  }

  action(action: ActionName, outcome: AnswerOutcome, seconds: number, platform: Platform = this.platform): void {
    this.#actions.inc({ platform, action, outcome });
    this.#answerSeconds.observe({ platform, via: 'action' }, seconds);
  }

  /** What the Linen clients of one platform report, counted here under it. */
  linenObserverFor(platform: Platform): RequestObserver {
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

  /** What the bot's Linen clients report, counted here (under the bot's platform). */
  get linenObserver(): RequestObserver {
    return this.linenObserverFor(this.platform);
  }

  /** What the digest worker reports, counted here under each subscription's platform. */
  readonly digestObserver: DigestObserver = {
    runEnded: ({ kind, outcome, lateMs, platform: subPlatform }) => {
      const platform: Platform = subPlatform ?? this.platform;
      this.#digestRuns.inc({ platform, kind, outcome });
      if (lateMs !== undefined) this.#lateness.observe({ platform, kind }, Math.max(0, lateMs / 1000));
    },
    subscriptionStopped: (code, subPlatform) =>
      this.#stopped.inc({ platform: subPlatform ?? this.platform, reason: stopReasonOf(code, this.#stopCodes) }),
  };

  /** A platform's permanent delivery error codes: each is a stop reason of its own (any other is `other`). */
  addStopCodes(codes: Iterable<string>): void {
    for (const c of codes) this.#stopCodes.add(c);
  }

  storeError(operation: string): void {
    this.#storeErrors.inc({ operation });
  }

  /** Gauges of the store's rows, read at each scrape by `read` (a failed read leaves them out of that scrape). */
  gaugeStore(read: () => Promise<StoreCounts>): void {
    let pending: Promise<StoreCounts | null> | undefined;
    // One read serves the gauges of one scrape.
    const counts = () => {
      pending ??= read()
        .catch(() => null)
        .finally(() => setTimeout(() => (pending = undefined), 0));
      return pending;
    };
    const registers = [this.registry];
    new Gauge({
      name: 'linen_installations',
      help: 'Slack workspaces (or Enterprise Grid organizations), and Teams tenants, with the app installed.',
      labelNames: ['platform'],
      registers,
      async collect() {
        const c = await counts();
        for (const [platform, n] of Object.entries(c?.installations ?? {})) this.set({ platform }, n);
      },
    });
    new Gauge({
      name: 'linen_connections',
      help: 'Slack workspaces and Teams tenants with a Linen key connected.',
      labelNames: ['platform'],
      registers,
      async collect() {
        const c = await counts();
        if (!c?.connections) return;
        this.reset();
        for (const [platform, n] of Object.entries(c.connections)) this.set({ platform }, n);
      },
    });
    new Gauge({
      name: 'linen_digest_subscriptions',
      help: 'Digest subscriptions by platform and status (active, paused, failing).',
      labelNames: ['platform', 'status'],
      registers,
      async collect() {
        const c = await counts();
        this.reset();
        for (const s of c?.subscriptions ?? []) this.set({ platform: s.platform, status: s.status }, s.n);
      },
    });
    new Gauge({
      name: 'linen_digest_overdue_seconds',
      help: 'Seconds since the earliest digest that is due and not yet out; 0 when none is.',
      registers,
      async collect() {
        const c = await counts();
        if (c) this.set(c.overdueSeconds);
      },
    });
  }
}
