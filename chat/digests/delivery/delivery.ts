/**
 * What the digest engine needs of a chat platform to deliver a subscription's digests: post one, find one already
 * posted (where the platform can tell), tell a subscription's creator it stopped, and say what a failure means.
 * Slack's is `slack-bot/digests/delivery.ts`, Teams' `teams-bot/digests/delivery.ts`.
 */
import type { Content } from '../../content/document.ts';
import type { RunOwner } from './run-executor.ts';

export type DeliveryFailure =
  /** Retrying cannot help (the bot was removed, the channel is gone, the token revoked): the subscription stops. */
  | { kind: 'permanent'; code: string }
  /** Not posted; try again after the wait. */
  | { kind: 'ratelimited'; code: string; retryAfterMs: number }
  /** Try again; `unsure` when the message may have gone out all the same (a 5xx, a dropped connection). */
  | { kind: 'transient'; code: string; unsure: boolean };

/** Why a subscription stopped for a reason of the Linen API's, not the platform's. */
export function linenFailureReason(code: string): string | null {
  switch (code) {
    case 'linen_key_missing':
      return 'the Linen API key it was set up with is no longer configured for the bot; unsubscribe it and subscribe again with the current key';
    case 'linen_auth':
      return 'the Linen API key was rejected or lacks the processing scope';
    default:
      return null;
  }
}

/** A delivery that failed, with what the failure means for the run. */
export class DeliveryError extends Error {
  constructor(
    readonly failure: DeliveryFailure,
    cause: unknown,
    /** The platform that answered (`Slack`, `Teams`), for the run's recorded error. */
    platform = 'delivery',
  ) {
    super(`${platform} ${failure.code}`, { cause });
    this.name = 'DeliveryError';
  }
}

export interface PostedRun {
  runId: string;
  /** The id of the run's owner: the digest subscription, or the alert. */
  subscriptionId: string;
}

export interface DigestDelivery {
  /** The platform's name, in the errors recorded with a run (`Slack ratelimited`). */
  readonly platform: string;
  /**
   * Whether a run's message can be found in its channel afterwards (Slack searches the history for the run id).
   * Where it cannot (Teams), a run whose post may have gone out is never posted again: at most once.
   */
  readonly findsPosted: boolean;
  /** Posts the run's message in `channel`; resolves with the message's id. Throws what `classify` reads. */
  post(channel: string, message: Content, run: PostedRun): Promise<string>;
  /** The id of a message of this run in `channel` since `since`, or null (always null where `findsPosted` is false). */
  findPosted(channel: string, runId: string, since: Date): Promise<string | null>;
  /** Why a subscription stopped, in the platform's words (stored, and shown by `digest list` and `admin status`). */
  explain(code: string, channelId: string): string;
  /**
   * Tells the creator of a subscription or an alert, privately and once, that it stopped and why (with the others
   * that stopped `together`, in the same message).
   */
  tellCreator(owner: RunOwner, code: string, reason: string): Promise<void>;
  classify(err: unknown): DeliveryFailure;
}

/** What a retried call needs of its delivery: how to read a failure, and whose it is. */
export type FailureReader = Pick<DigestDelivery, 'platform' | 'classify'>;

/**
 * The delivery of a subscription's (or an alert's) platform and workspace or tenant; null when the app is no longer
 * installed there (its subscriptions and alerts are then stopped, never posted with another's credentials).
 */
export type DeliveryFor = (owner: RunOwner) => Promise<DigestDelivery | null>;
