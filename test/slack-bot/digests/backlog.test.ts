/**
 * A backlog of due digests larger than one claim: the worker works through it tick after tick without waiting
 * between them, and fetches each key's data once for the whole backlog, not once a tick.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DigestWorker, keyRefOf } from '../../../slack-bot/digests/index.ts';
import type { TickResult } from '../../../slack-bot/digests/runner.ts';
import { nextRuns } from '../../../slack-bot/digests/schedule.ts';
import { drivers } from '../../support/digest-db.ts';
import { type DigestEnv, KEY, startDigestEnv, TZ } from '../../support/digest-env.ts';
import { startManualClockWorker } from '../../support/manual-clock-worker.ts';

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

    it('is worked through in full claims back to back, with one signal walk for the key', async () => {
      const sched = { cadence: 'daily', time: '07:00', timeZone: TZ };
      const due = nextRuns(sched, env.clock.now(), 1)[0]!;
      for (let i = 0; i < SUBSCRIPTIONS; i++) {
        await env.db.store.createSubscription(
          {
            ...sched,
            keyRef: keyRefOf(KEY),
            channelId: `C0BACKLOG${i}`,
            customerIds: [],
            minSeverity: 'low',
            allClear: true,
            createdBy: 'U0BACKLOG',
          },
          env.clock.now(),
          due,
        );
      }
      env.clock.set(due.getTime() + 1000);
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
  });
}
