/**
 * The alerts in `npm run admin -- status`, as the digests are listed: each alert with what it watches (in its kind's
 * words, customers by id: their names are the API's, not the store's), where it posts, its key by its last four,
 * its state, when it last fired and the last check of its key; and the ones that fail, with why. Read without
 * changing anything; a store of a version before alerts has none.
 */
import type { SqlExecutor } from '../../base/store/sql.ts';
import { ALERT_KIND_REGISTRY } from '../../chat/alerts/check.ts';
import { AlertStore } from '../../chat/alerts/storage/store.ts';
import type { Alert, KeyCheck } from '../../chat/alerts/storage/types.ts';
import type { Platform } from './status.ts';

/** The last check of an alert's key (one check reads for every alert on the key). */
export interface AlertCheck {
  /** Null: not checked yet. */
  at: Date | null;
  /** Requests the check sent (a listing another caller had just read costs none). */
  requests: number | null;
  /** Why it could not read, when it could not (the next check reads again: nothing is lost). */
  error: string | null;
  /** When the key is checked next. */
  nextAt: Date;
}

export interface AlertRow {
  platform: Platform;
  id: string;
  workspace: string | null;
  kind: string;
  /** What it watches, in its kind's words (`carts closing at least 5 pieces short at <customer id> › ICU`). */
  watches: string;
  /** `#<channel id>`, or `dm <user id>`: the direct conversation with the person who set it. */
  postsIn: string;
  /** The key it checks with: `…` and its last four, or why that is not known. */
  key: string;
  state: 'active' | 'paused' | 'failing';
  lastFiredAt: Date | null;
  /** Null when its key has no check (none of its alerts is active). */
  lastCheck: AlertCheck | null;
}

export interface FailingAlertRow {
  platform: Platform;
  id: string;
  workspace: string | null;
  postsIn: string;
  /** `failing`: stopped until resumed; `retrying`: a post or its key's last check failed and is tried again. */
  state: 'failing' | 'retrying';
  since: Date;
  reason: string;
  /** The error code of its last post that failed (`not_in_channel`...), when one was recorded. */
  code: string | null;
}

export interface AlertStatus {
  alerts: AlertRow[];
  failingAlerts: FailingAlertRow[];
}

interface PostRow {
  alert_id: string;
  status: string;
  at: Date | string;
  error: string | null;
}

const date = (v: Date | string): Date => new Date(v);
/** Slack's mrkdwn in a failure reason (`<#C0123>`, backticks) as plain text. */
const plain = (text: string): string => text.replace(/<#([A-Z0-9]+)(\|[^>]*)?>/g, '#$1').replace(/`/g, '');
const postsIn = (a: Alert) => (a.direct ? `dm ${a.createdBy}` : `#${a.channelId}`);

/** What an alert watches, with no customer names to hand: each customer shown by its id. */
function watches(a: Alert): string {
  const kind = ALERT_KIND_REGISTRY.byName(a.kind);
  if (!kind) return `${a.kind} (a kind this version does not know)`;
  try {
    return kind.describe({ options: a.options, customerIds: a.customerIds, timeZone: a.timeZone }, new Map());
  } catch {
    return `${a.kind} (its options are not read by this version)`;
  }
}

/**
 * The alerts and the failing ones; `keyNames` names each key reference (`…a1b2`, `…7e8f (LINEN_API_KEY)`).
 * `has(table.column)` says what the store has.
 */
export async function readAlertStatus(
  db: SqlExecutor,
  has: (column: string) => boolean,
  keyNames: ReadonlyMap<string, string>,
): Promise<AlertStatus> {
  if (!has('alerts.id')) return { alerts: [], failingAlerts: [] };
  const store = new AlertStore(db);
  const alerts = (await store.listAlerts()).sort(
    (a, z) =>
      (a.orgId ?? '').localeCompare(z.orgId ?? '') ||
      a.channelId.localeCompare(z.channelId) ||
      a.id.localeCompare(z.id),
  );
  const checks = new Map<string, KeyCheck>(
    has('alert_checks.key_ref') ? (await store.listChecks()).map((c) => [c.keyRef, c]) : [],
  );
  const posts = alerts.length && has('alert_posts.id');
  // Each alert's latest finished post, and its open post that failed and waits for a retry.
  const finished = posts
    ? await db.query<PostRow>(
        `SELECT DISTINCT ON (alert_id) alert_id, status, coalesce(finished_at, checked_at) AS at, error
         FROM alert_posts WHERE status IN ('posted', 'skipped', 'failed')
         ORDER BY alert_id, checked_at DESC`,
      )
    : [];
  const retrying = posts
    ? await db.query<PostRow>(
        `SELECT DISTINCT ON (alert_id) alert_id, status, checked_at AS at, error
         FROM alert_posts WHERE status IN ('pending', 'claimed', 'posting') AND error IS NOT NULL
         ORDER BY alert_id, checked_at`,
      )
    : [];
  // When each failing alert stopped (the row's last change).
  const stoppedAt = new Map(
    (
      await db.query<{ id: string; updated_at: Date | string }>(
        `SELECT id, updated_at FROM alerts WHERE status = 'failing'`,
      )
    ).map((r) => [r.id, date(r.updated_at)]),
  );
  const lastPosts = new Map(finished.map((p) => [p.alert_id, p]));
  const retries = new Map(retrying.map((p) => [p.alert_id, p]));

  const rows: AlertRow[] = alerts.map((a) => {
    const check = checks.get(a.keyRef);
    return {
      platform: a.platform,
      id: a.id,
      workspace: a.orgId,
      kind: a.kind,
      watches: watches(a),
      postsIn: postsIn(a),
      key: keyNames.get(a.keyRef) ?? 'not connected',
      state: a.status,
      lastFiredAt: a.lastFiredAt,
      lastCheck: check
        ? { at: check.lastAt, requests: check.lastRequests, error: check.lastError, nextAt: check.nextAt }
        : null,
    };
  });

  const failingAlerts: FailingAlertRow[] = [];
  for (const a of alerts) {
    const where = { platform: a.platform, id: a.id, workspace: a.orgId, postsIn: postsIn(a) };
    const retry = retries.get(a.id);
    const check = checks.get(a.keyRef);
    if (a.status === 'failing') {
      const last = lastPosts.get(a.id);
      failingAlerts.push({
        ...where,
        state: 'failing',
        since: stoppedAt.get(a.id) ?? a.createdAt,
        reason: plain(a.failureReason ?? 'no reason recorded'),
        code: last?.status === 'failed' || last?.status === 'skipped' ? last.error : null,
      });
    } else if (a.status === 'active' && retry) {
      failingAlerts.push({
        ...where,
        state: 'retrying',
        since: date(retry.at),
        reason: `its post failed and is tried again: ${plain(retry.error ?? '')}`,
        code: null,
      });
    } else if (a.status === 'active' && check?.lastError && check.lastAt) {
      failingAlerts.push({
        ...where,
        state: 'retrying',
        since: check.lastAt,
        reason: `its key's last check could not read, and the next one reads again: ${check.lastError}`,
        code: null,
      });
    }
  }
  return { alerts: rows, failingAlerts };
}
