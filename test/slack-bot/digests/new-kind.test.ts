/**
 * A digest kind added as one module (test/support/past-due-kind.ts) in a registry of its own, on the real engine,
 * store and worker over the sandbox and a fake Slack (PGlite, and PostgreSQL with TEST_DATABASE_URL): refused by
 * its access class where accounting answers may not appear, subscribed where they may, listed, shown in the
 * command's usage, previewed and posted on its own default day. The service's store refuses it, and its runner,
 * meeting a stored subscription of it, ends the run failed with a sentence instead of building another kind.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountingRefusal, isAccountingDigest } from '../../../chat/connections/access.ts';
import type { DigestCommandContext } from '../../../chat/digests/digest-answers.ts';
import { createDigestKinds, DIGEST_KINDS } from '../../../chat/digests/kinds/index.ts';
import { type DigestStore, digestStoreOver } from '../../../chat/digests/storage/index.ts';
import { SLACK_SURFACE } from '../../../slack-bot/surface.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';
import {
  CH,
  commandContext,
  type DigestEnv,
  slackDigestCommand,
  startDigestEnv,
  startEnvWorker,
  TZ,
} from '../../support/digest-env.ts';
import { expectedDaysOverdue } from '../../support/expected-figures.ts';
import { pastDueDigest } from '../../support/past-due-kind.ts';

/** The channel where an admin allowed accounting answers; CH is not one. */
const FINANCE = 'C0FINANCE1';

const kinds = createDigestKinds([...DIGEST_KINDS.all, pastDueDigest]);

for (const driver of drivers) {
  describe(`a digest kind added as one module, on ${driver}`, () => {
    let env: DigestEnv;
    let store: DigestStore;
    let ctx: DigestCommandContext;
    beforeEach(async () => {
      env = await startDigestEnv(driver);
      // The same tables, through a store given the registry's kinds.
      store = digestStoreOver(env.db.executor, kinds.names);
      env.slack.members.add(FINANCE);
      ctx = {
        ...commandContext(env),
        store,
        kinds,
        // The rule the service applies (connections/answer-in-place.ts), over this registry.
        refuseKind: (kind, channelId) =>
          isAccountingDigest(kind, kinds)
            ? accountingRefusal(
                { channels: [FINANCE], directMessages: false },
                { orgId: null, channelId, privateChat: false },
                SLACK_SURFACE,
              )
            : null,
      };
    });
    afterEach(async () => {
      await store.drain();
      await env.close();
    });
    const cmd = (s: string) => slackDigestCommand(s, ctx);
    /** The sandbox's open invoices past due on a day, as the API's figures say. */
    const pastDueOn = (day: string) =>
      env.sandbox.data.invoices.filter(
        (i) =>
          (i.status === 'sent' || i.status === 'partially_paid') &&
          i.balance_cents > 0 &&
          i.due_at !== null &&
          expectedDaysOverdue(i.due_at, day, TZ) > 0,
      );

    it('is refused by its access class, then subscribed, listed, in the usage, previewed and posted on Friday', async () => {
      const refused = 'Accounting answers are not shown in this channel; a workspace admin can allow them here with';
      expect((await cmd('subscribe late min=2')).text).toContain(refused);
      expect((await cmd('preview late')).text).toContain(refused);
      expect(await store.listSubscriptions()).toEqual([]);
      // An operations kind is not held to the accounting rule.
      expect((await cmd('preview tickets')).text).toMatch(/^Linen tickets Thu 5 Nov: \d+ open tickets\.$/);

      expect((await cmd(`subscribe late <#${FINANCE}|finance> min=2`)).text).toMatch(
        /^Subscribed: `d\w+` <#C0FINANCE1> past-due digest on fri at 07:00 \(America\/Chicago\), all customers, 2 or more past due\./,
      );
      expect((await cmd('list')).text).toMatch(/^1 digest subscriptions: d\w+$/);
      expect(JSON.stringify((await cmd('list')).blocks)).toContain(
        'past-due digest on fri at 07:00 (America/Chicago), all customers, 2 or more past due',
      );
      expect(JSON.stringify((await cmd('help')).blocks)).toContain(
        '[shortfall|receivables|tickets|budgets|past-due] [#channel] [daily|weekly|weekdays|mon,wed,fri] [HH:MM] [customer, ...] [low|medium|high] [NN%] [NNd] [min=N] [all-clear]',
      );
      expect((await cmd('subscribe tickets min=2')).text).toBe(
        'A minimum (min=2) is for past-due digests; leave it out of a tickets digest.',
      );

      const ctxFinance = { ...ctx, channelId: FINANCE };
      const thursday = pastDueOn('2026-11-05');
      expect(thursday.length).toBeGreaterThanOrEqual(2);
      expect((await slackDigestCommand('preview pastdue', ctxFinance)).text).toBe(
        `Past-due invoices Thu 5 Nov: ${thursday.length}.`,
      );

      // Friday 07:00 in Chicago: the worker, given the registry, builds and posts it once.
      env.clock.set('2026-11-06T13:00:05Z');
      const worker = startEnvWorker(env, { store, kinds, timers: env.clock });
      try {
        expect((await worker.tick()).outcomes).toEqual({ posted: 1 });
      } finally {
        await worker.stop();
      }
      const friday = pastDueOn('2026-11-06');
      const posts = env.slack.posts(FINANCE);
      expect(posts.map((p) => p.text)).toEqual([`Past-due invoices Fri 6 Nov: ${friday.length}.`]);
      for (const i of friday) expect(JSON.stringify(posts[0]!.blocks)).toContain(i.invoice_number);
      expect((await store.listRuns()).map((r) => r.status)).toEqual(['posted']);
    });

    it("is refused by the service's store, and its stored runs end failed on the service's runner", async () => {
      const sub = newSubscription({ keyRef: ctx.keyRef, channelId: CH, kind: 'past-due' as never });
      await expect(env.db.store.createSubscription(sub, env.clock.now(), null)).rejects.toThrow(
        '"past-due" is not a digest kind; the kinds are shortfall, receivables, tickets, budgets.',
      );
      expect(await env.db.store.listSubscriptions()).toEqual([]);

      // One stored by a registry that knows it (a newer version of the service), due now.
      const stored = await store.createSubscription(sub, env.clock.now(), env.clock.now());
      expect(stored.kind).toBe('past-due');
      expect(await env.tick()).toMatchObject({ claimed: 1, outcomes: { failed: 1 } });
      expect(env.slack.posts()).toEqual([]);
      expect(await env.db.store.listRuns()).toMatchObject([
        {
          status: 'failed',
          error:
            '"past-due" is not a digest kind this service knows (shortfall, receivables, tickets, budgets), so nothing was built or posted.',
        },
      ]);
      // Only the run: the subscription goes on for the replicas that know its kind.
      expect(await env.db.store.getSubscription(stored.id)).toMatchObject({ status: 'active' });
      expect((await cmd('list')).text).toBe(`1 digest subscriptions: ${stored.id}`);
    });
  });
}
