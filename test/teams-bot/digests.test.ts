/**
 * Digests on Teams: `digest subscribe` in a channel records the tenant, the channel's conversation and the service
 * URL; at its time the digest is posted proactively as an Adaptive Card to the channel (`POST {serviceUrl}/v3/
 * conversations/{id}/activities`), exactly once across a restart on the embedded store; a 429 is waited out
 * (Retry-After) and the digest still posted once; a channel the bot was removed from stops the subscription and
 * its creator is told once, in a 1:1 chat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../chat/digests/clock.ts';
import { channelMessage } from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;

beforeAll(async () => {
  h = await startTeamsHarness();
});
afterAll(() => h?.close());

/** The digests posted to a channel's root (not in a command's thread). */
const digestsIn = (channelId: string) =>
  h.fakes.connector
    .postsTo(channelId)
    .filter((p) => p.threadId === undefined && /digest/i.test(String(p.activity?.summary)));

async function subscribe(bot: TeamsBotUnderTest, text: string, channel = h.channel) {
  const answer = await bot.answerTo(
    channelMessage(h.fakes.bot, { user: h.user, channel, text: `digest subscribe ${text}` }),
  );
  expect(cardText(answer.activity)).toMatch(/Subscribed: /);
}

describe('digests in a Teams channel', () => {
  it('records the tenant, the conversation and the service URL, and posts at its time, once across a restart', async () => {
    const dataDir = h.dataDir();
    const clock = new ManualClock('2026-11-20T12:00:00Z');
    const start = () => h.start({ dataDir, start: { digests: { clock, tickMs: 60_000, pacingMs: 0 } } });
    const first = await start();
    await subscribe(first, 'daily 07:00 all-clear');
    const [sub] = await first.bot.digests.store.listSubscriptions({ platform: 'teams' });
    expect(sub).toMatchObject({
      platform: 'teams',
      orgId: h.fakes.bot.tenantId,
      channelId: h.channel.id,
      channelName: h.channel.name,
      serviceUrl: h.fakes.bot.serviceUrl,
    });
    clock.set('2026-11-21T13:00:05Z');
    expect((await first.bot.digests.worker!.tick()).outcomes).toEqual({ posted: 1 });
    const [posted] = digestsIn(h.channel.id);
    expect(posted?.activity?.attachments?.[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(cardText(posted?.activity)).toMatch(/Linen shortfall digest · Sat 21 Nov/);
    await first.stop();

    // The same folder again: the digest already posted is not posted again; the next day's is.
    const second = await start();
    expect((await second.bot.digests.worker!.tick()).outcomes).toEqual({});
    expect(digestsIn(h.channel.id)).toHaveLength(1);
    clock.set('2026-11-22T13:00:05Z');
    expect((await second.bot.digests.worker!.tick()).outcomes).toEqual({ posted: 1 });
    expect(digestsIn(h.channel.id)).toHaveLength(2);
    await second.stop();
  });

  it('waits out a 429 with its Retry-After and posts once', async () => {
    const channel = { ...h.channel, id: '19:throttled0channel00000000000000@thread.tacv2', name: 'Throttled' };
    const clock = new ManualClock('2026-11-20T12:00:00Z');
    const bot = await h.start({ start: { digests: { clock, tickMs: 60_000, pacingMs: 0 } } });
    await subscribe(bot, 'daily 07:00 all-clear', channel);
    h.fakes.connector.throttle(channel.id, 2, 1);
    clock.set('2026-11-21T13:00:05Z');
    const started = Date.now();
    expect((await bot.bot.digests.worker!.tick()).outcomes).toEqual({ posted: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
    expect(digestsIn(channel.id)).toHaveLength(1);
    const refused = h.fakes.connector.requests.filter((r) => r.conversationId === channel.id && r.status === 429);
    expect(refused).toHaveLength(2);
    await bot.stop();
  });

  it('stops a subscription whose channel the bot was removed from, and tells its creator once in a 1:1 chat', async () => {
    const channel = { ...h.channel, id: '19:removed0channel000000000000000@thread.tacv2', name: 'Removed' };
    const clock = new ManualClock('2026-11-20T12:00:00Z');
    const bot = await h.start({ start: { digests: { clock, tickMs: 60_000, pacingMs: 0 } } });
    await subscribe(bot, 'daily 07:00 all-clear', channel);
    h.fakes.connector.setFault(channel.id, 'bot-removed');
    clock.set('2026-11-21T13:00:05Z');
    expect((await bot.bot.digests.worker!.tick()).outcomes).toEqual({ failed: 1 });
    const [sub] = (await bot.bot.digests.store.listSubscriptions({ platform: 'teams' })).filter(
      (s) => s.channelId === channel.id,
    );
    expect(sub?.status).toBe('failing');
    expect(sub?.failureReason).toMatch(/Linen is no longer in that conversation/);
    const told = h.fakes.connector.createdConversations.filter((c) => c.userId === h.user.id);
    expect(told).toHaveLength(1);
    const [message] = h.fakes.connector.postsTo(told[0]!.id);
    expect(message?.activity?.text).toMatch(new RegExp(`Your Linen digest ${sub!.id} has stopped`));
    // Not tried again, and nobody told twice.
    clock.set('2026-11-22T13:00:05Z');
    expect((await bot.bot.digests.worker!.tick()).outcomes).toEqual({});
    expect(h.fakes.connector.createdConversations.filter((c) => c.userId === h.user.id)).toHaveLength(1);
    await bot.stop();
  });

  it('lets anyone in the conversation manage its digests, with LINEN_ADMIN_USER_IDS (Slack users) set', async () => {
    const channel = { ...h.channel, id: '19:managed0channel0000000000000000@thread.tacv2', name: 'Managed' };
    const bot = await h.start({ env: { LINEN_ADMIN_USER_IDS: 'U024BE7LH' } });
    await subscribe(bot, 'daily 07:00 all-clear', channel);
    const list = await bot.answerTo(channelMessage(h.fakes.bot, { user: h.user, channel, text: 'digest list' }));
    const id = /• ([a-z0-9]{6}) #Managed/.exec(cardText(list.activity))?.[1];
    expect(id, cardText(list.activity)).toBeDefined();
    const paused = await bot.answerTo(
      channelMessage(h.fakes.bot, { user: h.user, channel, text: `digest pause ${id}` }),
    );
    expect(cardText(paused.activity)).toMatch(/Paused/i);
    await bot.stop();
  });
});
