/**
 * Delivery to Slack: a per-channel pacer (about one message per second per channel, channels in parallel),
 * error classification, retries, and the history check that finds a digest already posted for a run.
 */
import type { WebClient } from '@slack/web-api';

export type SlackClient = Pick<WebClient, 'chat' | 'conversations'>;

/**
 * Multi-workspace mode: the client of a workspace's own bot token, by team id; null when the workspace has no
 * installation (its subscriptions are then stopped, never posted with another workspace's token).
 */
export type SlackForTeam = (teamId: string | null) => Promise<SlackClient | null>;

/** One client for every subscription (single-workspace mode), or one per workspace. */
export type DigestSlack = SlackClient | SlackForTeam;

/** Errors that will not go away by retrying: the subscription is marked failing and its creator told. */
export const PERMANENT_ERRORS = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'invalid_auth',
  'account_inactive',
  'token_revoked',
  'not_authed',
  'missing_scope',
  'restricted_action',
  'team_access_not_granted',
  'ekm_access_denied',
]);

export const METADATA_EVENT = 'linen_digest';

export type SlackFailure =
  | { kind: 'permanent'; code: string }
  | { kind: 'ratelimited'; code: 'ratelimited'; retryAfterMs: number }
  | { kind: 'transient'; code: string };

export function classifySlackError(err: unknown): SlackFailure {
  const e = err as { code?: string; data?: { error?: string }; retryAfter?: number; statusCode?: number };
  if (e?.code === 'slack_webapi_rate_limited_error' || e?.data?.error === 'ratelimited') {
    return { kind: 'ratelimited', code: 'ratelimited', retryAfterMs: Math.max(1, e.retryAfter ?? 1) * 1000 };
  }
  const code = e?.data?.error ?? e?.code ?? 'unknown_error';
  if (PERMANENT_ERRORS.has(code)) return { kind: 'permanent', code };
  return { kind: 'transient', code };
}

export interface RetryOptions {
  /** Attempts after the first for transient errors (default 3). */
  retries?: number;
  /** First backoff (default 500 ms), doubling. */
  baseDelayMs?: number;
  /** Longest Retry-After honoured inside one attempt (default 60 s); longer waits give the run back. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class SlackDeliveryError extends Error {
  constructor(
    readonly failure: SlackFailure,
    cause: unknown,
  ) {
    super(`Slack ${failure.code}`, { cause });
    this.name = 'SlackDeliveryError';
  }
}

/** Calls `fn`, retrying transient errors with backoff and rate limits after their Retry-After. */
export async function withSlackRetry<T>(fn: () => Promise<T>, opts: RetryOptions = {}): Promise<T> {
  const retries = opts.retries ?? 3;
  const wait = opts.sleep ?? sleep;
  let delay = opts.baseDelayMs ?? 500;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const f = classifySlackError(err);
      if (f.kind === 'permanent' || attempt >= retries) throw new SlackDeliveryError(f, err);
      if (f.kind === 'ratelimited') {
        if (f.retryAfterMs > (opts.maxRetryAfterMs ?? 60_000)) throw new SlackDeliveryError(f, err);
        await wait(f.retryAfterMs);
      } else {
        await wait(delay);
        delay *= 2;
      }
    }
  }
}

/** Serializes sends per channel with at least `intervalMs` between them; different channels run in parallel. */
export class ChannelPacer {
  readonly #tails = new Map<string, Promise<unknown>>();
  readonly #last = new Map<string, number>();
  constructor(
    readonly intervalMs = 1000,
    private readonly wait: (ms: number) => Promise<void> = sleep,
    private readonly monotonic: () => number = () => performance.now(),
  ) {}

  run<T>(channel: string, fn: () => Promise<T>): Promise<T> {
    return this.runPrepared(channel, async () => ({ send: undefined }), fn);
  }

  /**
   * Like `run`, with `prepare` started as soon as the channel's previous send is done, alongside the spacing
   * wait (its latency does not widen the gap); `send` gets its result once the channel's slot is open. A
   * preparation that finds nothing to send (`skip`) ends at once and leaves the slot to the next one.
   */
  runPrepared<P, T>(
    channel: string,
    prepare: () => Promise<Prepared<P, T>>,
    send: (prepared: P) => Promise<T>,
  ): Promise<T> {
    const prev = this.#tails.get(channel) ?? Promise.resolve();
    const next = prev
      .catch(() => {})
      .then(async () => {
        const last = this.#last.get(channel);
        const due = last === undefined ? 0 : last + this.intervalMs - this.monotonic();
        const spaced = due > 0 ? this.wait(due) : Promise.resolve();
        const p = await prepare();
        if ('skip' in p) return p.skip;
        await spaced;
        try {
          return await send(p.send);
        } finally {
          this.#last.set(channel, this.monotonic());
        }
      });
    this.#tails.set(channel, next);
    const cleanup = () => {
      if (this.#tails.get(channel) === next) this.#tails.delete(channel);
    };
    next.then(cleanup, cleanup);
    return next;
  }
}

/** What a send's preparation found: something to send in the channel's slot, or an answer without sending. */
export type Prepared<P, T> = { send: P } | { skip: T };

/** The ts of a message in `channel` carrying this run id in its metadata, looking back to `oldest`. */
export async function findPostedRun(
  slack: SlackClient,
  channel: string,
  runId: string,
  oldest: Date,
  pages = 5,
): Promise<string | null> {
  let cursor: string | undefined;
  for (let i = 0; i < pages; i++) {
    const res = await slack.conversations.history({
      channel,
      include_all_metadata: true,
      limit: 200,
      oldest: (oldest.getTime() / 1000).toFixed(6),
      ...(cursor ? { cursor } : {}),
    });
    for (const m of res.messages ?? []) {
      const meta = m.metadata as { event_type?: string; event_payload?: { run_id?: unknown } } | undefined;
      if (meta?.event_type === METADATA_EVENT && meta.event_payload?.run_id === runId && m.ts) return m.ts;
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor || !res.has_more) break;
  }
  return null;
}

/** Plain one-line reasons for the creator's DM. */
export function explainFailure(code: string, channelId: string): string {
  switch (code) {
    case 'not_in_channel':
      return `the bot is not a member of <#${channelId}>; invite it with \`/invite @Linen\` there`;
    case 'channel_not_found':
      return `channel <#${channelId}> no longer exists or the bot cannot see it`;
    case 'is_archived':
      return `channel <#${channelId}> is archived`;
    case 'invalid_auth':
    case 'token_revoked':
    case 'account_inactive':
    case 'not_authed':
      return 'the bot token was revoked or is no longer valid; reinstall the app';
    case 'linen_key_missing':
      return 'the Linen API key it was set up with is no longer configured for the bot; unsubscribe it and subscribe again with the current key';
    case 'linen_auth':
      return 'the Linen API key was rejected or lacks the processing scope';
    default:
      return `Slack answered \`${code}\``;
  }
}
