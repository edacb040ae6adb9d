/** What the digest store keeps: subscriptions, scheduled runs, and what each digest showed. */
import type { DigestKind } from '../kinds/index.ts';

/** What a digest is about: one of the kinds of `kinds/` (its stored name). */
export type { DigestKind };

export type Severity = 'low' | 'medium' | 'high';

/**
 * A subscription's options, kept as JSON: each kind reads its own (the budgets kind its `budgetShare` and
 * `expiringDays`), set by its option words (`kinds/kind.ts` `KindOptions`).
 */
export type DigestOptions = { [option: string]: string | number | boolean | undefined };
export type SubscriptionStatus = 'active' | 'paused' | 'failing';
export type RunStatus = 'pending' | 'claimed' | 'posting' | 'posted' | 'quiet' | 'skipped' | 'failed';

/** The chat platforms digests are posted on. */
export type Platform = 'slack' | 'teams';

export interface Subscription {
  id: string;
  platform: Platform;
  /** The Slack workspace or the Microsoft 365 tenant (null: a bot for one workspace). */
  orgId: string | null;
  kind: DigestKind;
  options: DigestOptions;
  /** Names the Linen API key the digest reads with (`keyRefOf`; never the key itself). */
  keyRef: string;
  /** The Slack channel, or the Teams conversation. */
  channelId: string;
  /** The channel's name where the platform gave it (Teams), for listings. */
  channelName: string | null;
  /** Teams: the service URL the conversation is reached through. */
  serviceUrl: string | null;
  /** `daily`, `weekdays`, `weekends` or days such as `mon,wed,fri`. */
  cadence: string;
  /** `HH:MM`, wall clock in `timeZone`. */
  time: string;
  timeZone: string;
  /** Empty: every customer the key sees. */
  customerIds: string[];
  minSeverity: Severity;
  /** Post instead of staying quiet when there is nothing to say ("all clear", "nothing changed"). */
  allClear: boolean;
  status: SubscriptionStatus;
  failureReason: string | null;
  /** The creator's user id on the platform: told when the subscription starts failing. */
  createdBy: string;
  createdAt: Date;
  nextRunAt: Date | null;
}

export type NewSubscription = Pick<
  Subscription,
  'keyRef' | 'channelId' | 'cadence' | 'time' | 'timeZone' | 'customerIds' | 'minSeverity' | 'allClear' | 'createdBy'
> & {
  /** Default `slack`. */
  platform?: Platform | undefined;
  orgId?: string | null | undefined;
  channelName?: string | null | undefined;
  serviceUrl?: string | null | undefined;
  /** Default: the store's first kind (`shortfall`). */
  kind?: DigestKind | undefined;
  options?: DigestOptions | undefined;
};

export interface DigestRun {
  id: string;
  subscriptionId: string;
  scheduledFor: Date;
  status: RunStatus;
  claimedBy: string | null;
  leaseUntil: Date | null;
  attempts: number;
  channelId: string | null;
  messageTs: string | null;
  error: string | null;
  finishedAt: Date | null;
}

/** A signal as a shortfall digest showed it, enough to describe it later once it is no longer listed. */
export interface SignalSnapshot {
  kind: string;
  severity: Severity;
  summary: string;
  customerId: string | null;
  departmentId: string | null;
  itemId: string | null;
  itemName: string | null;
}

/**
 * What a digest showed of one record, to compare the next digest with: a signal (its state `open` or
 * `acknowledged`), or for the other kinds an invoice (its aging bucket), a ticket (its status) or a purchase order
 * (its flags), each with its kind's snapshot.
 */
export interface ShownSignal<Snapshot = SignalSnapshot> {
  /** The record's id. */
  signalId: string;
  state: string;
  snapshot: Snapshot;
}

/** A shown record of any kind, as the store keeps it (a subscription's runs all hold its own kind's). */
export type ShownRecord = ShownSignal<unknown>;

/** What to insert for one due subscription: its run instants, and when it is next due. */
export interface MaterializePlan {
  runs: { scheduledFor: Date; status: 'pending' | 'skipped'; error?: string }[];
  nextRunAt: Date | null;
}

