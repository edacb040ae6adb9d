/**
 * The Slack Web API faults a digest can meet, one table row each, through the fake Slack on loopback, on PGlite and
 * on PostgreSQL. Errors that stop a subscription mark it failing and tell its creator once; the others are retried
 * a bounded number of times; in every case the digest is posted once or not at all, and the other channels'
 * digests go out as usual.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DigestCommandContext, runDigestCommand } from '../../../chat/digests/digest-answers.ts';
import type { Logger } from '../../../chat/digests/engine.ts';
import { drivers } from '../../support/digest-db.ts';
import { CH, commandContext, type DigestEnv, startDigestEnv, USER } from '../../support/digest-env.ts';
import type { FakeSlack } from '../../support/digest-slack.ts';

/** Another channel, healthy, whose digest must go out whatever happens in CH. */
const OTHER = 'C0HEALTHY';
/** 07:00 in Chicago on Thu 5 Nov 2026, when both digests are due. */
const DUE = '2026-11-05T13:00:00Z';

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m, d) => lines.push(`info ${m} ${JSON.stringify(d ?? {})}`),
    warn: (m, d) => lines.push(`warn ${m} ${JSON.stringify(d ?? {})}`),
  };
}

interface Stopping {
  code: string;
  /** Makes the fake answer the fault. */
  inject(slack: FakeSlack): void;
  /** The token itself no longer works: nothing reaches Slack, the creator's DM included (it is logged). */
  tokenGone: boolean;
  reason: RegExp;
}

const channelFault =
  (code: string) =>
  (slack: FakeSlack): void => {
    slack.failures.set(CH, code);
  };
const tokenFault =
  (code: string) =>
  (slack: FakeSlack): void => {
    slack.authError = code;
  };

const STOPPING: Stopping[] = [
  {
    code: 'channel_not_found',
    inject: channelFault('channel_not_found'),
    tokenGone: false,
    reason: /no longer exists/,
  },
  { code: 'not_in_channel', inject: channelFault('not_in_channel'), tokenGone: false, reason: /\/invite @Linen/ },
  { code: 'is_archived', inject: channelFault('is_archived'), tokenGone: false, reason: /is archived/ },
  { code: 'invalid_auth', inject: tokenFault('invalid_auth'), tokenGone: true, reason: /reinstall the app/ },
  { code: 'token_revoked', inject: tokenFault('token_revoked'), tokenGone: true, reason: /reinstall the app/ },
  { code: 'account_inactive', inject: tokenFault('account_inactive'), tokenGone: true, reason: /reinstall the app/ },
];

interface Transient {
  name: string;
  inject(slack: FakeSlack): void;
  /** Outcomes of the tick at DUE, and of the one after the retry delay (null: no second tick needed). */
  first: Record<string, number>;
  second: Record<string, number> | null;
  /** chat.postMessage calls to CH in all. */
  postCalls: number;
}

const TRANSIENT: Transient[] = [
  {
    name: 'ratelimited with Retry-After: 1 on chat.postMessage, twice: waited out within the attempt',
    inject: (s) => Object.assign(s.rateLimit, { count: 2, retryAfter: 1 }),
    first: { posted: 2 },
    second: null,
    postCalls: 3,
  },
  {
    name: 'ratelimited with a Retry-After longer than an attempt waits: the run is tried again after it',
    inject: (s) => Object.assign(s.rateLimit, { count: 1, retryAfter: 120 }),
    first: { retry: 1, posted: 1 },
    second: { posted: 1 },
    postCalls: 2,
  },
  {
    name: 'HTTP 500 twice: retried within the attempt',
    inject: (s) => (s.serverErrors.count = 2),
    first: { posted: 2 },
    second: null,
    postCalls: 3,
  },
  {
    name: 'HTTP 500 for a whole attempt: the run is tried again a minute later',
    inject: (s) => (s.serverErrors.count = 4),
    first: { retry: 1, posted: 1 },
    second: { posted: 1 },
    postCalls: 5,
  },
  {
    name: 'posted, but answered 502: the retry finds the message instead of posting again',
    inject: (s) => Object.assign(s.postedThenFailed, { count: 1, how: '502' }),
    first: { posted: 2 },
    second: null,
    postCalls: 1,
  },
  {
    name: 'posted, but the connection dropped before the answer: the retry finds the message',
    inject: (s) => Object.assign(s.postedThenFailed, { count: 1, how: 'drop' }),
    first: { posted: 2 },
    second: null,
    postCalls: 1,
  },
];

