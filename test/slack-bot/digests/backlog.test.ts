/**
 * A backlog of due digests larger than one claim: the worker works through it tick after tick without waiting
 * between them (claiming the next batch while the one before goes out), and fetches each key's data once for the
 * whole backlog, not once a tick.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import type { DigestWorker } from '../../../chat/digests/index.ts';
import type { TickResult } from '../../../chat/digests/runner.ts';
import { nextRuns } from '../../../chat/digests/schedule.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';
import { type DigestEnv, KEY, startDigestEnv, startEnvWorker, TZ } from '../../support/digest-env.ts';
import { startManualClockWorker } from '../../support/manual-clock-worker.ts';
import { createWaiters } from '../../support/waiters.ts';

const SUBSCRIPTIONS = 5;

for (const driver of drivers) {
  describe(`a backlog of due digests on ${driver}`, () => {
    let env: DigestEnv;
    let worker: DigestWorker | undefined;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
    });
    afterEach(async () => {
      await worker?.stop();
      await env.close();
    });

    /** `count` subscriptions in channels of their own, all due; the clock a second past their due time. */
    async function subscribeDue(count: number): Promise<void> {
      const sched = { cadence: 'daily', time: '07:00', timeZone: TZ };
      const due = nextRuns(sched, env.clock.now(), 1)[0]!;
      for (let i = 0; i < count; i++) {
        await env.db.store.createSubscription(
          newSubscription({
            ...sched,
            keyRef: keyRefOf(KEY),
            channelId: `C0BACKLOG${i}`,
            allClear: true,
            createdBy: 'U0BACKLOG',
          }),
          env.clock.now(),
          due,
        );
      }
      env.clock.set(due.getTime() + 1000);
    }

    it('is worked through in full claims back to back, with one signal walk for the key', async () => {
      await subscribeDue(SUBSCRIPTIONS);
      const ticks: TickResult[] = [];
      const started = startManualClockWorker(env, { claimLimit: 2, onTick: (r) => ticks.push(r) });
      worker = started.worker;
      const { waits, waitFor } = started;
      // Fire each wait of 0 the worker sets, without moving the clock, until it sets a longer one.
      let fired = 0;
      for (;;) {
        await waitFor(() => (waits.length > fired ? true : undefined), 10_000, 'the next wait');
        if (waits[fired] !== 0) break;
        fired++;
        const done = ticks.length;
        env.clock.advance(0);
        await waitFor(() => (ticks.length > done ? true : undefined), 10_000, 'the tick');
      }
      expect(ticks.map((t) => t.claimed).slice(0, 3)).toEqual([2, 2, 1]);
      // The worker's first wait is its start; after each full claim it waits 0, after the last one it does not.
      expect(waits.slice(1, 3)).toEqual([0, 0]);
      expect(waits[3]).toBeGreaterThan(0);
      expect(ticks.reduce((n, t) => n + (t.outcomes.posted ?? 0), 0)).toBe(SUBSCRIPTIONS);
      expect(ticks.reduce((n, t) => n + t.signalFetches, 0)).toBe(1);
    });

    it('has its next claim taken while the batch before it is still going out', async () => {
      await subscribeDue(4);
      const { notify, waitFor } = createWaiters();
      env.slack.now = () => Date.now();
      let held = false;
      worker = startEnvWorker(env, {
        claimLimit: 2,
        hooks: {
          // The first post of the first batch goes out only once the second batch's two have.
          beforePost: async () => {
            if (held) return;
            held = true;
            await waitFor(() => (env.slack.posts().length >= 3 ? true : undefined), 10_000, 'the second batch');
          },
        },
        onTick: notify,
      });
      const poll = setInterval(notify, 20);
      try {
        await waitFor(() => (env.slack.posts().length === 4 ? true : undefined), 15_000, 'every digest');
      } finally {
        clearInterval(poll);
      }
      expect(new Set(env.slack.posts().map((m) => m.channel)).size).toBe(4);
    });

    it('does not deliver a run twice when its lease runs out while it waits in this worker', async () => {
      await subscribeDue(1);
      const { notify, waitFor } = createWaiters();
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      let waiting = false;
      worker = startEnvWorker(env, {
        // Ticks only when the test asks.
        timers: { after: () => null, cancel: () => {} },
        leaseMs: 60_000,
        hooks: {
          beforePost: async () => {
            waiting = true;
            notify();
            await gate;
          },
        },
      });
      const first = worker.tick();
      await waitFor(() => (waiting ? true : undefined), 10_000, 'the post to be under way');
      env.clock.advance(61_000);
      // The store hands the run out again (its lease has ended); this worker is still delivering it.
      expect((await worker.tick()).claimed).toBe(0);
      release();
      expect((await first).outcomes).toEqual({ posted: 1 });
      expect(env.slack.posts()).toHaveLength(1);
    });
  });
}
