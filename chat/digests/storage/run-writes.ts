/**
 * The writes a digest's delivery makes, batched by group commit: marking a run `posting` before its post, and
 * recording it posted (or quiet) with what it showed after. Each row stays conditional on its claim
 * (`claimed_by`), as a single write was: a worker whose lease was taken over records nothing.
 */
import { GroupCommit } from '../../../base/store/group-commit.ts';
import type { SqlExecutor } from '../../../base/store/sql.ts';
import type { ShownRecord } from './types.ts';

export interface PostingAsk {
  runId: string;
  workerId: string;
  leaseUntil: Date;
  channelId: string;
}

export interface Completion {
  runId: string;
  workerId: string;
  now: Date;
  status: 'posted' | 'quiet';
  messageTs: string | null;
  shown: readonly ShownRecord[];
}

/**
 * Both statements find their rows by `r.id = ANY($1)`, the primary key, whatever the table's statistics say: joined
 * on the unnested values alone, a planner that believes few runs are claimed (PGlite never re-analyzes) scans every
 * run once per value.
 */
export class RunWrites {
  // Group commits: `beginPosting` calls collected for 5 ms (most are made during their channel's spacing wait, so
  // the window costs a first post at most 5 ms) share one statement, and so do completions collected for 25 ms
  // (the record does not hold the channel's slot). Fewer statements leave the event loop to the posts, PGlite's
  // most of all. Each row stays conditional on its claim, as a single write was.
  readonly #posting = new GroupCommit<PostingAsk, boolean>((b) => this.#beginPostingMany(b), 5);
  readonly #completions = new GroupCommit<Completion, boolean>((b) => this.#completeMany(b), 25);

  constructor(private readonly db: SqlExecutor) {}

  /** Marks the run `posting`; false when this worker no longer owns it. */
  beginPosting(ask: PostingAsk): Promise<boolean> {
    return this.#posting.submit(ask);
  }

  /** Ends the run as posted or quiet with what it showed; false when this worker no longer owns it. */
  complete(completion: Completion): Promise<boolean> {
    return this.#completions.submit(completion);
  }

  /** Resolves once every write submitted so far is made. */
  async drain(): Promise<void> {
    await Promise.all([this.#posting.drain(), this.#completions.drain()]);
  }

  /** Marks runs `posting` in one conditional statement; true for each row this worker still owned. */
  async #beginPostingMany(asks: readonly PostingAsk[]): Promise<boolean[]> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE digest_runs r SET status = 'posting', lease_until = v.lease, channel_id = v.channel
       FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[]) AS v(id, worker, lease, channel)
       WHERE r.id = ANY($1::text[]) AND r.id = v.id AND r.claimed_by = v.worker AND r.status IN ('claimed', 'posting') RETURNING r.id`,
      [
        asks.map((a) => a.runId),
        asks.map((a) => a.workerId),
        asks.map((a) => a.leaseUntil),
        asks.map((a) => a.channelId),
      ],
    );
    const ok = new Set(rows.map((r) => String(r.id)));
    return asks.map((a) => ok.has(a.runId));
  }

  /**
   * Ends runs as posted or quiet in one statement (atomic on its own): the conditional update of every run, and
   * what each digest showed only for the runs it applied to. What the runs showed goes as one JSON document of the
   * distinct records (`$6`, parsed once) and each run's index into it: the runs that shared one build
   * (`shared-builds.ts`) share one `shown` array, serialized once, and no record is escaped into a Postgres array.
   */
  async #completeMany(asks: readonly Completion[]): Promise<boolean[]> {
    const distinct: string[] = [];
    const indexOf = new Map<readonly ShownRecord[], number>();
    const shownRuns: string[] = [];
    const shownAt: number[] = [];
    for (const a of asks) {
      // A run that showed nothing has no row.
      if (a.shown.length === 0) continue;
      let i = indexOf.get(a.shown);
      if (i === undefined) {
        i = distinct.push(JSON.stringify(inSignalOrder(a.shown))) - 1;
        indexOf.set(a.shown, i);
      }
      shownRuns.push(a.runId);
      shownAt.push(i);
    }
    const rows = await this.db.query<{ id: string }>(
      `WITH u AS (
         UPDATE digest_runs r SET status = v.status, message_ts = v.ts, finished_at = v.at, lease_until = NULL, error = NULL
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS v(id, worker, status, ts, at)
         WHERE r.id = ANY($1::text[]) AND r.id = v.id AND r.claimed_by = v.worker AND r.status IN ('claimed', 'posting') RETURNING r.id),
       doc AS (SELECT $6::jsonb AS shown),
       ins AS (
         INSERT INTO digest_run_shown (run_id, shown)
         SELECT u.id, doc.shown -> s.i FROM unnest($7::text[], $8::int[]) AS s(run_id, i) JOIN u ON u.id = s.run_id, doc
         ON CONFLICT DO NOTHING)
       SELECT id FROM u`,
      [
        asks.map((a) => a.runId),
        asks.map((a) => a.workerId),
        asks.map((a) => a.status),
        asks.map((a) => a.messageTs),
        asks.map((a) => a.now),
        `[${distinct.join(',')}]`,
        shownRuns,
        shownAt,
      ],
    );
    const ok = new Set(rows.map((r) => String(r.id)));
    return asks.map((a) => ok.has(a.runId));
  }
}

const inSignalOrder = (shown: readonly ShownRecord[]): ShownRecord[] =>
  [...shown].sort((a, b) => (a.signalId < b.signalId ? -1 : a.signalId > b.signalId ? 1 : 0));
