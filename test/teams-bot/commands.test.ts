/**
 * Commands on Teams through the service's real HTTP server: a 1:1 message and a channel message after @Linen are
 * acknowledged, then answered with an Adaptive Card of the same content as Slack's, in the 1:1 chat or in the
 * message's thread.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start();
});
afterAll(() => h?.close());

describe('commands in Teams', () => {
  it('answers help in the 1:1 chat with a card', async () => {
    const { answer } = await bot.ask('help');
    const text = cardText(answer.activity);
    expect(text).toContain('Linen in Microsoft Teams');
    expect(text).toContain('balance [customer]');
    expect(answer.activity?.attachments?.[0]?.contentType).toBe('application/vnd.microsoft.card.adaptive');
  });

  it('answers a balance in a channel, in the thread of the message that asked', async () => {
    const { activity, answer } = await bot.ask('balance Mercy General Hospital', { channel: h.channel });
    expect(answer.threadId).toBe(activity.id);
    expect(cardText(answer.activity)).toMatch(/Open balance: Mercy General Hospital/);
  });
});
