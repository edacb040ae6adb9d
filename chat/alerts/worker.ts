/**
 * The alert worker: every `pollMs` (ALERTS_POLL_SECONDS) each key with active alerts is checked once, by one
 * replica (its check claimed with a lease), reading each listing its alerts need once for all of them; what a check
 * finds newly true is recorded with one post per alert, in one transaction; and posts are delivered with the same
 * claim-then-post discipline as digests (`RunExecutor`), through each alert's platform, paced per channel with the
 * digests (one `ChannelPacer`). Ticks come at the next due instant the store knows, at most a poll apart.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { settlesWithin } from '../../base/settles-within.ts';
import type { LinenClient } from '../../shared/index.ts';
import { type Content, text } from '../content/document.ts';
import { type Clock, systemClock, systemTimers, type Timers } from '../digests/clock.ts';
import { ChannelPacer } from '../digests/delivery/channel-pacer.ts';
import type { DeliveryFor } from '../digests/delivery/delivery.ts';
import type { RetryOptions } from '../digests/delivery/retry.ts';
import {
  type ExecutableRun,
  type Logger,
  RunExecutor,
  type RunObserver,
  type RunOutcome,
  type RunOwner,
  type RunPost,
  silentLogger,
} from '../digests/delivery/run-executor.ts';
import { type AlertKinds, type CheckResult, checkKey } from './check.ts';
import type { AlertReads } from './kind.ts';
import type { AlertStore } from './storage/store.ts';
import type { Alert, AlertPost } from './storage/types.ts';

/** The least poll interval ALERTS_POLL_SECONDS may set. */
export const MIN_POLL_MS = 10_000;
export const DEFAULT_POLL_MS = 300_000;
/** An alert's post is told late rather than lost: one a day old is still posted (it says when it was found). */
const ALERT_GRACE_MS = 24 * 60 * 60 * 1000;
const DUE_MARGIN_MS = 10;
const CHECKS_PER_TICK = 50;
const POSTS_PER_TICK = 500;

/** What the worker reports, for the service's metrics. */
export interface AlertObserver extends RunObserver {
  /** A check of one key ended: recorded, lost to another replica, or failed to read (`failed`). */
  checked?(event: { outcome: 'committed' | 'lost' | 'failed'; requests: number }): void;
  /** An alert found news: its kind, and how long after the API's own time of each occurrence it was found. */
  fired?(event: { kind: string; platform: string; delaysMs: readonly number[] }): void;
}

export interface AlertWorkerOptions {
  store: AlertStore;
  kinds: AlertKinds;
  /** Each alert's delivery, by its platform and workspace or tenant (the digests' own). */
  deliveries: DeliveryFor;
  /** The background client of a key reference (a stored key being opened, perhaps). */
  linenClientFor: (keyRef: string) => LinenClient | Promise<LinenClient>;
  /** The listings of one check at `now`, over a key's client (`alertReads`). */
  readsOf: (client: LinenClient, now: Date) => AlertReads;
  /** Counts the requests a check sends (`countingRequests`). */
  counting?: (<T>(fn: () => Promise<T>) => Promise<{ value: T; requests: number }>) | undefined;
  pollMs?: number | undefined;
  clock?: Clock | undefined;
  timers?: Timers | undefined;
  workerId?: string | undefined;
  leaseMs?: number | undefined;
  /** Shared with the digest worker: one pace per channel, whatever posts in it. */
  pacer?: ChannelPacer | undefined;
  logger?: Logger | undefined;
  observer?: AlertObserver | undefined;
  retry?: RetryOptions | undefined;
  hooks?: { afterPost?(run: ExecutableRun, ts: string): Promise<void> | void } | undefined;
}

export interface AlertTickResult {
  checks: CheckResult[];
  outcomes: Partial<Record<RunOutcome, number>>;
}

