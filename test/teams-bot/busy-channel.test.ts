/**
 * A busy Teams conversation: Teams refuses a bot more than 7 operations a second, 8 in 2 seconds or 60 in 30
 * seconds in one conversation (429). The bot keeps within those limits itself, so twenty people asking in one
 * channel at once all get their answer and Teams refuses nothing; a 429 caused by someone else (another replica)
 * is waited out and the answer still posted, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_LIMITS, ConversationLimits } from '../../teams-bot/conversation-limits.ts';
import { channelMessage, teamsUser } from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

describe('the limits of one conversation', () => {
  /** Takes `n` operations at once on a clock that moves only while they wait; the time each was let through. */
  async function admitted(n: number, conversations = ['a']): Promise<Map<string, number[]>> {
    let now = 0;
    const limits = new ConversationLimits(
      () => now,
      async (ms) => {
        now += ms;
      },
    );
    const times = new Map<string, number[]>(conversations.map((c) => [c, []]));
    await Promise.all(
      conversations.flatMap((c) =>
        Array.from({ length: n }, () =>
          limits.take(c).then((answered) => {
            times.get(c)!.push(now);
            answered();
          }),
        ),
      ),
    );
    return times;
  }

  it('lets 7 through at once, the 8th a second later, and never more than a window allows', async () => {
    const [times] = [...(await admitted(70)).values()];
    expect(times!.slice(0, 7)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(times![7]).toBe(1000);
    for (const { windowMs, limit } of CONVERSATION_LIMITS)
      for (const t of times!)
        expect(times!.filter((u) => u >= t && u < t + windowMs).length).toBeLessThanOrEqual(limit);
    // 60 in 30 seconds: the 61st waits for the first to leave the window.
    expect(times![60]).toBeGreaterThanOrEqual(30_000);
  });

  it('counts each conversation on its own', async () => {
    const times = await admitted(7, ['a', 'b', 'c']);
    for (const t of times.values()) expect(t).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('twenty people asking in one channel at once', () => {
  let h: TeamsHarness;
  let bot: TeamsBotUnderTest;
  beforeAll(async () => {
    h = await startTeamsHarness();
    bot = await h.start();
    h.fakes.connector.enforceRateLimits = true;
  });
  afterAll(async () => {
    if (h) h.fakes.connector.enforceRateLimits = false;
    await h?.close();
  });

  it('answers every one in its thread, and Teams refuses nothing', async () => {
    const channel = { ...h.channel, id: '19:busy0channel0000000000000000000@thread.tacv2', name: 'Busy' };
    const asked = Array.from({ length: 20 }, (_, i) =>
      channelMessage(h.fakes.bot, { user: teamsUser(`Person ${i}`), channel, text: 'signals shortfall' }),
    );
    const answers = await Promise.all(asked.map((a) => bot.answerTo(a)));
    for (const [i, answer] of answers.entries()) {
      expect(answer.threadId).toBe(asked[i]!.id);
      expect(cardText(answer.activity)).toMatch(/Inventory signals: Shortfall/);
    }
    expect(h.fakes.connector.requests.filter((r) => r.conversationId === channel.id && r.status === 429)).toEqual([]);
  });

  it('waits out a 429 it did not cause and posts the answer once', async () => {
    const channel = { ...h.channel, id: '19:crowded0channel000000000000000@thread.tacv2', name: 'Crowded' };
    h.fakes.connector.throttle(channel.id, 2, 1);
    const activity = channelMessage(h.fakes.bot, { user: h.user, channel, text: 'ticket TKT-26-00417' });
    const answer = await bot.answerTo(activity);
    expect(cardText(answer.activity)).toMatch(/TKT-26-00417: /);
    expect(h.fakes.connector.postsTo(channel.id)).toHaveLength(1);
    expect(h.fakes.connector.requests.filter((r) => r.conversationId === channel.id && r.status === 429)).toHaveLength(
      2,
    );
  });
});