for (const driver of drivers) {
  describe(`Slack Web API faults on digests (${driver})`, () => {
    let env: DigestEnv;
    let ctx: DigestCommandContext;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
      ctx = commandContext(env);
      env.slack.members.add(OTHER);
      // The faulty channel's subscription first: its failure must not hold up the other one.
      await runDigestCommand('subscribe', ctx);
      await runDigestCommand(`subscribe <#${OTHER}|healthy>`, ctx);
    });
    afterEach(() => env.close());
    const postCallsTo = (channel: string) =>
      env.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.body.channel === channel);
    const subIn = async (channel: string) => (await env.db.store.listSubscriptions({ channelId: channel }))[0]!;

    for (const f of STOPPING) {
      it(`${f.code}: the subscription stops, its creator is told once, and it is not tried again`, async () => {
        const logger = capture();
        const engine = env.engine({ logger });
        f.inject(env.slack);
        env.clock.set(DUE);
        const t = await env.tick(engine);
        expect(t.outcomes).toEqual(f.tokenGone ? { failed: 2 } : { failed: 1, posted: 1 });
        const sub = await subIn(CH);
        expect(sub.status).toBe('failing');
        expect(sub.failureReason).toMatch(f.reason);
        expect(postCallsTo(CH)).toHaveLength(1); // one try, no retries
        const dms = postCallsTo(USER);
        // One notice per stopped subscription; with the token gone it cannot arrive, and that is logged.
        expect(dms).toHaveLength(f.tokenGone ? 2 : 1);
        expect(String(dms[0]!.body.text)).toContain(`has stopped: ${sub.failureReason}`);
        expect(String(dms[0]!.body.text)).not.toContain('xoxb-');
        const undelivered = logger.lines.filter((l) => l.startsWith('warn could not tell the creator'));
        expect(undelivered).toHaveLength(f.tokenGone ? 2 : 0);
        if (!f.tokenGone) {
          expect(env.slack.posts(OTHER)).toHaveLength(1);
          expect(env.slack.posts(USER)).toHaveLength(1);
        }
        expect((await env.db.store.listRuns({ subscriptionId: sub.id })).map((r) => [r.status, r.error])).toEqual([
          ['failed', f.code],
        ]);

        // The next two mornings: the stopped subscription is left alone and its creator is not told again.
        for (const day of ['2026-11-06T13:00:00Z', '2026-11-07T13:00:00Z']) {
          env.clock.set(day);
          expect((await env.tick(engine)).outcomes).toEqual(f.tokenGone ? {} : { posted: 1 });
        }
        expect(postCallsTo(CH)).toHaveLength(1);
        expect(postCallsTo(USER)).toHaveLength(f.tokenGone ? 2 : 1);
        if (!f.tokenGone) expect(env.slack.posts(OTHER)).toHaveLength(3);
      });
    }

    for (const f of TRANSIENT) {
      it(`${f.name}; posted exactly once`, async () => {
        const engine = env.engine({ retry: { baseDelayMs: 5 }, retryDelayMs: 60_000 });
        env.slack.countedFaultsIn = CH;
        f.inject(env.slack);
        env.clock.set(DUE);
        const outcomes = [(await env.tick(engine)).outcomes];
        if (f.second) {
          env.clock.advance(61_000);
          if (f.name.includes('Retry-After longer')) {
            // Not before the Retry-After has passed.
            expect((await env.tick(engine)).claimed).toBe(0);
            env.clock.advance(60_000);
          }
          outcomes.push((await env.tick(engine)).outcomes);
        }
        expect(outcomes).toEqual(f.second ? [f.first, f.second] : [f.first]);
        expect(postCallsTo(CH)).toHaveLength(f.postCalls);
        const posted = env.slack.posts(CH);
        expect(posted).toHaveLength(1);
        const sub = await subIn(CH);
        expect(sub.status).toBe('active');
        const runs = await env.db.store.listRuns({ subscriptionId: sub.id });
        expect(runs.map((r) => [r.status, r.messageTs])).toEqual([['posted', posted[0]!.ts]]);
        expect(postCallsTo(USER)).toHaveLength(0);
      });
    }

    it('a Retry-After is waited out between the 429 and the next post to the channel', async () => {
      Object.assign(env.slack.rateLimit, { count: 1, retryAfter: 1 });
      env.slack.countedFaultsIn = CH;
      env.clock.set(DUE);
      await env.tick();
      const calls = postCallsTo(CH);
      expect(calls).toHaveLength(2);
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    });
  });
}
