/** Rows of the digest tables as the store's types: the drivers answer dates and JSON columns differently. */
import type { DigestRun, RunStatus, Subscription, SubscriptionStatus } from './types.ts';

export type Row = Record<string, unknown>;
export const date = (v: unknown): Date | null =>
  v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v));
export const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

export function toSubscription(r: Row): Subscription {
  return {
    id: String(r.id),
    platform: (r.platform as Subscription['platform'] | undefined) ?? 'slack',
    orgId: (r.team_id as string | null) ?? null,
    kind: String(r.kind) as Subscription['kind'],
    options: json<Subscription['options']>(r.options ?? {}),
    keyRef: String(r.key_ref),
    channelId: String(r.channel_id),
    channelName: (r.channel_name as string | null | undefined) ?? null,
    serviceUrl: (r.service_url as string | null | undefined) ?? null,
    cadence: String(r.cadence),
    time: String(r.time_of_day),
    timeZone: String(r.time_zone),
    customerIds: json<string[]>(r.customer_ids),
    minSeverity: r.min_severity as Subscription['minSeverity'],
    allClear: Boolean(r.all_clear),
    status: r.status as SubscriptionStatus,
    failureReason: (r.failure_reason as string | null) ?? null,
    createdBy: String(r.created_by),
    createdAt: date(r.created_at)!,
    nextRunAt: date(r.next_run_at),
  };
}

export function toRun(r: Row): DigestRun {
  return {
    id: String(r.id),
    subscriptionId: String(r.subscription_id),
    scheduledFor: date(r.scheduled_for)!,
    status: r.status as RunStatus,
    claimedBy: (r.claimed_by as string | null) ?? null,
    leaseUntil: date(r.lease_until),
    attempts: Number(r.attempts),
    channelId: (r.channel_id as string | null) ?? null,
    messageTs: (r.message_ts as string | null) ?? null,
    error: (r.error as string | null) ?? null,
    finishedAt: date(r.finished_at),
  };
}
