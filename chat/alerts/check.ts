/**
 * One check of one key: every active alert on the key is evaluated against listings read once for all of them (the
 * `AlertReads` of the check), what is true now is compared with what each alert saw at its last check, and the news
 * is recorded, with one post per alert that has any, in one transaction (`AlertStore.commitCheck`). The first
 * evaluation of an alert whose `seen` was never recorded records it without telling it.
 *
 * A failure to read is the check's, not an alert's: the key's check is released to be tried at its next turn, and
 * nothing is recorded, so nothing is lost. The key refused (revoked) or a scope it lacks stops the alerts that need
 * it, each creator told once, as a failing digest's is.
 */
import { AuthenticationError, ConfigurationError, PermissionDeniedError } from '../../shared/errors.ts';
import { addDays, today as dayIn } from '../../shared/index.ts';
import type { AlertKind, AlertReads, CheckTime, Occurrence } from './kind.ts';
import { ALERT_KINDS } from './kinds/index.ts';
import type { AlertStore } from './storage/store.ts';
import type { Alert, AlertOutcome, AlertPost, KeyCheck } from './storage/types.ts';

export interface AlertKinds {
  byName(name: string): AlertKind | undefined;
}

/** The kinds the worker dispatches through (a test adds its own). */
export const ALERT_KIND_REGISTRY: AlertKinds = {
  byName: (name) => ALERT_KINDS.find((k) => k.name === name),
};

/** Why alerts stopped at a check: the key refused, or a scope it lacks. */
export interface StoppedAlert {
  alert: Alert;
  code: 'linen_auth' | 'linen_key_missing';
  reason: string;
}

export interface CheckDeps {
  store: AlertStore;
  kinds: AlertKinds;
  workerId: string;
  now: () => Date;
  /** The listings of one check of the key, read with its background client (a fresh set for each check). */
  readsFor(keyRef: string): Promise<AlertReads>;
  /** Counts the requests `fn` sends (`countingRequests`); default: none counted. */
  counting?: <T>(fn: () => Promise<T>) => Promise<{ value: T; requests: number }>;
}

export interface CheckResult {
  keyRef: string;
  /** False when nothing was recorded (the check was taken over, or could not read). */
  committed: boolean;
  /** Requests the check sent. */
  requests: number;
  posts: AlertPost[];
  /** The alerts that saw news, by kind, with how long after the API's own time of it each occurrence was found. */
  fired: { kind: string; platform: string; delaysMs: number[] }[];
  stopped: StoppedAlert[];
  /** Why the check could not read, when it could not. */
  error?: string | undefined;
}

export function checkTimeOf(now: Date, timeZone: string): CheckTime {
  const today = dayIn(timeZone, now);
  return { now, today, yesterday: addDays(today, -1) };
}

/** What one alert's evaluation found (nothing for a daily kind that already read its day). */
async function evaluate(alert: Alert, kind: AlertKind, reads: AlertReads, now: Date): Promise<AlertOutcome | null> {
  const time = checkTimeOf(now, alert.timeZone);
  if (kind.cadence === 'daily' && alert.lastDay === time.yesterday) return null;
  const previous = new Set(alert.seen ?? []);
  const found: Occurrence[] = await kind.occurrences(
    { options: alert.options, customerIds: alert.customerIds, timeZone: alert.timeZone },
    reads,
    time,
    previous,
  );
  const seen = [...new Set(found.map((o) => o.id))];
  const fresh = found.filter((o) => !previous.has(o.id)).sort((a, b) => b.weight - a.weight);
  return {
    alertId: alert.id,
    seen,
    fresh,
    lastDay: kind.cadence === 'daily' ? time.yesterday : undefined,
    expectedSeen: alert.seen,
  };
}

const isRefusal = (err: unknown) => err instanceof AuthenticationError || err instanceof PermissionDeniedError;

export async function checkKey(check: KeyCheck, deps: CheckDeps): Promise<CheckResult> {
  const { store, workerId } = deps;
  const keyRef = check.keyRef;
  const counting = deps.counting ?? (async <T>(fn: () => Promise<T>) => ({ value: await fn(), requests: 0 }));
  const result: CheckResult = { keyRef, committed: false, requests: 0, posts: [], fired: [], stopped: [] };
  const alerts = await store.activeAlertsOf(keyRef);
  const outcomes: AlertOutcome[] = [];
  let failure: unknown;
  const run = await counting(async () => {
    let reads: AlertReads;
    try {
      reads = await deps.readsFor(keyRef);
    } catch (err) {
      if (!(err instanceof ConfigurationError)) throw err;
      // The key it was set with is no longer configured: no check can run until it is set again with one.
      const reason =
        'the Linen API key it was set up with is no longer configured; remove it and set it again with the current key';
      for (const alert of alerts) result.stopped.push({ alert, code: 'linen_key_missing', reason });
      return;
    }
    // Every alert's reads start together: each listing is sent once and shared.
    const evaluated = await Promise.all(
      alerts.map(async (alert) => {
        const kind = deps.kinds.byName(alert.kind);
        // A kind this version does not know (a newer replica's, during a deploy) is left to the replicas that do.
        if (!kind) return null;
        try {
          return await evaluate(alert, kind, reads, deps.now());
        } catch (err) {
          // The key refused, or lacks the scope this kind reads: this alert cannot run until fixed.
          if (isRefusal(err)) {
            result.stopped.push({
              alert,
              code: 'linen_auth',
              reason: 'the Linen API key was rejected or lacks the scope this alert reads',
            });
            return null;
          }
          failure ??= err;
          return null;
        }
      }),
    );
    for (const o of evaluated) if (o) outcomes.push(o);
  });
  result.requests = run.requests;
  if (failure !== undefined) {
    // Nothing recorded: the next check reads again and finds the same news.
    result.error = failure instanceof Error ? failure.message : String(failure);
    await store.releaseCheck(keyRef, workerId, deps.now(), result.error);
    return result;
  }
  const committed = await store.commitCheck(keyRef, workerId, deps.now(), outcomes, { requests: run.requests });
  result.committed = committed.committed;
  result.posts = committed.posts;
  if (committed.committed) {
    const alertById = new Map(alerts.map((a) => [a.id, a]));
    const now = deps.now().getTime();
    for (const p of committed.posts) {
      const alert = alertById.get(p.alertId);
      const delaysMs = p.told.filter((o) => o.at !== null).map((o) => Math.max(0, now - Date.parse(o.at!)));
      result.fired.push({ kind: alert?.kind ?? 'unknown', platform: alert?.platform ?? 'unknown', delaysMs });
    }
  }
  return result;
}
