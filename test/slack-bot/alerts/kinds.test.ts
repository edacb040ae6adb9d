/**
 * Alerts on Slack through the real service: signed `/linen alert …` commands over HTTP, the sandbox's data changed
 * under it, the alert worker on a manual clock posting to the fake Slack Web API; on PGlite and on PostgreSQL
 * (test/support/alert-scenarios.ts says what is checked); and what only Slack has: an alert posting in another
 * channel (`#channel`), refused in a channel the bot is not in, and its button answering like the command it runs.
 */
import { expect, it } from 'vitest';
import { startSlackAlerts } from '../../support/alert-chat.ts';
import { alertIdOf, alertRows, describeAlerts, plain } from '../../support/alert-scenarios.ts';
import { drivers } from '../../support/digest-db.ts';
import { allText, buttons } from '../../support/slack-harness.ts';

for (const driver of drivers)
  describeAlerts(
    `alerts on Slack (${driver})`,
    () => startSlackAlerts(driver),
    (get) => {
      it('#channel: set here, posted in that channel; its button answers as the command it runs', async () => {
        const chat = get();
        const { finance } = chat.channels!;
        const answer = plain(await chat.say('alert signal high #finance'));
        const id = alertIdOf(answer);
        expect(answer).toContain(`It posts in <#${finance}> when that happens, checked every 1 minute.`);
        expect((await chat.store().getAlert(id))!).toMatchObject({ channelId: finance, direct: false });
        const inFinance = chat.posts(finance).length;
        const here = chat.posts(chat.here).length;
        chat.sandbox.changes.addSignal({
          kind: 'circulation_breach',
          severity: 'high',
          customer_id: null,
          summary: 'Blankets leaving every site faster than they return',
          suggested_order_qty: 300,
        });
        await chat.clock.check();
        expect(chat.posts(finance).slice(inFinance)).toHaveLength(1);
        expect(chat.posts(chat.here)).toHaveLength(here);

        // The button of the post, clicked by someone in #finance: the signals listing, answered to them.
        const { h, bot } = chat.slack!;
        const post = h.slack.calls
          .filter((c) => c.method === 'chat.postMessage' && c.params.channel === finance)
          .at(-1)!;
        const [button] = buttons({ blocks: post.params.blocks });
        expect(button).toMatchObject({ text: 'Show the signals', value: 'signals' });
        const click = await bot().click(button!.actionId, button!.value, {
          blockId: button!.blockId,
          channelId: finance,
        });
        expect(click.status).toBe(200);
        const [listing] = await h.slack.waitForPosts(click.sink);
        expect(allText(listing!.body)).toContain('Blankets leaving every site faster than they return');
        expect(plain(await chat.say(`alert remove ${id}`))).toContain(`Removed alert ${id}`);
      });

      it('#channel the bot is not in, or that does not exist: one sentence, nothing saved', async () => {
        const chat = get();
        const before = await alertRows(chat);
        expect(plain(await chat.say('alert signal #no-bot')).trim()).toMatch(
          new RegExp(
            `^I'm not a member of <#${chat.channels!.notIn}>; run /invite @Linen in that channel, then try again\\.`,
          ),
        );
        expect(plain(await chat.say('alert short #does-not-exist')).trim()).toMatch(
          /^I can't find a channel named #does-not-exist: check the spelling, and if it is private, run \/invite @Linen in it first\./,
        );
        expect(await alertRows(chat)).toEqual(before);
      });
    },
  );
