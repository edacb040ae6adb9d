/**
 * Claims take every channel's next digest before any channel's one after it, and only as far into a channel's
 * queue as its pace lets a run go out before its lease ends.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';
import { type DigestEnv, KEY, startDigestEnv, TZ } from '../../support/digest-env.ts';

const DUE = new Date('2026-11-05T13:00:00Z');

for (const driver of drivers) {
  describe(`claiming due digests on ${driver}`, () => {
    let env: DigestEnv;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
    });
    afterEach(async () => {
      await env.close();
    });

    /** Subscriptions due at DUE: `perChannel` of them in each channel; runs materialized, none claimed. */
    async function dueRuns(perChannel: Record<string, number>): Promise<void> {
      for (const [channelId, count] of Object.entries(perChannel)) {
        for (let i = 0; i < count; i++) {
          await env.db.store.createSubscription(
            newSubscription({ timeZone: TZ, keyRef: keyRefOf(KEY), channelId, allClear: true, createdBy: 'U0CLAIMS' }),
            env.clock.now(),
            DUE,
          );
        }
      }
      env.clock.set(DUE.getTime() + 1000);
      await env.engine().materialize();
    }

    const channelsOf = async (runs: { subscriptionId: string }[]) => {
      const subs = await env.db.store.getSubscriptions(runs.map((r) => r.subscriptionId));
      return runs.map((r) => subs.get(r.subscriptionId)!.channelId).sort();
    };

    it("takes each channel's next digest before any channel's second", async () => {
      await dueRuns({ C0BUSY: 3, C0QUIETA: 1, C0QUIETB: 1 });
      const first = await env.engine().claim(3);
      expect(await channelsOf(first)).toEqual(['C0BUSY', 'C0QUIETA', 'C0QUIETB']);
      const rest = await env.engine().claim(3);
      expect(await channelsOf(rest)).toEqual(['C0BUSY', 'C0BUSY']);
    });

    it("leaves the runs of a channel's queue that its pace could not send within the lease", async () => {
      await dueRuns({ C0BUSY: 3, C0QUIET: 1 });
      // A 10 s lease at one message per 2.5 s: half the lease covers two turns of a channel.
      const engine = env.engine({ leaseMs: 10_000 });
      const claimed = await engine.claim(10, 2500);
      expect(await channelsOf(claimed)).toEqual(['C0BUSY', 'C0BUSY', 'C0QUIET']);
      // The leased runs still hold their turns: another worker is not given the third one either.
      expect(await env.engine({ leaseMs: 10_000, workerId: 'w-other' }).claim(10, 2500)).toEqual([]);
    });

    if (driver === 'pg')
      it('passes over the runs another replica is claiming and still takes a full batch', async () => {
        await dueRuns({ C0A: 1, C0B: 1, C0C: 1, C0D: 1, C0E: 1, C0F: 1 });
        // Another replica's claim in flight: the first two runs in the queue's order, locked in its transaction.
        const other = await env.db.another();
        let release!: () => void;
        const held = new Promise<void>((r) => {
          release = r;
        });
        let lockedIds!: (ids: string[]) => void;
        const locked = new Promise<string[]>((r) => {
          lockedIds = r;
        });
        const otherClaim = other.executor.transaction(async (tx) => {
          const rows = await tx.query<{ id: string }>('SELECT id FROM digest_runs ORDER BY id LIMIT 2 FOR UPDATE');
          lockedIds(rows.map((r) => r.id));
          await held;
        });
        const taken = await locked;
        expect(taken).toHaveLength(2);
        const claimed = await env.engine().claim(3);
        release();
        await otherClaim;
        expect(claimed).toHaveLength(3);
        for (const run of claimed) expect(taken).not.toContain(run.id);
      });
  });
}
