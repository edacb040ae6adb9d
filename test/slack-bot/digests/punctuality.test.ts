/**
 * Punctuality: the worker sets its next tick for the next due time, so a digest scheduled for 07:00 is posted
 * within seconds of 07:00 instead of up to a whole tick (30 s) later. Driven by the manual clock and its timers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDigestCommand } from '../../../chat/digests/digest-answers.ts';
import type { DigestWorker } from '../../../chat/digests/index.ts';
import { drivers } from '../../support/digest-db.ts';
import { CH, commandContext, type DigestEnv, startDigestEnv } from '../../support/digest-env.ts';
import { startManualClockWorker } from '../../support/manual-clock-worker.ts';

const SEVEN = Date.parse('2026-11-05T13:00:00Z'); // 07:00 in America/Chicago

for (const driver of drivers) {
  describe(`punctuality on ${driver}`, () => {
    let env: DigestEnv;
    let worker: DigestWorker | undefined;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
    });
    afterEach(async () => {
      await worker?.stop();
      await env.close();
    });

    it('a 07:00 digest is posted within 5 s of 07:00, the ticks aligned to it rather than every 30 s', async () => {
      env.clock.set('2026-11-05T12:59:10Z');
      await runDigestCommand('subscribe', commandContext(env));
      const tickedAt: number[] = [];
      const started = startManualClockWorker(env, {
        tickMs: 30_000,
        onTick: () => tickedAt.push(env.clock.now().getTime()),
      });
      worker = started.worker;
      const { waitFor } = started;
      const nextTimer = () => waitFor(() => (env.clock.pending === 1 ? true : undefined), 10_000, 'the next tick');
      await nextTimer();
      // Move time forward in 50 ms steps; whenever a tick fires, let it finish and set the next one.
      while (env.slack.posts(CH).length === 0 && env.clock.now().getTime() < SEVEN + 60_000) {
        const ticks = tickedAt.length;
        if (env.clock.advance(50) > 0) {
          await waitFor(() => (tickedAt.length > ticks ? true : undefined), 10_000, 'the tick');
          await nextTimer();
        }
      }
      const [post] = env.slack.posts(CH);
      expect(post).toBeDefined();
      // The message ts is the (manual) time it was posted, to the second.
      const postedAt = Number(post!.ts.split('.')[0]) * 1000;
      expect(postedAt - SEVEN).toBeGreaterThanOrEqual(0);
      expect(postedAt - SEVEN).toBeLessThan(5_000);
      // 06:59:10 (start), 06:59:40 (a tick later), then 07:00 itself: not 07:00:10.
      expect(tickedAt.map((t) => new Date(t).toISOString().slice(11, 19))).toEqual([
        '12:59:10',
        '12:59:40',
        '13:00:00',
      ]);
    });
  });
}
