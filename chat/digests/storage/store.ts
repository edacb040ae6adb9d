/**
 * The DigestStore over any SqlExecutor. Exactly-once rests on three things here: the unique
 * (subscription_id, scheduled_for) of runs, claims with `FOR UPDATE SKIP LOCKED` plus a lease, and every
 * state change after a claim being conditional on `claimed_by` (a worker whose lease was taken over cannot
 * record anything).
 */
import { randomBytes } from 'node:crypto';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import { date, json, type Row, toRun, toSubscription } from './rows.ts';
import { RunWrites } from './run-writes.ts';
import type {
  ClaimOptions,
  DigestRun,
  DigestStore,
  MaterializePlan,
  NewSubscription,
  Platform,
  RunStatus,
  ShownRecord,
  Subscription,
  SubscriptionStatus,
} from './types.ts';

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export function newId(prefix: string, length: number): string {
  const bytes = randomBytes(length);
  let s = prefix;
  for (const b of bytes) s += ALPHABET[b % ALPHABET.length];
  return s;
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms);

export class SqlDigestStore implements DigestStore {
  readonly #writes: RunWrites;

  /** `kinds`: the digest kinds' names a subscription may have; the first is the kind of one that names none. */
  constructor(
    private readonly db: SqlExecutor,
    private readonly kinds: readonly string[],
  ) {
    this.#writes = new RunWrites(db);
  }

  async createSubscription(s: NewSubscription, now: Date, nextRunAt: Date | null): Promise<Subscription> {
    // The kinds are the registry's (no CHECK in the table since migration 42): one unknown to it could never run.
    const kind = s.kind ?? this.kinds[0];
    if (!kind || !this.kinds.includes(kind))
      throw new Error(`"${s.kind}" is not a digest kind; the kinds are ${this.kinds.join(', ')}.`);
    // Ids are short enough to type in a command, so among thousands of subscriptions two can be drawn alike:
    // a taken id is skipped and another drawn.
    for (;;) {
      const [row] = await this.insertSubscription(newId('d', 5), s, kind, now, nextRunAt);
      if (row) return toSubscription(row);
    }
  }

  private insertSubscription(
    id: string,
    s: NewSubscription,
    kind: string,
    now: Date,
    nextRunAt: Date | null,
  ): Promise<Row[]> {
    return this.db.query(
      `INSERT INTO digest_subscriptions (id, team_id, key_ref, channel_id, cadence, time_of_day, time_zone, customer_ids,
         min_severity, all_clear, status, created_by, created_at, updated_at, next_run_at, kind, options,
         platform, service_url, channel_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, 'active', $11, $12, $12, $13, $14, $15::jsonb,
         $16, $17, $18)
       ON CONFLICT (id) DO NOTHING RETURNING *`,
      [
        id,
        s.orgId ?? null,
        s.keyRef,
        s.channelId,
        s.cadence,
        s.time,
        s.timeZone,
        JSON.stringify(s.customerIds),
        s.minSeverity,
        s.allClear,
        s.createdBy,
        now,
        nextRunAt,
        kind,
        JSON.stringify(s.options ?? {}),
        s.platform ?? 'slack',
        s.serviceUrl ?? null,
        s.channelName ?? null,
      ],
    );
  }

