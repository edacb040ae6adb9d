/** Rows of the alert tables as the store's types (the drivers answer dates and JSON columns differently). */
import { date, json, type Row } from '../../digests/storage/rows.ts';
import type { Occurrence } from '../kind.ts';
import type { Alert, AlertPost, AlertStatus, KeyCheck, PostStatus } from './types.ts';

export function toAlert(r: Row): Alert {
  return {
    id: String(r.id),
    platform: r.platform as Alert['platform'],
    orgId: (r.team_id as string | null) ?? null,
    keyRef: String(r.key_ref),
    kind: String(r.kind),
    options: json<unknown>(r.options ?? {}),
    customerIds: json<string[]>(r.customer_ids ?? []),
    timeZone: String(r.time_zone),
    channelId: String(r.channel_id),
    channelName: (r.channel_name as string | null) ?? null,
    serviceUrl: (r.service_url as string | null) ?? null,
    direct: Boolean(r.direct),
    status: r.status as AlertStatus,
    failureReason: (r.failure_reason as string | null) ?? null,
    createdBy: String(r.created_by),
    createdAt: date(r.created_at)!,
    seen: r.seen === null || r.seen === undefined ? null : json<string[]>(r.seen),
    lastDay: (r.last_day as string | null) ?? null,
    lastFiredAt: date(r.last_fired_at),
  };
}

export function toPost(r: Row): AlertPost {
  return {
    id: String(r.id),
    alertId: String(r.alert_id),
    checkedAt: date(r.checked_at)!,
    status: r.status as PostStatus,
    told: json<Occurrence[]>(r.told),
    test: Boolean(r.test),
    claimedBy: (r.claimed_by as string | null) ?? null,
    leaseUntil: date(r.lease_until),
    attempts: Number(r.attempts),
    channelId: (r.channel_id as string | null) ?? null,
    messageTs: (r.message_ts as string | null) ?? null,
    error: (r.error as string | null) ?? null,
    finishedAt: date(r.finished_at),
  };
}

export function toCheck(r: Row): KeyCheck {
  return {
    keyRef: String(r.key_ref),
    nextAt: date(r.next_at)!,
    claimedBy: (r.claimed_by as string | null) ?? null,
    leaseUntil: date(r.lease_until),
    lastAt: date(r.last_at),
    lastRequests: r.last_requests === null || r.last_requests === undefined ? null : Number(r.last_requests),
    lastError: (r.last_error as string | null) ?? null,
  };
}
