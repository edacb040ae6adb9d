/**
 * Alerts across what happens to a service (test/slack-bot/alerts/lifecycle.test.ts, test/teams-bot/alerts.test.ts):
 * - stopped after a check recorded its post but before the post was delivered, then started again on the same
 *   store: the post goes out once;
 * - stopped in the middle of a check, before it recorded anything: nothing is lost, the next check after the
 *   restart (once the dead check's lease ended) finds the same news and tells it once;
 * - the key refused by the API (revoked): every alert of the key stops, and each person who set one is told once;
 * - the bot no longer in the conversation: the alert stops, its creator is told once.
 *
 * The service reaches the API through a proxy (test/support/switchable-api.ts) that holds a check's requests where
 * the test wants it stopped, and refuses the key when the test revokes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertChat } from './alert-chat.ts';
import { customerNamed } from './alert-data.ts';
import { alertIdOf, plain } from './alert-scenarios.ts';
import { KEYS } from './sandbox-http.ts';

export function describeAlertLifecycle(title: string, startChat: () => Promise<AlertChat>): void {
  describe(title, () => {
    let chat: AlertChat;
    let mercy: string;
    beforeAll(async () => {
      chat = await startChat();
      mercy = (await customerNamed(chat.sandbox, 'Mercy General Hospital')).id;
    }, 120_000);
    afterAll(async () => {
      await chat?.close();
    });

    const set = async (text: string, as: 'dana' | 'lee' = 'dana') => alertIdOf(plain(await chat.say(text, { as })));
    const raise = (summary: string) =>
      chat.sandbox.changes.addSignal({
        kind: 'shortfall_streak',
        severity: 'high',
        customer_id: mercy,
        summary,
      });
    /** Posts in `here` that tell `summary`. */
    const told = (summary: string) => chat.posts(chat.here).filter((p) => p.text.includes(summary));

    it('stopped after a check recorded its post, before delivering it: after the restart the post goes out once', async () => {
      const id = await set('alert signal high');
      await chat.clock.check();
      const signal = raise('Bath towels short at Mercy three days running');
      // The check's reads are held; the service is told to stop; then the reads are let through: the check records
      // its post, and the stopping worker gives the post back instead of delivering it.
      chat.api!.hold();
      chat.clock.startCheck();
      await chat.api!.untilHeld(1);
      const stopped = chat.stop();
      chat.api!.release();
      await stopped;
      expect(told(signal.summary)).toEqual([]);

      await chat.restart();
      const [post] = await chat.store().listPosts({ alertId: id });
      expect(post).toMatchObject({ status: 'pending', claimedBy: null, attempts: 0, test: false });
      expect(post!.told.map((o) => o.id)).toEqual([`signal:${signal.id}`]);
      expect((await chat.store().getAlert(id))!.seen).toContain(`signal:${signal.id}`);
      await chat.clock.check();
      expect(told(signal.summary)).toHaveLength(1);
      expect(await chat.store().listPosts({ alertId: id })).toMatchObject([{ id: post!.id, status: 'posted' }]);
      await chat.clock.check();
      expect(told(signal.summary)).toHaveLength(1);
      expect(await chat.store().listPosts({ alertId: id })).toHaveLength(1);
      await chat.store().deleteAlert(id);
    });

    it('stopped in the middle of a check, before it recorded anything: nothing is lost, told once after the restart', async () => {
      // A service whose stop waits only a moment for the work under way.
      await chat.stop();
      await chat.restart({ drainMs: 100 });
      const id = await set('alert signal high');
      await chat.clock.check();
      const seen = (await chat.store().getAlert(id))!.seen;
      const signal = raise('Scrub tops short at Mercy after the holiday');
      chat.api!.hold();
      chat.clock.startCheck();
      await chat.api!.untilHeld(1);
      // The drain ends with the check still reading, and the store closes: the check never records.
      await chat.stop();
      chat.api!.release();

      await chat.restart();
      expect((await chat.store().getAlert(id))!.seen).toEqual(seen);
      expect(await chat.store().listPosts({ alertId: id })).toEqual([]);
      // The dead worker's claim on the key's check lasts its lease; the first check after it finds the signal.
      const [held] = await chat.store().listChecks();
      expect(held!.claimedBy).not.toBeNull();
      await chat.clock.set(held!.leaseUntil!);
      expect(told(signal.summary)).toHaveLength(1);
      await chat.clock.check();
      expect(told(signal.summary)).toHaveLength(1);
      expect(await chat.store().listPosts({ alertId: id })).toMatchObject([{ status: 'posted' }]);
      await chat.store().deleteAlert(id);
    });

    it('the key refused (revoked): every alert of the key stops, each person who set one told once', async () => {
      const dana = [await set('alert short'), await set('alert ticket Harborview Hotel')];
      const lee = await set('alert signal', 'lee');
      await chat.clock.check();
      chat.api!.revoke(KEYS.all);
      await chat.clock.check();
      for (const id of [...dana, lee])
        expect(await chat.store().getAlert(id)).toMatchObject({
          status: 'failing',
          failureReason: 'the Linen API key was rejected or lacks the scope this alert reads',
        });
      const toDana = chat.toldCreator(chat.people.dana);
      const toLee = chat.toldCreator(chat.people.lee);
      expect(toDana).toHaveLength(1);
      expect(toLee).toHaveLength(1);
      expect(toLee[0]).toContain(`Your Linen alert ${lee}`);
      expect(toLee[0]).toContain('has stopped: the Linen API key was rejected or lacks the scope this alert reads.');
      for (const id of dana) expect(toDana[0]).toContain(id);
      // Not told again, and not checked again until resumed.
      await chat.clock.check();
      await chat.clock.check();
      expect(chat.toldCreator(chat.people.dana)).toHaveLength(1);
      expect(chat.toldCreator(chat.people.lee)).toHaveLength(1);
      for (const id of [...dana, lee]) await chat.store().deleteAlert(id);
      chat.api!.restore(KEYS.all);
    });

    it('the bot no longer in the conversation: the alert stops, its creator told once', async () => {
      const id = await set('alert signal high');
      await chat.clock.check();
      const before = chat.toldCreator(chat.people.dana).length;
      chat.leave(chat.here);
      raise('Pillowcases short at Mercy all week');
      await chat.clock.check();
      const alert = (await chat.store().getAlert(id))!;
      expect(alert.status).toBe('failing');
      const toDana = chat.toldCreator(chat.people.dana).slice(before);
      expect(toDana).toHaveLength(1);
      expect(toDana[0]).toContain(`Your Linen alert ${id}`);
      expect(toDana[0]).toContain(`has stopped: ${alert.failureReason}.`);
      raise('Bath mats short at Mercy all week');
      await chat.clock.check();
      await chat.clock.check();
      expect(chat.toldCreator(chat.people.dana)).toHaveLength(before + 1);
      expect(await chat.store().listPosts({ alertId: id })).toMatchObject([{ status: 'failed' }]);
    });

    it('every message the bot sent passed its platform validator', () => {
      expect(chat.problems()).toEqual([]);
    });
  });
}
