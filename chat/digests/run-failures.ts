/**
 * How a run (a digest's, an alert's post) ends when its attempt did not post it, for the run and for its owner (the
 * subscription or the alert):
 * - a failure the platform or the Linen API says no retry can fix (the channel gone, the key refused or no longer
 *   configured) ends the run and stops the subscription, whose creator is told once;
 * - any other failure gives the run back to be tried again later, after a rate limit's wait if it was one;
 * - a post that may have gone out, where the channel cannot be searched for it, ends the run: not posted again;
 * - a workspace the app is no longer installed in stops the subscription quietly;
 * - a subscription of a kind this service does not know ends the run, and only the run: a replica of an older
 *   version meeting a newer kind during a rolling deploy must not stop it for the replicas that know it.
 */

import { requestIdOf } from '../../base/logging/log-fields.ts';
import { AuthenticationError, ConfigurationError, PermissionDeniedError } from '../../shared/errors.ts';
import type { Clock } from './clock.ts';
import { DeliveryError, type DigestDelivery, linenFailureReason } from './delivery/delivery.ts';
import { type RetryOptions, withRetry } from './delivery/retry.ts';
import {
  type ExecutableRun,
  type Logger,
  type RunObserver,
  type RunOutcome,
  type RunOwner,
  type RunStore,
  UnbuildableRunError,
} from './delivery/run-executor.ts';

/** The Linen API's request id of a failure, as a field of the digest's log line. */
const requestField = (err: unknown) => {
  const requestId = requestIdOf(err);
  return requestId ? { request_id: requestId } : {};
};

export interface RunFailureDeps {
  store: RunStore;
  clock: Clock;
  workerId: string;
  logger: Logger;
  observer?: RunObserver | undefined;
  retry?: RetryOptions | undefined;
  /** Delay before a run whose attempt failed transiently is tried again (default 60 s). */
  retryDelayMs?: number | undefined;
}

export class RunFailures {
  constructor(private readonly d: RunFailureDeps) {}

  /**
   * A run whose post may have gone out, on a platform whose channels cannot be searched for it: ended, not posted
   * again (never twice), and said in the log. The subscription goes on.
   */
  async unsure(run: ExecutableRun, sub: RunOwner): Promise<RunOutcome> {
    await this.d.store.endRun(
      run.id,
      this.d.workerId,
      this.d.clock.now(),
      'failed',
      'may have been posted; not posted again',
    );
    this.d.logger.warn('a digest may have been posted before its attempt was cut short; not posting it again', {
      run: run.id,
      subscription: sub.id,
    });
    return 'failed';
  }

  /**
   * The subscription's workspace has no installation any more (uninstalled while a run was due): the run is skipped
   * and the subscription stopped, quietly (there is no token left to tell its creator with).
   */
  async uninstalled(run: ExecutableRun, sub: RunOwner): Promise<RunOutcome> {
    const now = this.d.clock.now();
    await this.d.store.endRun(run.id, this.d.workerId, now, 'skipped', 'workspace not installed');
    if (await this.d.store.markFailing(sub.id, 'the app is no longer installed in its workspace', now))
      this.d.observer?.subscriptionStopped?.('uninstalled', sub.platform);
    this.d.logger.warn('stopped a digest whose workspace no longer has the app installed', {
      subscription: sub.id,
      team: sub.orgId,
    });
    return 'skipped';
  }

  async failed(run: ExecutableRun, sub: RunOwner, err: unknown, delivery: DigestDelivery | null): Promise<RunOutcome> {
    const now = this.d.clock.now();
    // A run that can never be built (a kind this service does not know): the run ends failed, its owner goes on,
    // so that an older replica during a rolling deploy cannot stop it for everyone.
    if (err instanceof UnbuildableRunError) {
      await this.d.store.endRun(run.id, this.d.workerId, now, 'failed', err.message);
      this.d.logger.warn('a run this service cannot build was not posted', {
        run: run.id,
        owner: sub.id,
        kind: sub.kind,
      });
      return 'failed';
    }
    const linenAuth = err instanceof AuthenticationError || err instanceof PermissionDeniedError;
    // The key reference no longer matches a configured key (rotated away): no retry can fix that.
    const keyGone = err instanceof ConfigurationError;
    if ((err instanceof DeliveryError && err.failure.kind === 'permanent') || linenAuth || keyGone) {
      const code = err instanceof DeliveryError ? err.failure.code : keyGone ? 'linen_key_missing' : 'linen_auth';
      const reason = delivery?.explain(code, sub.channelId) ?? linenFailureReason(code) ?? code;
      await this.d.store.endRun(run.id, this.d.workerId, now, 'failed', code);
      if (await this.d.store.markFailing(sub.id, reason, now)) {
        this.d.observer?.subscriptionStopped?.(code, sub.platform);
        this.d.logger.warn('subscription failing; its creator is told once and it is not retried until resumed', {
          subscription: sub.id,
          code,
          reason,
          ...requestField(err),
        });
        if (!delivery) return 'failed';
        await withRetry(() => delivery.tellCreator(sub, code, reason), delivery, {
          ...this.d.retry,
          retries: 1,
        }).catch((e) => this.d.logger.warn('could not tell the creator', { subscription: sub.id, error: String(e) }));
      }
      return 'failed';
    }
    const message = err instanceof Error ? err.message : String(err);
    // A rate limit longer than one attempt waits out is honoured across attempts too.
    const retryAfterMs =
      err instanceof DeliveryError && err.failure.kind === 'ratelimited' ? err.failure.retryAfterMs : 0;
    const delayMs = Math.max(this.d.retryDelayMs ?? 60_000, retryAfterMs);
    this.d.logger.warn('digest attempt failed; will retry', {
      run: run.id,
      error: message,
      inMs: delayMs,
      ...requestField(err),
    });
    await this.d.store.releaseRun(run.id, this.d.workerId, new Date(now.getTime() + delayMs), message.slice(0, 500));
    return 'retry';
  }
}
