/**
 * The message extension (search command `linen`, parameter `query`), Teams' form of "Share in channel": what the
 * person types is answered in the invoke's HTTP response as a result card (`composeExtension.type` `result`), which
 * only they see until they insert it into the conversation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelPlace, messageExtensionQuery, personalChat } from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start();
});
afterAll(() => h?.close());

const search = (query: string, place = channelPlace(h.channel)) =>
  bot.post(messageExtensionQuery(h.fakes.bot, { user: h.user, place, query }));

describe('the message extension', () => {
  it('answers a ticket as a result card in the HTTP response, posting nothing itself', async () => {
    const before = h.fakes.connector.activities.length;
    const res = await search('ticket TKT-26-00417');
    expect(res.status).toBe(200);
    expect(res.body.composeExtension.type).toBe('result');
    const [attachment] = res.body.composeExtension.attachments;
    expect(attachment.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(cardText({ attachments: [attachment] })).toMatch(/TKT-26-00417: /);
    expect(attachment.preview.content.title).toMatch(/TKT-26-00417/);
    // Shown to the person only: nothing posted in the conversation.
    expect(h.fakes.connector.activities.length).toBe(before);
  });

  it('answers a balance by name, with a leading linen too', async () => {
    const res = await search('linen balance Mercy General');
    const text = cardText({ attachments: res.body.composeExtension.attachments });
    expect(text).toMatch(/Open balance: Mercy General Hospital/);
    // The card a person inserts carries no share button: inserting it is the sharing.
    expect(JSON.stringify(res.body)).not.toContain('Share in channel');
  });

  it('answers an empty or unknown query with the help in one card', async () => {
    const res = await search('', personalChat());
    expect(cardText({ attachments: res.body.composeExtension.attachments })).toMatch(/Linen in Microsoft Teams/);
    const unknown = await search('frobnicate');
    expect(cardText({ attachments: unknown.body.composeExtension.attachments })).toMatch(/I don't know/);
  });
});
