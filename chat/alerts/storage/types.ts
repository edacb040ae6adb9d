/** What the alert store keeps: alerts, what each saw true at its last check, each key's checks, and the posts. */
import type { Platform } from '../../digests/storage/types.ts';
import type { Occurrence } from '../kind.ts';

export type AlertStatus = 'active' | 'paused' | 'failing';
export type PostStatus = 'pending' | 'claimed' | 'posting' | 'posted' | 'skipped' | 'failed';

export interface Alert {
  id: string;
  platform: Platform;
  /** The Slack workspace or the Microsoft 365 tenant (null: a bot for one workspace). */
  orgId: string | null;
  /** Names the Linen API key the alert checks with (`keyRefOf`; never the key itself). */
  keyRef: string;
  kind: string;
  options: unknown;
  /** Empty: every customer the key sees. */
  customerIds: string[];
  timeZone: string;
  /** Where it posts: a channel, a conversation, or the direct conversation with its creator. */
  channelId: string;
  channelName: string | null;
  /** Teams: the service URL the conversation is reached through. */
  serviceUrl: string | null;
  /** Posts to its creator's direct conversation (`dm`). */
  direct: boolean;
  status: AlertStatus;
  failureReason: string | null;
  createdBy: string;
  createdAt: Date;
  /** The occurrence ids it saw true at its last check; null until its first check (or its setting) recorded them. */
  seen: string[] | null;
  /** The last org-local day a daily kind read (par met of that day). */
  lastDay: string | null;
  lastFiredAt: Date | null;
}

export type NewAlert = Pick<
  Alert,
  | 'platform'
  | 'orgId'
  | 'keyRef'
  | 'kind'
  | 'options'
  | 'customerIds'
  | 'timeZone'
  | 'channelId'
  | 'channelName'
  | 'serviceUrl'
  | 'direct'
  | 'createdBy'
> & {
  /** What is true as it is set (recorded without telling it: the first check is quiet about the past). */
  seen: string[] | null;
  lastDay?: string | null | undefined;
};

/** One message of an alert: what one check found newly true, told once. */
export interface AlertPost {
  id: string;
  alertId: string;
  checkedAt: Date;
  status: PostStatus;
  /** The occurrences it tells, as the check saw them. */
  told: Occurrence[];
  /** `alert test`: what it would say now, said as a test (and recorded as nothing seen). */
  test: boolean;
  claimedBy: string | null;
  leaseUntil: Date | null;
  attempts: number;
  channelId: string | null;
  messageTs: string | null;
  error: string | null;
  finishedAt: Date | null;
}

/** A key's turn to be checked, held by one worker at a time. */
export interface KeyCheck {
  keyRef: string;
  nextAt: Date;
  claimedBy: string | null;
  leaseUntil: Date | null;
  lastAt: Date | null;
  lastRequests: number | null;
  lastError: string | null;
}

/** What one alert's evaluation at a check ends in. */
export interface AlertOutcome {
  alertId: string;
  /** Everything true now (ids). */
  seen: string[];
  /** Those it had not seen: told in one post (none: no post). */
  fresh: Occurrence[];
  /** Daily kinds: the day this check read. */
  lastDay?: string | null | undefined;
  /** The alert was seen as `status` with `seen` when evaluated; nothing is recorded if it changed since. */
  expectedSeen: string[] | null;
}