  async getSubscription(id: string): Promise<Subscription | null> {
    const rows = await this.db.query('SELECT * FROM digest_subscriptions WHERE id = $1', [id]);
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  async listSubscriptions(
    filter: { platform?: Platform; orgId?: string | null; channelId?: string } = {},
  ): Promise<Subscription[]> {
    const rows = await this.db.query(
      `SELECT * FROM digest_subscriptions WHERE ($1::text IS NULL OR team_id = $1) AND ($2::text IS NULL OR channel_id = $2)
         AND ($3::text IS NULL OR platform = $3)
       ORDER BY created_at, id`,
      [filter.orgId ?? null, filter.channelId ?? null, filter.platform ?? null],
    );
    return rows.map(toSubscription);
  }

  async deleteSubscription(id: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM digest_subscriptions WHERE id = $1 RETURNING id', [id])).length > 0;
  }

  async setStatus(
    id: string,
    status: SubscriptionStatus,
    now: Date,
    nextRunAt: Date | null,
  ): Promise<Subscription | null> {
    const rows = await this.db.query(
      `UPDATE digest_subscriptions SET status = $2, updated_at = $3, next_run_at = $4,
         failure_reason = CASE WHEN $2 = 'failing' THEN failure_reason ELSE NULL END
       WHERE id = $1 RETURNING *`,
      [id, status, now, nextRunAt],
    );
    return rows[0] ? toSubscription(rows[0]) : null;
  }

  async markFailing(id: string, reason: string, now: Date): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE digest_subscriptions SET status = 'failing', failure_reason = $2, updated_at = $3
       WHERE id = $1 AND status <> 'failing' RETURNING id`,
      [id, reason, now],
    );
    return rows.length > 0;
  }

  async materializeDue(now: Date, limit: number, plan: (s: Subscription) => MaterializePlan) {
    // Idle ticks (nothing due) cost one indexed read and no transaction.
    const any = await this.db.query(
      `SELECT 1 FROM digest_subscriptions WHERE status = 'active' AND next_run_at <= $1 LIMIT 1`,
      [now],
    );
    if (!any.length) return { created: 0, skipped: 0 };
    return this.db.transaction(async (tx) => {
      const due = await tx.query(
        `SELECT * FROM digest_subscriptions WHERE status = 'active' AND next_run_at <= $1
         ORDER BY next_run_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [now, limit],
      );
      if (!due.length) return { created: 0, skipped: 0 };
      // Every due subscription's runs in one INSERT and every next_run_at in one UPDATE (set-based, one round-trip each).
      const runs = {
        id: [] as string[],
        sub: [] as string[],
        at: [] as Date[],
        status: [] as string[],
        channel: [] as string[],
        error: [] as (string | null)[],
      };
      const next = { id: [] as string[], at: [] as (Date | null)[] };
      for (const row of due) {
        const sub = toSubscription(row);
        const p = plan(sub);
        for (const run of p.runs) {
          runs.id.push(newId('r', 12));
          runs.sub.push(sub.id);
          runs.at.push(run.scheduledFor);
          runs.status.push(run.status);
          runs.channel.push(sub.channelId);
          runs.error.push(run.error ?? null);
        }
        next.id.push(sub.id);
        next.at.push(p.nextRunAt);
      }
      let created = 0;
      let skipped = 0;
      if (runs.id.length) {
        const ins = await tx.query<{ status: string }>(
          `INSERT INTO digest_runs (id, subscription_id, scheduled_for, status, channel_id, error, created_at, finished_at)
           SELECT r.id, r.sub, r.at, r.status, r.channel, r.error, $7, CASE WHEN r.status = 'skipped' THEN $7::timestamptz END
           FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[]) AS r(id, sub, at, status, channel, error)
           ON CONFLICT (subscription_id, scheduled_for) DO NOTHING RETURNING status`,
          [runs.id, runs.sub, runs.at, runs.status, runs.channel, runs.error, now],
        );
        for (const r of ins) r.status === 'skipped' ? skipped++ : created++;
      }
      await tx.query(
        `UPDATE digest_subscriptions d SET next_run_at = u.at FROM unnest($1::text[], $2::timestamptz[]) AS u(id, at) WHERE d.id = u.id`,
        [next.id, next.at],
      );
      return { created, skipped };
    });
  }

  async claimRuns(
    workerId: string,
    now: Date,
    leaseMs: number,
    limit: number,
    options: ClaimOptions = {},
  ): Promise<DigestRun[]> {
    // One statement: its own transaction; the row locks of FOR UPDATE SKIP LOCKED keep two replicas apart. The
    // claimable conditions are on the locked row itself, so a row another replica claimed meanwhile is checked
    // again in its new version (not in the queue's snapshot) and left alone.
    // Each open run's turn is its place in its channel's queue (every open run counts, leased ones too): claims
    // take every channel's next digest before any channel's one after it, so a batch holds runs that can go out
    // now rather than runs waiting for their channel's pacing behind the batch's others.
    // The queue's order is computed once, over the open runs, and only the first few claimable ones (twice the
    // batch, so that runs another replica locks meanwhile still leave a full batch) are joined and locked: ordering
    // and locking every open run (FOR UPDATE sorts all of its input before the limit) made each claim of a large
    // backlog cost as much as the backlog.
    const rows = await this.db.query(
      `WITH queue AS (
           SELECT r.id, r.scheduled_for, r.lease_until,
             row_number() OVER (PARTITION BY r.channel_id ORDER BY r.scheduled_for, r.id) AS turn
           FROM digest_runs r
           WHERE r.status IN ('pending', 'claimed', 'posting') AND r.scheduled_for <= $2),
         next AS (
           SELECT q.id, q.turn, q.scheduled_for FROM queue q
           WHERE (q.lease_until IS NULL OR q.lease_until <= $2) AND ($5::int IS NULL OR q.turn <= $5)
           ORDER BY q.turn, q.scheduled_for, q.id LIMIT $4 * 2),
         c AS (
           SELECT r.id FROM digest_runs r JOIN next q ON q.id = r.id
           WHERE r.status IN ('pending', 'claimed', 'posting') AND (r.lease_until IS NULL OR r.lease_until <= $2)
           ORDER BY q.turn, q.scheduled_for, r.id LIMIT $4 FOR UPDATE OF r SKIP LOCKED)
         UPDATE digest_runs r SET claimed_by = $1, lease_until = $3, attempts = r.attempts + 1,
           status = CASE WHEN r.status = 'pending' THEN 'claimed' ELSE r.status END
         FROM c WHERE r.id = c.id RETURNING r.*`,
      [workerId, now, later(now, leaseMs), limit, options.turnsPerChannel ?? null],
    );
    return rows.map(toRun).sort((a, b) => a.scheduledFor.getTime() - b.scheduledFor.getTime());
  }

  beginPosting(runId: string, workerId: string, now: Date, leaseMs: number, channelId: string): Promise<boolean> {
    return this.#writes.beginPosting({ runId, workerId, leaseUntil: later(now, leaseMs), channelId });
  }

  completeRun(
    runId: string,
    workerId: string,
    now: Date,
    outcome: { status: 'posted' | 'quiet'; messageTs: string | null; shown: readonly ShownRecord[] },
  ): Promise<boolean> {
    return this.#writes.complete({ runId, workerId, now, ...outcome });
  }

  async endRun(
    runId: string,
    workerId: string,
    now: Date,
    status: 'skipped' | 'failed',
    error: string,
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE digest_runs SET status = $3, error = $4, finished_at = $5, lease_until = NULL
       WHERE id = $1 AND claimed_by = $2 AND status IN ('claimed', 'posting') RETURNING id`,
      [runId, workerId, status, error, now],
    );
    return rows.length > 0;
  }

  async releaseRun(runId: string, workerId: string, retryAt: Date, error: string): Promise<void> {
    await this.db.query(
      `UPDATE digest_runs SET lease_until = $3, error = $4 WHERE id = $1 AND claimed_by = $2 AND status IN ('claimed', 'posting')`,
      [runId, workerId, retryAt, error],
    );
  }

  async giveBackRuns(
    runIds: readonly string[],
    workerId: string,
    statuses: readonly ('claimed' | 'posting')[],
  ): Promise<string[]> {
    if (!runIds.length) return [];
    const rows = await this.db.query<{ id: string }>(
      `UPDATE digest_runs SET status = CASE WHEN status = 'claimed' THEN 'pending' ELSE status END,
         claimed_by = NULL, lease_until = NULL, attempts = greatest(attempts - 1, 0)
       WHERE id = ANY($1::text[]) AND claimed_by = $2 AND status = ANY($3::text[]) RETURNING id`,
      [[...runIds], workerId, [...statuses]],
    );
    return rows.map((r) => r.id);
  }

  async previousDigest(subscriptionId: string, before: Date) {
    return (await this.previousDigests([{ subscriptionId, before }]))[0] ?? null;
  }

  async previousDigests(asks: readonly { subscriptionId: string; before: Date }[]) {
    if (!asks.length) return [];
    const runs = await this.db.query(
      `SELECT q.i, r.* FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS q(sub, before, i)
       CROSS JOIN LATERAL (
         SELECT * FROM digest_runs r WHERE r.subscription_id = q.sub AND r.scheduled_for < q.before AND r.status IN ('posted', 'quiet')
         ORDER BY r.scheduled_for DESC LIMIT 1) r`,
      [asks.map((a) => a.subscriptionId), asks.map((a) => a.before)],
    );
    const found = runs.map((row) => ({ i: Number(row.i) - 1, run: toRun(row) }));
    const shownBy = new Map<string, ShownRecord[]>(found.map((f) => [f.run.id, []]));
    if (found.length) {
      const shown = await this.db.query<{ run_id: string; shown: unknown }>(
        'SELECT run_id, shown FROM digest_run_shown WHERE run_id = ANY($1::text[])',
        [[...shownBy.keys()]],
      );
      for (const s of shown) shownBy.set(s.run_id, json<ShownRecord[]>(s.shown));
    }
    const out: ({ run: DigestRun; shown: ShownRecord[] } | null)[] = asks.map(() => null);
    for (const f of found) out[f.i] = { run: f.run, shown: shownBy.get(f.run.id)! };
    return out;
  }

  async nextDueAt(): Promise<Date | null> {
    const rows = await this.db.query<{ at: unknown }>(
      `SELECT least(
         (SELECT min(next_run_at) FROM digest_subscriptions WHERE status = 'active'),
         (SELECT min(greatest(scheduled_for, coalesce(lease_until, scheduled_for))) FROM digest_runs
            WHERE status IN ('pending', 'claimed', 'posting'))) AS at`,
    );
    return date(rows[0]?.at);
  }

  async getSubscriptions(ids: readonly string[]): Promise<Map<string, Subscription>> {
    if (!ids.length) return new Map();
    const rows = await this.db.query('SELECT * FROM digest_subscriptions WHERE id = ANY($1::text[])', [[...ids]]);
    return new Map(rows.map((r) => [String(r.id), toSubscription(r)]));
  }

  async listRuns(filter: { subscriptionId?: string; status?: RunStatus } = {}): Promise<DigestRun[]> {
    const rows = await this.db.query(
      `SELECT * FROM digest_runs WHERE ($1::text IS NULL OR subscription_id = $1) AND ($2::text IS NULL OR status = $2)
       ORDER BY scheduled_for, id`,
      [filter.subscriptionId ?? null, filter.status ?? null],
    );
    return rows.map(toRun);
  }

  async drain(): Promise<void> {
    await this.#writes.drain();
  }
}
