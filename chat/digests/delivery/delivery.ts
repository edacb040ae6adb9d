/**
 * What the digest engine needs of a chat platform to deliver a subscription's digests: post one, find one already
 * posted (where the platform can tell), tell a subscription's creator it stopped, and say what a failure means.
 * Slack's is `slack-bot/digests/slack.ts`, Teams' `teams-bot/digests/teams-delivery.ts`.
 */
import type { Digest } from '../digest.ts';
import type { Subscription } from '../storage/types.ts';

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
  /** Posts the digest in `channel`; resolves with the message's id. Throws what `classify` reads. */
  post(channel: string, digest: Digest, run: PostedRun): Promise<string>;
  /** The id of a message of this run in `channel` since `since`, or null (always null where `findsPosted` is false). */
  findPosted(channel: string, runId: string, since: Date): Promise<string | null>;
  /** Why a subscription stopped, in the platform's words (stored, and shown by `digest list` and `admin status`). */
  explain(code: string, channelId: string): string;
  /** Tells the subscription's creator, privately and once, that it stopped and why. */
  tellCreator(sub: Subscription, code: string, reason: string): Promise<void>;
  classify(err: unknown): DeliveryFailure;
}

/** What a retried call needs of its delivery: how to read a failure, and whose it is. */
export type FailureReader = Pick<DigestDelivery, 'platform' | 'classify'>;

/**
 * The delivery of a subscription's platform and workspace or tenant; null when the app is no longer installed
 * there (its subscriptions are then stopped, never posted with another's credentials).
 */
export type DeliveryFor = (sub: Subscription) => Promise<DigestDelivery | null>;
