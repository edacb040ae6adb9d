/**
 * The alert store over the service's database. Telling each occurrence exactly once rests on three things here:
 * a key's check is held by one worker at a time (`alert_checks`, claimed with SKIP LOCKED and a lease); what a check
 * found is recorded in one transaction, conditional on still holding the key's check, that both writes each alert's
 * new `seen` and inserts the posts telling what was not seen before (so a crash before it records nothing, and the
 * next check finds the same news); and a post, once inserted, is delivered by the same claim-then-post discipline as
 * a digest run (`posting` before the post, every later write conditional on the claim).
 */

import type { SqlExecutor } from '../../../base/store/sql.ts';
import { newId } from '../../digests/storage/store.ts';
import type { Occurrence } from '../kind.ts';
import { toAlert, toCheck, toPost } from './rows.ts';
import type { Alert, AlertOutcome, AlertPost, AlertStatus, KeyCheck, NewAlert, PostStatus } from './types.ts';

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);
const sameSeen = (a: unknown, b: string[] | null) => JSON.stringify(a ?? null) === JSON.stringify(b);

export interface AlertFilter {
  platform?: string | undefined;
  orgId?: string | null | undefined;
  keyRef?: string | undefined;
}

export class AlertStore {
  constructor(private readonly db: SqlExecutor) {}

  /** Stores an alert, and gives its key a check (due one poll from now) if it has none. */
  async createAlert(a: NewAlert, now: Date, firstCheckAt: Date): Promise<Alert> {
    return this.db.transaction(async (tx) => {
      for (;;) {
        const [row] = await tx.query(
          `INSERT INTO alerts (id, platform, team_id, key_ref, kind, options, customer_ids, time_zone, channel_id,
             channel_name, service_url, direct, status, created_by, created_at, updated_at, seen, seen_at, last_day)
           VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11, $12, 'active', $13, $14, $14, $15::jsonb,
             CASE WHEN $15::jsonb IS NULL THEN NULL ELSE $14::timestamptz END, $16)
           ON CONFLICT (id) DO NOTHING RETURNING *`,
          [
            newId('a', 5),
            a.platform,
            a.orgId,
            a.keyRef,
            a.kind,
            JSON.stringify(a.options ?? {}),
            JSON.stringify(a.customerIds),
            a.timeZone,
            a.channelId,
            a.channelName,
            a.serviceUrl,
            a.direct,
            a.createdBy,
            now,
            a.seen === null ? null : JSON.stringify(a.seen),
            a.lastDay ?? null,
          ],
        );
        if (!row) continue; // an id already taken: another is drawn
        await tx.query('INSERT INTO alert_checks (key_ref, next_at) VALUES ($1, $2) ON CONFLICT (key_ref) DO NOTHING', [
          a.keyRef,
          firstCheckAt,
        ]);
        return toAlert(row);
      }
    });
  }

  async getAlert(id: string): Promise<Alert | null> {
    const [row] = await this.db.query('SELECT * FROM alerts WHERE id = $1', [id]);
    return row ? toAlert(row) : null;
  }

  async getAlerts(ids: readonly string[]): Promise<Map<string, Alert>> {
    if (!ids.length) return new Map();
    const rows = await this.db.query('SELECT * FROM alerts WHERE id = ANY($1::text[])', [[...ids]]);
    return new Map(rows.map((r) => [String(r.id), toAlert(r)]));
  }

  async listAlerts(filter: AlertFilter = {}): Promise<Alert[]> {
    const rows = await this.db.query(
      `SELECT * FROM alerts WHERE ($1::text IS NULL OR platform = $1) AND ($2::text IS NULL OR team_id = $2)
         AND ($3::text IS NULL OR key_ref = $3)
       ORDER BY created_at, id`,
      [filter.platform ?? null, filter.orgId ?? null, filter.keyRef ?? null],
    );
    return rows.map(toAlert);
  }

  /** The alerts a check of the key evaluates. */
  async activeAlertsOf(keyRef: string): Promise<Alert[]> {
    const rows = await this.db.query(
      `SELECT * FROM alerts WHERE key_ref = $1 AND status = 'active' ORDER BY created_at, id`,
      [keyRef],
    );
    return rows.map(toAlert);
  }

