/**
 * Commands on Teams through the service's real HTTP server, with the environment's key (one organization): every
 * command typed in the 1:1 chat and after @Linen in a channel is acknowledged, then answered with an Adaptive Card
 * of the same content as Slack's answer, in the 1:1 chat or in the thread of the message that asked. A leading
 * `linen` or `/linen` is accepted; a channel message that does not mention Linen is not answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelMessage, teamsUser } from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start();
});
afterAll(() => h?.close());

/** Each command and what its answer's card says (the same words as Slack's answer). */
function commands(): [string, RegExp][] {
  const manifest = h.sandbox.data.manifests.find((m) => m.status === 'delivered')!;
  const order = h.sandbox.data.orders[0]!;
  return [
    ['help', /Linen in Microsoft Teams/],
    ['home', /Your Linen home/],
    ['balance', /Open balance/],
    ['balance Mercy General Hospital', /Open balance: Mercy General Hospital/],
    ['signals shortfall', /Inventory signals: Shortfall/],
    ['ticket TKT-26-00417', /TKT-26-00417: /],
    ['tickets Harborview Hotel', /Open tickets: Harborview Hotel/],
    ['fillrate Harborview Hotel', /Fill rate: Harborview Hotel/],
    ['short Mercy General Hospital', /Short today: Mercy General Hospital/],
    ['rewash Mercy General Hospital', /Rewash: Mercy General Hospital/],
    [`manifest ${manifest.manifest_number}`, new RegExp(`Proof of delivery: ${manifest.manifest_number}`)],
    ['po', /Purchase orders/],
    ['invoices overdue', /Overdue invoices/],
    [`order ${order.order_number}`, new RegExp(`Order ${order.order_number}`)],
    ['digest list', /No digest subscriptions yet/],
  ];
}

describe('every command in the 1:1 chat', () => {
  it('answers each one with its card, privately in the chat', async () => {
    for (const [text, expected] of commands()) {
      const { activity, answer } = await bot.ask(text);
      expect(answer.conversationId, text).toBe(activity.conversation.id);
      expect(answer.activity?.attachments?.[0]?.contentType, text).toBe('application/vnd.microsoft.card.adaptive');
      expect(answer.activity?.attachments?.[0]?.content?.version, text).toBe('1.5');
      expect(cardText(answer.activity), text).toMatch(expected);
      expect(answer.activity?.summary, text).toBeTruthy();
    }
  });

  it('reads a leading linen or /linen as the command', async () => {
    for (const text of ['linen balance Mercy General Hospital', '/linen balance Mercy General Hospital']) {
      const { answer } = await bot.ask(text);
      expect(cardText(answer.activity), text).toMatch(/Open balance: Mercy General Hospital/);
    }
  });
});

describe('every command in a channel after @Linen', () => {
  it('answers each one in the thread of the message that asked, for the channel to see', async () => {
    for (const [text, expected] of commands()) {
      const { activity, answer } = await bot.ask(text, { channel: h.channel });
      expect(answer.conversationId, text).toBe(h.channel.id);
      expect(answer.threadId, text).toBe(activity.id);
      expect(cardText(answer.activity), text).toMatch(expected);
    }
  });

  it('does not answer a channel message that does not mention Linen', async () => {
    const before = h.fakes.connector.activities.length;
    const quiet = channelMessage(h.fakes.bot, {
      user: teamsUser('Sam Ortiz'),
      channel: h.channel,
      text: 'balance',
      mention: false,
    });
    expect((await bot.post(quiet)).status).toBe(200);
    await bot.waitForLog(/ignored a Teams message that does not mention Linen/);
    expect(h.fakes.connector.activities.slice(before)).toEqual([]);
  });
});

describe('what an answer card holds', () => {
  it('keeps text from the API as text: no Markdown, link or mention comes alive', async () => {
    const { answer } = await bot.ask('balance Mercy General Hospital');
    const body = JSON.stringify(answer.activity?.attachments?.[0]?.content);
    // Every text is a TextRun (never read as Markdown by Teams); no TextBlock carries API text.
    expect(body).not.toContain('"TextBlock"');
    expect(body).toContain('"TextRun"');
    // The PDF buttons are Action.Execute, carrying what lists the invoice again; no share button in Teams.
    expect(body).toContain('"verb":"linen_pdf"');
    expect(body).not.toContain('Share in channel');
  });
});

describe('every card posted', () => {
  it('is a valid Adaptive Card within its limits, charts and tables included', () => {
    expect(h.problems).toEqual([]);
  });
});