export interface ClaimOptions {
  /**
   * Claim only runs among the first this many open runs of their channel: later ones could not go out at the
   * channel's pace before their lease ends (default: no cap).
   */
  turnsPerChannel?: number | null;
}

/** The digest tables of the service's database: subscriptions, runs and what each run showed. */
export interface DigestStore {
  /** Rejects a kind the store was not given (the registry's kinds), before writing anything. */
  createSubscription(s: NewSubscription, now: Date, nextRunAt: Date | null): Promise<Subscription>;
  getSubscription(id: string): Promise<Subscription | null>;
  listSubscriptions(filter?: {
    platform?: Platform | undefined;
    orgId?: string | null | undefined;
    channelId?: string | undefined;
  }): Promise<Subscription[]>;
  deleteSubscription(id: string): Promise<boolean>;
  /** Pause, resume (with the next run after now) or mark active again. */
  setStatus(id: string, status: SubscriptionStatus, now: Date, nextRunAt: Date | null): Promise<Subscription | null>;
  /** Marks failing; true only for the call that moved it there (so the creator is told once). */
  markFailing(id: string, reason: string, now: Date): Promise<boolean>;
  /** For active subscriptions due by `now` (locked, SKIP LOCKED): insert the plan's runs and move `next_run_at`. */
  materializeDue(
    now: Date,
    limit: number,
    plan: (s: Subscription) => MaterializePlan,
  ): Promise<{ created: number; skipped: number }>;
  /**
   * Claims runs due by `now` whose lease is free or expired (SKIP LOCKED); `posting` runs stay `posting`. Each
   * channel's next run comes before any channel's one after it.
   */
  claimRuns(workerId: string, now: Date, leaseMs: number, limit: number, options?: ClaimOptions): Promise<DigestRun[]>;
  /** Moves a claimed run to `posting` (renewing the lease); false when another worker owns it now. */
  beginPosting(runId: string, workerId: string, now: Date, leaseMs: number, channelId: string): Promise<boolean>;
  /** Ends a run as posted (with the message ts) or quiet, with what it showed, in one transaction. */
  completeRun(
    runId: string,
    workerId: string,
    now: Date,
    outcome: { status: 'posted' | 'quiet'; messageTs: string | null; shown: readonly ShownRecord[] },
  ): Promise<boolean>;
  /** Ends a run as skipped or failed. */
  endRun(runId: string, workerId: string, now: Date, status: 'skipped' | 'failed', error: string): Promise<boolean>;
  /** Gives a run back for a later attempt (status kept, lease until `retryAt`). */
  releaseRun(runId: string, workerId: string, retryAt: Date, error: string): Promise<void>;
  /**
   * Unclaims runs this worker holds in one of `statuses` (at shutdown), for any replica to claim at once: a claimed
   * run is pending again, a `posting` one stays `posting` (its taker searches the channel first); the attempt is
   * not counted. The ids given back.
   */
  giveBackRuns(
    runIds: readonly string[],
    workerId: string,
    statuses: readonly ('claimed' | 'posting')[],
  ): Promise<string[]>;
  /** The latest posted or quiet run of the subscription before `before`, with what it showed. */
  previousDigest(subscriptionId: string, before: Date): Promise<{ run: DigestRun; shown: ShownRecord[] } | null>;
  /** `previousDigest` for many (subscription, instant) pairs in two queries, in the order asked. */
  previousDigests(
    asks: readonly { subscriptionId: string; before: Date }[],
  ): Promise<({ run: DigestRun; shown: ShownRecord[] } | null)[]>;
  /**
   * The next instant the worker has something to do: the earliest `next_run_at` of an active subscription or an
   * open run's due time (its lease end when leased); null when nothing is scheduled. Ticks are aligned to it.
   */
  nextDueAt(): Promise<Date | null>;
  /** Several subscriptions by id in one query (missing ones are absent from the map). */
  getSubscriptions(ids: readonly string[]): Promise<Map<string, Subscription>>;
  listRuns(filter?: { subscriptionId?: string; status?: RunStatus }): Promise<DigestRun[]>;
  /** Waits for the writes batched in flight (runs' completions) to reach the database; its owner closes it. */
  drain(): Promise<void>;
}