  async deleteAlert(id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM alerts WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  /**
   * Pauses, or resumes with what is true now recorded as seen (`seen`; null: the next check records it), so that
   * what became true while it was paused is not told as news; a resumed alert's key gets a check if it has none.
   */
  async setAlertStatus(
    id: string,
    status: Exclude<AlertStatus, 'failing'>,
    now: Date,
    resume?: { seen: string[] | null; lastDay?: string | null | undefined; firstCheckAt: Date },
  ): Promise<Alert | null> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query(
        `UPDATE alerts SET status = $2, updated_at = $3, failure_reason = NULL,
           seen = CASE WHEN $4 THEN $5::jsonb ELSE seen END,
           seen_at = CASE WHEN $4 THEN $3 ELSE seen_at END,
           last_day = CASE WHEN $4 THEN $6 ELSE last_day END
         WHERE id = $1 RETURNING *`,
        [
          id,
          status,
          now,
          resume !== undefined,
          resume?.seen ? JSON.stringify(resume.seen) : null,
          resume?.lastDay ?? null,
        ],
      );
      if (row && resume)
        await tx.query('INSERT INTO alert_checks (key_ref, next_at) VALUES ($1, $2) ON CONFLICT (key_ref) DO NOTHING', [
          String(row.key_ref),
          resume.firstCheckAt,
        ]);
      return row ? toAlert(row) : null;
    });
  }

  /** Marks failing; true only for the call that moved it there (its creator is told once). */
  async markFailing(id: string, reason: string, now: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE alerts SET status = 'failing', failure_reason = $2, updated_at = $3
       WHERE id = $1 AND status <> 'failing' RETURNING id`,
      [id, reason, now],
    );
    return rows.length > 0;
  }

  // ---- checks -------------------------------------------------------------------------------------------------

  /**
   * Claims keys whose check is due (SKIP LOCKED: replicas take different keys) and moves each one's next check a
   * poll later. A key left with no active alert loses its check instead.
   */
  async claimChecks(workerId: string, now: Date, leaseMs: number, pollMs: number, limit: number): Promise<KeyCheck[]> {
    await this.db.query(
      `DELETE FROM alert_checks c WHERE c.next_at <= $1 AND (c.lease_until IS NULL OR c.lease_until <= $1)
         AND NOT EXISTS (SELECT 1 FROM alerts a WHERE a.key_ref = c.key_ref AND a.status = 'active')`,
      [now],
    );
    const rows = await this.db.query(
      `WITH due AS (
         SELECT key_ref FROM alert_checks
         WHERE next_at <= $2 AND (lease_until IS NULL OR lease_until <= $2)
         ORDER BY next_at, key_ref LIMIT $5 FOR UPDATE SKIP LOCKED)
       UPDATE alert_checks c SET claimed_by = $1, lease_until = $3, next_at = $4
       FROM due WHERE c.key_ref = due.key_ref RETURNING c.*`,
      [workerId, now, later(now, leaseMs), later(now, pollMs), limit],
    );
    return rows.map(toCheck);
  }

  /**
   * Records what a check of the key found, in one transaction and only while this worker still holds the check:
   * each alert's new `seen` (and day), and one post per alert that saw something new since its last check (none for
   * an alert whose `seen` was not recorded yet: the first check is quiet about the past). An alert paused, removed
   * or changed since it was read is left out (its next check sees it as it is). Releases the key's check.
   */
  async commitCheck(
    keyRef: string,
    workerId: string,
    now: Date,
    outcomes: readonly AlertOutcome[],
    stats: { requests: number },
  ): Promise<{ committed: boolean; posts: AlertPost[] }> {
    return this.db.transaction(async (tx) => {
      const [held] = await tx.query<{ claimed_by: string | null }>(
        'SELECT claimed_by FROM alert_checks WHERE key_ref = $1 FOR UPDATE',
        [keyRef],
      );
      if (held?.claimed_by !== workerId) return { committed: false, posts: [] };
      const ids = outcomes.map((o) => o.alertId);
      const current = ids.length
        ? await tx.query<{ id: string; status: string; seen: unknown }>(
            'SELECT id, status, seen FROM alerts WHERE id = ANY($1::text[]) FOR UPDATE',
            [ids],
          )
        : [];
      const byId = new Map(current.map((r) => [String(r.id), r]));
      const kept = outcomes.filter((o) => {
        const row = byId.get(o.alertId);
        return row?.status === 'active' && sameSeen(row.seen, o.expectedSeen);
      });
      const told = kept.filter((o) => o.expectedSeen !== null && o.fresh.length > 0);
      const posts = told.length
        ? await tx.query(
            `INSERT INTO alert_posts (id, alert_id, checked_at, status, told, channel_id, created_at)
             SELECT p.id, p.alert, $3, 'pending', p.told::jsonb, a.channel_id, $3
             FROM unnest($1::text[], $2::text[], $4::text[]) AS p(id, alert, told) JOIN alerts a ON a.id = p.alert
             RETURNING alert_posts.*`,
            [told.map(() => newId('p', 12)), told.map((o) => o.alertId), now, told.map((o) => JSON.stringify(o.fresh))],
          )
        : [];
      if (kept.length)
        await tx.query(
          `UPDATE alerts a SET seen = u.seen::jsonb, seen_at = $4, last_day = COALESCE(u.day, a.last_day),
             last_fired_at = CASE WHEN u.told THEN $4 ELSE a.last_fired_at END
           FROM unnest($1::text[], $2::text[], $3::text[], $5::boolean[]) AS u(id, seen, day, told) WHERE a.id = u.id`,
          [
            kept.map((o) => o.alertId),
            kept.map((o) => JSON.stringify(o.seen)),
            kept.map((o) => o.lastDay ?? null),
            now,
            kept.map((o) => told.includes(o)),
          ],
        );
      await tx.query(
        `UPDATE alert_checks SET claimed_by = NULL, lease_until = NULL, last_at = $2, last_requests = $3,
           last_error = NULL WHERE key_ref = $1`,
        [keyRef, now, stats.requests],
      );
      return { committed: true, posts: posts.map(toPost) };
    });
  }

  /** A check that could not read (or record): released for its next turn, with why. */
  async releaseCheck(keyRef: string, workerId: string, now: Date, error: string, retryAt?: Date): Promise<void> {
    await this.db.query(
      `UPDATE alert_checks SET claimed_by = NULL, lease_until = NULL, last_at = $3, last_error = $4,
         next_at = COALESCE($5, next_at)
       WHERE key_ref = $1 AND claimed_by = $2`,
      [keyRef, workerId, now, error.slice(0, 500), retryAt ?? null],
    );
  }

  /**
   * Brings every key's next check forward to `now` (a check under way keeps its lease): the console checks at once
   * after it changes the data of the sandbox it runs.
   */
  async checkAllNow(now: Date): Promise<void> {
    await this.db.query('UPDATE alert_checks SET next_at = $1 WHERE next_at > $1', [now]);
  }

  async listChecks(): Promise<KeyCheck[]> {
    return (await this.db.query('SELECT * FROM alert_checks ORDER BY key_ref')).map(toCheck);
  }

  // ---- posts: what the run executor needs (the same discipline as digest runs) -----------------------------------

  /** Claims posts due and unleased (or whose lease expired); each channel's older post first. */
  async claimPosts(workerId: string, now: Date, leaseMs: number, limit: number): Promise<AlertPost[]> {
    const rows = await this.db.query(
      `WITH c AS (
         SELECT id FROM alert_posts
         WHERE status IN ('pending', 'claimed', 'posting') AND checked_at <= $2
           AND (lease_until IS NULL OR lease_until <= $2)
         ORDER BY checked_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
       UPDATE alert_posts p SET claimed_by = $1, lease_until = $3, attempts = p.attempts + 1,
         status = CASE WHEN p.status = 'pending' THEN 'claimed' ELSE p.status END
       FROM c WHERE p.id = c.id RETURNING p.*`,
      [workerId, now, later(now, leaseMs), limit],
    );
    return rows.map(toPost).sort((a, b) => a.checkedAt.getTime() - b.checkedAt.getTime());
  }

  async beginPosting(
    postId: string,
    workerId: string,
    now: Date,
    leaseMs: number,
    channelId: string,
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE alert_posts SET status = 'posting', lease_until = $3, channel_id = $4
       WHERE id = $1 AND claimed_by = $2 AND status IN ('claimed', 'posting') RETURNING id`,
      [postId, workerId, later(now, leaseMs), channelId],
    );
    return rows.length > 0;
  }

  async completeRun(
    postId: string,
    workerId: string,
    now: Date,
    outcome: { messageTs: string | null },
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE alert_posts SET status = 'posted', message_ts = $3, finished_at = $4, lease_until = NULL, error = NULL
       WHERE id = $1 AND claimed_by = $2 AND status IN ('claimed', 'posting') RETURNING id`,
      [postId, workerId, outcome.messageTs, now],
    );
    return rows.length > 0;
  }

  async endRun(postId: string, workerId: string, now: Date, status: 'skipped' | 'failed', error: string) {
    const rows = await this.db.query(
      `UPDATE alert_posts SET status = $3, error = $4, finished_at = $5, lease_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND status IN ('claimed', 'posting') RETURNING id`,
      [postId, workerId, status, error, now],
    );
    return rows.length > 0;
  }

  async releaseRun(postId: string, workerId: string, retryAt: Date, error: string): Promise<void> {
    await this.db.query(
      `UPDATE alert_posts SET lease_until = $3, error = $4 WHERE id = $1 AND claimed_by = $2
         AND status IN ('claimed', 'posting')`,
      [postId, workerId, retryAt, error],
    );
  }

  async giveBackRuns(
    postIds: readonly string[],
    workerId: string,
    statuses: readonly ('claimed' | 'posting')[],
  ): Promise<string[]> {
    if (!postIds.length) return [];
    const rows = await this.db.query<{ id: string }>(
      `UPDATE alert_posts SET status = CASE WHEN status = 'claimed' THEN 'pending' ELSE status END,
         claimed_by = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0)
       WHERE id = ANY($1::text[]) AND claimed_by = $2 AND status = ANY($3::text[]) RETURNING id`,
      [[...postIds], workerId, [...statuses]],
    );
    return rows.map((r) => r.id);
  }

  /** `alert test`: a post of what is true now, said as a test; it changes nothing the alert has seen. */
  async addTestPost(alertId: string, told: readonly Occurrence[], now: Date): Promise<AlertPost> {
    const [row] = await this.db.query(
      `INSERT INTO alert_posts (id, alert_id, checked_at, status, told, test, channel_id, created_at)
       SELECT $1, a.id, $3, 'pending', $4::jsonb, true, a.channel_id, $3 FROM alerts a WHERE a.id = $2 RETURNING *`,
      [newId('p', 12), alertId, now, JSON.stringify(told)],
    );
    if (!row) throw new Error(`no alert ${alertId}`);
    return toPost(row);
  }

  async listPosts(filter: { alertId?: string; status?: PostStatus } = {}): Promise<AlertPost[]> {
    const rows = await this.db.query(
      `SELECT * FROM alert_posts WHERE ($1::text IS NULL OR alert_id = $1) AND ($2::text IS NULL OR status = $2)
       ORDER BY checked_at, id`,
      [filter.alertId ?? null, filter.status ?? null],
    );
    return rows.map(toPost);
  }

  /** The next instant the worker has something to do: a key's check, or an open post's due time or lease end. */
  async nextDueAt(): Promise<Date | null> {
    const [row] = await this.db.query<{ at: unknown }>(
      `SELECT least(
         (SELECT min(greatest(next_at, coalesce(lease_until, next_at))) FROM alert_checks),
         (SELECT min(greatest(checked_at, coalesce(lease_until, checked_at))) FROM alert_posts
            WHERE status IN ('pending', 'claimed', 'posting'))) AS at`,
    );
    const at = row?.at;
    return at === null || at === undefined ? null : at instanceof Date ? at : new Date(String(at));
  }
}