export interface AlertWorker {
  readonly workerId: string;
  /** Checks the keys due and delivers the posts due, now; resolves once they are done. */
  tick(): Promise<AlertTickResult>;
  /** Stops ticking; with `drainMs`, posts not started are given back at once and the rest waited for that long. */
  stop(options?: { drainMs?: number }): Promise<void>;
}

/** An alert as the owner of its posts (the executor and the deliveries read these fields). */
export function ownerOf(alert: Alert): RunOwner {
  return {
    id: alert.id,
    status: alert.status,
    kind: alert.kind,
    platform: alert.platform,
    orgId: alert.orgId,
    channelId: alert.channelId,
    serviceUrl: alert.serviceUrl,
    createdBy: alert.createdBy,
    noun: 'alert',
  };
}

const asRun = (post: AlertPost): ExecutableRun & { post: AlertPost } => ({
  id: post.id,
  status: post.status,
  scheduledFor: post.checkedAt,
  attempts: post.attempts,
  channelId: post.channelId,
  error: post.error,
  post,
});

export function startAlertWorker(options: AlertWorkerOptions): AlertWorker {
  const workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const pollMs = Math.max(MIN_POLL_MS, options.pollMs ?? DEFAULT_POLL_MS);
  const leaseMs = options.leaseMs ?? 120_000;
  const logger = options.logger ?? silentLogger;
  const pacer = options.pacer ?? new ChannelPacer(1000);
  const { store } = options;
  const executor = new RunExecutor({
    store,
    clock,
    workerId,
    graceMs: ALERT_GRACE_MS,
    leaseMs,
    logger,
    observer: options.observer,
    retry: options.retry,
    hooks: options.hooks,
    noun: 'an alert',
  });
  const clients = new Map<string, Promise<LinenClient>>();
  const clientOf = (keyRef: string) => {
    let c = clients.get(keyRef);
    if (!c) {
      c = Promise.resolve(options.linenClientFor(keyRef));
      // A key that cannot be opened now is asked for again at the next check.
      c.catch(() => clients.delete(keyRef));
      clients.set(keyRef, c);
    }
    return c;
  };

  /**
   * Alerts stopped by a check: marked failing, and each creator told once, in one message for all of their alerts
   * that stopped for the same reason (a revoked key stops every alert of the key at once).
   */
  async function stopAlerts(result: CheckResult): Promise<void> {
    const byCreator = new Map<string, { owner: RunOwner; code: string; reason: string; together: RunOwner[] }>();
    for (const { alert, code, reason } of result.stopped) {
      if (!(await store.markFailing(alert.id, reason, clock.now()))) continue;
      options.observer?.subscriptionStopped?.(code, alert.platform);
      logger.warn('alert failing; its creator is told once and it is not checked until resumed', {
        alert: alert.id,
        code,
      });
      const creator = JSON.stringify([alert.platform, alert.orgId, alert.serviceUrl, alert.createdBy, code, reason]);
      const told = byCreator.get(creator);
      if (told) told.together.push(ownerOf(alert));
      else byCreator.set(creator, { owner: ownerOf(alert), code, reason, together: [] });
    }
    for (const { owner, code, reason, together } of byCreator.values()) {
      const delivery = await options.deliveries(owner).catch(() => null);
      await delivery
        ?.tellCreator(together.length ? { ...owner, together } : owner, code, reason)
        .catch((e: unknown) => logger.warn('could not tell the creator', { alert: owner.id, error: String(e) }));
    }
  }

  async function checkDue(): Promise<CheckResult[]> {
    const claimed = await store.claimChecks(workerId, clock.now(), leaseMs, pollMs, CHECKS_PER_TICK);
    return Promise.all(
      claimed.map(async (check) => {
        const result = await checkKey(check, {
          store,
          kinds: options.kinds,
          workerId,
          now: () => clock.now(),
          readsFor: async (keyRef) => options.readsOf(await clientOf(keyRef), clock.now()),
          counting: options.counting,
        }).catch(async (err: unknown): Promise<CheckResult> => {
          // The store failed (a database restart): the lease ends and another check takes the key.
          const error = err instanceof Error ? err.message : String(err);
          logger.warn('an alert check failed; the key is checked again at its next turn', { error });
          return { keyRef: check.keyRef, committed: false, requests: 0, posts: [], fired: [], stopped: [], error };
        });
        options.observer?.checked?.({
          outcome: result.error !== undefined ? 'failed' : result.committed ? 'committed' : 'lost',
          requests: result.requests,
        });
        for (const f of result.fired) options.observer?.fired?.(f);
        await stopAlerts(result);
        return result;
      }),
    );
  }

  async function deliverDue(): Promise<Partial<Record<RunOutcome, number>>> {
    const posts = await store.claimPosts(workerId, clock.now(), leaseMs, POSTS_PER_TICK);
    const outcomes: Partial<Record<RunOutcome, number>> = {};
    if (!posts.length) return outcomes;
    const alerts = await store.getAlerts([...new Set(posts.map((p) => p.alertId))]);
    await Promise.all(
      posts.map(async (post) => {
        const alert = alerts.get(post.alertId) ?? null;
        const owner = alert && ownerOf(alert);
        const outcome = await executor.execute(
          asRun(post),
          owner,
          () => messageOf(alert!, post),
          () => options.deliveries(owner!),
          pacer,
        );
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }),
    );
    return outcomes;
  }

  /** The post's message, from what its check saw; customer names from the key's (shared) customer list. */
  async function messageOf(alert: Alert, post: AlertPost): Promise<RunPost> {
    const kind = options.kinds.byName(alert.kind);
    if (!kind) throw new Error(`this version does not know ${alert.kind} alerts`);
    const customers = await (await clientOf(alert.keyRef)).customers.list().all();
    const customerNames = new Map(customers.map((c) => [c.id, c.name]));
    const scope = { options: alert.options, customerIds: alert.customerIds, timeZone: alert.timeZone };
    const content: Content = post.told.length
      ? kind.message(scope, post.told, { customerNames, timeZone: alert.timeZone, test: post.test })
      : quietTest(alert, kind.describe(scope, customerNames));
    return { ...content, quiet: false, shown: [] };
  }

  let running: Promise<AlertTickResult> = Promise.resolve({ checks: [], outcomes: {} });
  let stopped = false;
  let timer: unknown = null;
  const tick = (): Promise<AlertTickResult> => {
    running = running
      .catch(() => null)
      .then(async () => {
        const checks = await checkDue();
        const outcomes = await deliverDue();
        return { checks, outcomes };
      });
    return running;
  };
  const nextWait = async (): Promise<number> => {
    const due = await store.nextDueAt().catch(() => null);
    if (!due) return pollMs;
    return Math.min(pollMs, Math.max(1000, due.getTime() - clock.now().getTime() + DUE_MARGIN_MS));
  };
  const loop = () => {
    if (stopped) return;
    tick()
      .catch((err: unknown) => logger.warn('alert tick failed', { error: String(err) }))
      .then(nextWait)
      .then((ms) => {
        if (!stopped) timer = timers.after(ms, loop);
      });
  };
  timer = timers.after(0, loop);
  return {
    workerId,
    tick,
    async stop(stopOptions = {}) {
      stopped = true;
      if (timer !== null) timers.cancel(timer);
      if (stopOptions.drainMs === undefined) {
        await running.catch(() => {});
        return;
      }
      executor.stopTaking();
      if (
        !(await settlesWithin(
          running.catch(() => {}),
          stopOptions.drainMs,
        ))
      )
        logger.warn('stopped with alert posts under way; they are taken again when their lease ends');
    },
  };
}

/** `alert test` when nothing is true now: the post says so, and that the alert would stay quiet. */
function quietTest(alert: Alert, watches: string): Content {
  const said = `Test of Linen alert ${alert.id} (${watches}): nothing is true right now, so it would stay quiet.`;
  return { summary: [said], parts: [text([said])] };
}
