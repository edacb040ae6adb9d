/**
 * The digest worker stopping at shutdown with a digest mid-run: the post already sent finishes and is recorded,
 * the runs behind it and a run waiting out a rate limit are given back unclaimed at once (no attempt counted), a
 * post still unanswered when the drain ends keeps its lease; another replica then posts the rest, each once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import type { DigestWorker } from '../../../chat/digests/index.ts';
import { nextRuns } from '../../../chat/digests/schedule.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';
import { type DigestEnv, KEY, startDigestEnv, TZ } from '../../support/digest-env.ts';
import { startManualClockWorker } from '../../support/manual-clock-worker.ts';

const CHANNEL = 'C0SHUTDOWN';

for (const driver of drivers) {
  describe(`the digest worker stopping mid-run on ${driver}`, () => {
    let env: DigestEnv;
    let worker: DigestWorker | undefined;
    let release: () => void;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
      env.slack.now = () => Date.now();
      env.slack.holdPosts = new Promise<void>((r) => {
        release = r;
      });
    });
    afterEach(async () => {
      release();
      await worker?.stop();
      await env.close();
    });

    /** `count` all-clear digests due in one channel (they go out one after another), the clock past their time. */
    async function subscribeDue(count: number): Promise<void> {
      const sched = { cadence: 'daily', time: '07:00', timeZone: TZ };
      const due = nextRuns(sched, env.clock.now(), 1)[0]!;
      for (let i = 0; i < count; i++) {
        const sub = newSubscription({ ...sched, keyRef: keyRefOf(KEY), channelId: CHANNEL, allClear: true });
        await env.db.store.createSubscription(sub, env.clock.now(), due);
      }
      env.clock.set(due.getTime() + 1000);
    }

    /** The worker on the manual clock, which does not move: each tick is the test's own. */
    function startWorker(): DigestWorker {
      worker = startManualClockWorker(env, {}).worker;
      return worker;
    }

    const postCalls = () => env.slack.calls.filter((c) => c.method === 'chat.postMessage').length;
    const runs = () => env.db.store.listRuns();
    const unclaimed = { status: 'pending', claimedBy: null, leaseUntil: null, attempts: 0 };

    /** Another replica's tick: what this worker gave back goes out now, each digest once. */
    async function anotherReplicaPostsTheRest(): Promise<void> {
      env.slack.holdPosts = null;
      await env.tick(env.engine({ workerId: 'w-other' }));
      const all = await runs();
      expect(all.map((r) => r.status)).toEqual(['posted', 'posted', 'posted']);
      const runIds = env.slack.posts(CHANNEL).map((m) => m.metadata?.event_payload.run_id);
      expect(runIds.sort()).toEqual(all.map((r) => r.id).sort());
    }

    it('finishes the post in flight, gives back the runs behind it, then another replica posts them', async () => {
      await subscribeDue(3);
      const delivery = startWorker().tick();
      await expect.poll(postCalls, { timeout: 10_000 }).toBe(1);
      const stopped = worker!.stop({ drainMs: 10_000 });
      const started = Date.now();
      release();
      await stopped;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await delivery).outcomes).toEqual({ posted: 1, released: 2 });

      const [first, ...rest] = await runs();
      expect(first).toMatchObject({ status: 'posted', claimedBy: worker!.workerId });
      expect(first!.messageTs).toBe(env.slack.posts(CHANNEL)[0]!.ts);
      for (const run of rest) expect(run).toMatchObject(unclaimed);
      expect(env.slack.posts(CHANNEL)).toHaveLength(1);
      await anotherReplicaPostsTheRest();
    });

    it('leaves a post unanswered at the end of the drain leased (never given back), the others unclaimed', async () => {
      await subscribeDue(3);
      const delivery = startWorker().tick();
      await expect.poll(postCalls, { timeout: 10_000 }).toBe(1);
      const started = Date.now();
      await worker!.stop({ drainMs: 300 });
      expect(Date.now() - started).toBeLessThan(3_000);

      const [first, ...rest] = await runs();
      // Slack may yet post it: only its lease's end (and a search of the channel) lets another replica take it.
      expect(first).toMatchObject({ status: 'posting', claimedBy: worker!.workerId });
      expect(first!.leaseUntil!.getTime()).toBeGreaterThan(env.clock.now().getTime());
      for (const run of rest) expect(run).toMatchObject(unclaimed);

      // The held post is answered: the message was posted once, and recorded by its own worker.
      release();
      await delivery;
      expect((await runs())[0]).toMatchObject({ status: 'posted', claimedBy: worker!.workerId });
      await anotherReplicaPostsTheRest();
    });

    it('gives back at once a run waiting out a rate limit; its taker searches the channel, then posts once', async () => {
      await subscribeDue(1);
      env.slack.holdPosts = null;
      env.slack.rateLimit = { count: 1, retryAfter: 30 };
      const delivery = startWorker().tick();
      await expect.poll(() => env.slack.rateLimit.count, { timeout: 10_000 }).toBe(0);
      const started = Date.now();
      await worker!.stop({ drainMs: 10_000 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect((await delivery).outcomes).toEqual({ released: 1 });
      // `posting`: nothing was posted, but the taker checks the channel first, as after any uncertain attempt.
      expect((await runs())[0]).toMatchObject({ ...unclaimed, status: 'posting' });

      const calls = env.slack.calls.length;
      await env.tick(env.engine({ workerId: 'w-other' }));
      expect(env.slack.calls.slice(calls).map((c) => c.method)).toEqual(['conversations.history', 'chat.postMessage']);
      expect((await runs())[0]).toMatchObject({ status: 'posted', claimedBy: 'w-other', attempts: 1 });
      expect(env.slack.posts(CHANNEL)).toHaveLength(1);
    });
  });
}
