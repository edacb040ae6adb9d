/**
 * One build for the runs that ask the same (`chat/digests/shared-builds.ts`), on the real runner, store and sandbox
 * over HTTP with a fake Slack (PGlite, and PostgreSQL with TEST_DATABASE_URL): channels subscribed alike on one key
 * get one build and the same message, each with its own run in its metadata; a different setting, a different key's
 * data or a different previous digest is a build of its own, and each digest still says what its own settings ask.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { ChannelPacer } from '../../../chat/digests/delivery/channel-pacer.ts';
import type { Digest } from '../../../chat/digests/digest.ts';
import { createDigestKinds, DIGEST_KINDS } from '../../../chat/digests/kinds/index.ts';
import type { RegisteredDigestKind } from '../../../chat/digests/kinds/kind.ts';
import { runDigestTick } from '../../../chat/digests/runner.ts';
import { buildIdentity } from '../../../chat/digests/shared-builds.ts';
import type { Subscription } from '../../../chat/digests/storage/types.ts';
import { slackDeliveries } from '../../../slack-bot/digests/delivery.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';
import { type DigestEnv, KEY, startDigestEnv } from '../../support/digest-env.ts';

/** The service's kinds, the shortfall kind's builder counting its builds and the subscriptions it built for. */
function countingKinds() {
  const built: string[] = [];
  const all = DIGEST_KINDS.all.map((k): RegisteredDigestKind => {
    if (k.name !== 'shortfall') return k;
    return {
      ...k,
      build: (input): Digest => {
        built.push(input.subscription.id);
        return k.build(input);
      },
    };
  });
  return { kinds: createDigestKinds(all), built };
}

for (const driver of drivers) {
  describe(`shared digest builds, on ${driver}`, () => {
    let env: DigestEnv;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
    });
    afterEach(async () => {
      await env.db.store.drain();
      await env.close();
    });

    const subscribe = (
      channelId: string,
      fields: Partial<Parameters<typeof newSubscription>[0]> = {},
      first = new Date('2026-11-05T13:00:00Z'),
    ) =>
      env.db.store.createSubscription(
        newSubscription({ keyRef: keyRefOf(KEY), channelId, createdBy: `U-${channelId}`, ...fields }),
        env.clock.now(),
        first,
      );

    it('channels subscribed alike on one key: one build, the same message, each run its own metadata', async () => {
      const alike = await Promise.all(['C0SAME1', 'C0SAME2', 'C0SAME3'].map((c) => subscribe(c)));
      const high = await subscribe('C0HIGH1', { minSeverity: 'high' });
      const { kinds, built } = countingKinds();
      env.clock.set('2026-11-05T13:00:05Z');
      const tick = () =>
        runDigestTick({
          engine: env.engine(),
          deliveries: slackDeliveries(env.web),
          linenClientFor: env.linenClientFor,
          pacer: new ChannelPacer(0),
          kinds,
        });
      expect((await tick()).outcomes).toEqual({ posted: 4 });
      // One build for the three alike, one for the subscription that asks for high severity only.
      expect(built).toHaveLength(2);
      const posts = ['C0SAME1', 'C0SAME2', 'C0SAME3'].map((c) => env.slack.posts(c));
      for (const p of posts) expect(p).toHaveLength(1);
      const [a, b, c] = posts.map((p) => p[0]!);
      expect(b!.blocks).toEqual(a!.blocks);
      expect(c!.text).toBe(a!.text);
      expect(new Set([a, b, c].map((m) => m!.metadata?.event_payload.subscription_id))).toEqual(
        new Set(alike.map((s) => s.id)),
      );
      expect(new Set([a, b, c].map((m) => m!.metadata?.event_payload.run_id)).size).toBe(3);
      // The high-severity digest says what its own setting asks: fewer signals than every severity.
      const [h] = env.slack.posts('C0HIGH1');
      expect(h!.metadata?.event_payload.subscription_id).toBe(high.id);
      const count = (text: string) => Number(/: (\d+) open shortfall signals/.exec(text)?.[1]);
      expect(count(h!.text)).toBeLessThan(count(a!.text));
      expect(h!.text).toMatch(/\((\d+) high\)/);
      expect(count(h!.text)).toBe(Number(/\((\d+) high\)/.exec(a!.text)?.[1]));

      // The next day, after the same previous digest: one build again; a channel whose previous digest was another
      // one's (it joined later) is built on its own.
      const late = await subscribe('C0LATE1', {}, new Date('2026-11-06T13:00:00Z'));
      await env.db.store.drain();
      built.length = 0;
      env.clock.set('2026-11-06T13:00:05Z');
      expect((await tick()).outcomes).toEqual({ posted: 5 });
      expect(built).toHaveLength(3);
      expect(built).toContain(late.id);
    });

    it("a build's identity: where it goes and who made it do not count; what it reads, and its previous digest, do", () => {
      const at = new Date('2026-11-05T13:00:00Z');
      const sub = (fields: Partial<Subscription> = {}): Subscription => ({
        ...newSubscription({ keyRef: 'k1', channelId: 'C1', createdBy: 'U1' }),
        id: 'ds_1',
        platform: 'slack',
        orgId: 'T1',
        kind: 'shortfall',
        options: {},
        channelName: null,
        serviceUrl: null,
        status: 'active',
        failureReason: null,
        createdAt: new Date('2026-11-01T00:00:00Z'),
        nextRunAt: at,
        ...fields,
      });
      const same = buildIdentity(sub(), at, null);
      expect(
        buildIdentity(sub({ id: 'ds_2', channelId: 'C2', createdBy: 'U2', orgId: 'T2', platform: 'teams' }), at, null),
      ).toBe(same);
      for (const differs of [
        sub({ keyRef: 'k2' }),
        sub({ customerIds: ['cus_1'] }),
        sub({ minSeverity: 'high' }),
        sub({ allClear: true }),
        sub({ timeZone: 'Europe/London' }),
        sub({ kind: 'tickets' }),
        sub({ options: { budgetShare: 0.25 } }),
        // A field added to subscriptions later counts unless it is named as one builders do not read.
        { ...sub(), region: 'eu' } as Subscription,
      ])
        expect(buildIdentity(differs, at, null)).not.toBe(same);
      expect(buildIdentity(sub(), new Date('2026-11-06T13:00:00Z'), null)).not.toBe(same);
      const shown = [{ signalId: 'sig_1', state: 'open' }] as never;
      expect(buildIdentity(sub(), at, { shown })).not.toBe(same);
      expect(buildIdentity(sub(), at, { shown })).not.toBe(buildIdentity(sub(), at, { shown: [] }));
    });
  });
}
