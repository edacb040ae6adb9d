/**
 * The chat core's metrics, added to the service's registry (`base/metrics/service-metrics.ts`): commands and buttons
 * answered and how fast, digest runs and their lateness, stopped subscriptions, and gauges of the chat tables.
 * Labels are bounded sets: a platform, a command or action name, an outcome, a digest kind, a reason. Never a team,
 * tenant, customer, key or token.
 */
import { Counter, Gauge, Histogram } from 'prom-client';
import { ServiceMetrics } from '../../base/metrics/service-metrics.ts';
import type { AlertObserver } from '../alerts/worker.ts';
import type { AnswerOutcome } from '../answers/outcome.ts';
import type { DigestObserver } from '../digests/engine.ts';

/**
 * Where the service answers: a chat platform, the console, the Excel relay, the OData feed; `digests` for the
 * worker's reads, which one key's subscriptions share.
 */
export type Platform = 'slack' | 'teams' | 'excel_relay' | 'odata' | 'console' | 'digests';

/** A button: share an answer, choose a customer, an invoice PDF, an answer asked again in its place (the home's). */
export type ActionName = 'share' | 'choose_customer' | 'pdf' | 'refresh';

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
  /** Alerts by platform and status. */
  alerts: { platform: string; status: string; n: number }[];
  /** Seconds since the earliest digest that is due and not yet out (0: none is). */
  overdueSeconds: number;
}

const ANSWER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 15, 30];
const LATENESS_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];
const CHECK_REQUEST_BUCKETS = [0, 1, 2, 3, 5, 8, 13, 20, 50, 100];
const ALERT_DELAY_BUCKETS = [10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 21600, 86400];

export class ChatMetrics extends ServiceMetrics<Platform> {
  readonly #commands: Counter<'platform' | 'command' | 'outcome'>;
  readonly #actions: Counter<'platform' | 'action' | 'outcome'>;
  readonly #answerSeconds: Histogram<'platform' | 'via'>;
  readonly #digestRuns: Counter<'platform' | 'kind' | 'outcome'>;
  readonly #lateness: Histogram<'platform' | 'kind'>;
  readonly #stopped: Counter<'platform' | 'reason'>;
  readonly #alertChecks: Counter<'outcome'>;
  readonly #checkRequests: Histogram;
  readonly #alertsFired: Counter<'platform' | 'kind'>;
  readonly #alertDelay: Histogram<'kind'>;
  readonly #alertPosts: Counter<'platform' | 'kind' | 'outcome'>;
  readonly #alertsStopped: Counter<'platform' | 'reason'>;

  /** The platforms' permanent delivery error codes, kept as stop reasons (any other is `other`). */
  readonly #stopCodes = new Set<string>();

  constructor(platform: Platform) {
    super(platform);
    const registers = [this.registry];
    this.#commands = new Counter({
      name: 'linen_commands_total',
      help: 'Slash commands answered, by command and outcome (answered, busy, refused, error).',
      labelNames: ['platform', 'command', 'outcome'],
      registers,
    });
    this.#actions = new Counter({
      name: 'linen_actions_total',
      help: 'Buttons answered (share, choose_customer, pdf, refresh), by outcome.',
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
    this.#alertChecks = new Counter({
      name: 'linen_alert_checks_total',
      help: "Checks of a key's alerts, by outcome (committed, lost to another replica, failed to read).",
      labelNames: ['outcome'],
      registers,
    });
    this.#checkRequests = new Histogram({
      name: 'linen_alert_check_requests',
      help: "Linen API requests one check of a key's alerts sent (each listing once, whatever the number of alerts).",
      buckets: CHECK_REQUEST_BUCKETS,
      registers,
    });
    this.#alertsFired = new Counter({
      name: 'linen_alerts_fired_total',
      help: 'Alerts that found something newly true at a check (one post each), by kind.',
      labelNames: ['platform', 'kind'],
      registers,
    });
    this.#alertDelay = new Histogram({
      name: 'linen_alert_delay_seconds',
      help: "How long after the API's own time of a change it was found by a check, in seconds (where the API dates it).",
      labelNames: ['kind'],
      buckets: ALERT_DELAY_BUCKETS,
      registers,
    });
    this.#alertPosts = new Counter({
      name: 'linen_alert_posts_total',
      help: 'Alert posts ended, by kind and outcome (posted, recovered, skipped, failed, retry, lost).',
      labelNames: ['platform', 'kind', 'outcome'],
      registers,
    });
    this.#alertsStopped = new Counter({
      name: 'linen_alerts_stopped_total',
      help: 'Alerts that stopped (failing until resumed), by reason.',
      labelNames: ['platform', 'reason'],
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

  /** What the alert worker reports, counted here under each alert's platform and kind. */
  readonly alertObserver: AlertObserver = {
    checked: ({ outcome, requests }) => {
      this.#alertChecks.inc({ outcome });
      if (outcome !== 'failed') this.#checkRequests.observe(requests);
    },
    fired: ({ kind, platform, delaysMs }) => {
      this.#alertsFired.inc({ platform, kind });
      for (const ms of delaysMs) this.#alertDelay.observe({ kind }, ms / 1000);
    },
    runEnded: ({ kind, outcome, platform }) =>
      this.#alertPosts.inc({ platform: platform ?? this.platform, kind, outcome }),
    subscriptionStopped: (code, platform) =>
      this.#alertsStopped.inc({ platform: platform ?? this.platform, reason: stopReasonOf(code, this.#stopCodes) }),
  };

  /** A platform's permanent delivery error codes: each is a stop reason of its own (any other is `other`). */
  addStopCodes(codes: Iterable<string>): void {
    for (const c of codes) this.#stopCodes.add(c);
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
      name: 'linen_alerts',
      help: 'Alerts by platform and status (active, paused, failing).',
      labelNames: ['platform', 'status'],
      registers,
      async collect() {
        const c = await counts();
        this.reset();
        for (const a of c?.alerts ?? []) this.set({ platform: a.platform, status: a.status }, a.n);
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
