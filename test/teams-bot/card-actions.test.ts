/**
 * The buttons of Linen's cards on Teams (`Action.Execute`): a customer picked among several names the command
 * again and its answer replaces the choices; an invoice's PDF is offered in the person's 1:1 chat with a file
 * consent card, and once accepted is written to the upload address Teams gives and shown as a file card. A consent
 * the bot did not sign for that person is refused; a declined one sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeActions } from '../support/adaptive-card.ts';
import { cardAction, channelMessage, fileConsent, type TeamsPlace } from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start();
});
afterAll(() => h?.close());

/** Every `Action.Execute` of a posted card, in order. */
const actionsOf = (activity: Record<string, any> | undefined) => executeActions(activity?.attachments);

const personal = (conversationId: string): TeamsPlace => ({ kind: 'personal', conversationId });

describe('a customer chosen among several', () => {
  it('asks the command again for the one chosen, its answer in place of the choices', async () => {
    const { activity, answer } = await bot.ask('balance Mercy');
    expect(cardText(answer.activity)).toMatch(/“Mercy” matches 3 customers; which one\?/);
    const choices = actionsOf(answer.activity).filter((a) => a.verb === 'linen_rerun');
    const general = choices.find((c) => c.title === 'Mercy General Hospital');
    expect(choices.map((c) => c.title)).toEqual(
      expect.arrayContaining(['Mercy General Hospital', 'Mercy West Surgery Center']),
    );

    const before = h.fakes.connector.activities.length;
    const res = await bot.post(
      cardAction(h.fakes.bot, {
        user: h.user,
        place: personal(activity.conversation.id),
        replyToId: answer.id,
        verb: 'linen_rerun',
        data: general!.data,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ statusCode: 200, value: 'Looking that up…' });
    const replaced = await h.fakes.connector.waitUntil(
      () => h.fakes.connector.activities.slice(before).find((a) => a.operation === 'update' && a.id === answer.id),
      10_000,
      'the choices replaced',
    );
    expect(cardText(replaced.activity)).toMatch(/Open balance: Mercy General Hospital/);
  });

  it('answers a button it never wrote with one sentence, and runs nothing', async () => {
    const { activity, answer } = await bot.ask('help');
    const before = h.fakes.connector.activities.length;
    const res = await bot.post(
      cardAction(h.fakes.bot, {
        user: h.user,
        place: personal(activity.conversation.id),
        replyToId: answer.id,
        verb: 'delete_everything',
      }),
    );
    expect(res.body).toMatchObject({ statusCode: 200, value: 'That button is out of date.' });
    expect(h.fakes.connector.activities.length).toBe(before);
  });
});

describe("an invoice's PDF", () => {
  async function pressPdf(fromChannel: boolean) {
    const asked = fromChannel
      ? await bot.answerTo(
          channelMessage(h.fakes.bot, { user: h.user, channel: h.channel, text: 'balance Harborview Hotel' }),
        )
      : (await bot.ask('balance Harborview Hotel')).answer;
    const pdf = actionsOf(asked.activity).find((a) => a.verb === 'linen_pdf');
    expect(pdf?.title).toBe('PDF');
    const res = await bot.post(
      cardAction(h.fakes.bot, {
        user: h.user,
        place: fromChannel ? { kind: 'channel', channel: h.channel } : personal(asked.conversationId),
        replyToId: asked.id,
        verb: 'linen_pdf',
        data: pdf!.data,
      }),
    );
    expect(res.body).toMatchObject({ statusCode: 200, value: 'Sending the PDF to your 1:1 chat with Linen…' });
    // The consent card arrives in the person's 1:1 chat, which the bot opens if it must.
    const chat = await h.fakes.connector.waitUntil(
      () => h.fakes.connector.createdConversations.find((c) => c.userId === h.user.id),
      10_000,
      'the 1:1 chat',
    );
    const consent = await h.fakes.connector.waitUntil(
      () =>
        h.fakes.connector
          .postsTo(chat.id)
          .reverse()
          .find(
            (p) => p.activity?.attachments?.[0]?.contentType === 'application/vnd.microsoft.teams.card.file.consent',
          ),
      10_000,
      'the file consent card',
    );
    return { chat, consent, attachment: consent.activity!.attachments[0] };
  }

  it('offers it in the 1:1 chat, writes it where Teams says once accepted, and posts its file card', async () => {
    const { chat, consent, attachment } = await pressPdf(true);
    const invoice = h.sandbox.data.invoices.find((i) => attachment.name.includes(i.invoice_number))!;
    expect(invoice).toBeDefined();
    expect(attachment.name).toMatch(/\.pdf$/);
    expect(attachment.content.description).toContain(invoice.invoice_number);
    expect(attachment.content.sizeInBytes).toBeGreaterThan(500);

    const upload = h.fakes.connector.fileUpload(attachment.name);
    const res = await bot.post(
      fileConsent(h.fakes.bot, {
        user: h.user,
        chat: personal(chat.id),
        replyToId: consent.id,
        action: 'accept',
        uploadInfo: upload,
        context: attachment.content.acceptContext,
      }),
    );
    expect(res.status).toBe(200);
    const written = await h.fakes.connector.waitForUpload(upload.uniqueId);
    expect(written.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(written.bytes.length).toBe(attachment.content.sizeInBytes);
    expect(written.contentTypes).toContain('application/pdf');
    const card = await h.fakes.connector.waitUntil(
      () =>
        h.fakes.connector
          .postsTo(chat.id)
          .find((p) => p.activity?.attachments?.[0]?.contentType === 'application/vnd.microsoft.teams.card.file.info'),
      10_000,
      'the file card',
    );
    expect(card.activity!.attachments[0]).toMatchObject({ contentUrl: upload.contentUrl, name: attachment.name });
    expect(card.activity!.attachments[0].content.uniqueId).toBe(upload.uniqueId);
  });

  it('refuses an accept whose context the bot did not sign for this person, and writes nothing', async () => {
    const { chat, consent, attachment } = await pressPdf(false);
    const forged = {
      ...attachment.content.acceptContext,
      ref: { ...attachment.content.acceptContext.ref, n: 'PLS-26-000001' },
    };
    const upload = h.fakes.connector.fileUpload('PLS-26-000001.pdf');
    const before = h.fakes.connector.postsTo(chat.id).length;
    await bot.post(
      fileConsent(h.fakes.bot, {
        user: h.user,
        chat: personal(chat.id),
        replyToId: consent.id,
        action: 'accept',
        uploadInfo: upload,
        context: forged,
      }),
    );
    const [told] = await h.fakes.connector.waitUntil(
      () => {
        const after = h.fakes.connector.postsTo(chat.id).slice(before);
        return after.length ? after : undefined;
      },
      10_000,
      'the answer to a forged consent',
    );
    expect(cardText(told!.activity)).toMatch(/That file offer is out of date; press PDF again\./);
    expect(h.fakes.connector.uploads.find((u) => u.uniqueId === upload.uniqueId)?.bytes.length).toBe(0);
  });

  it('sends nothing when the person declines', async () => {
    const { chat, consent } = await pressPdf(false);
    const before = h.fakes.connector.activities.length;
    const res = await bot.post(
      fileConsent(h.fakes.bot, { user: h.user, chat: personal(chat.id), replyToId: consent.id, action: 'decline' }),
    );
    expect(res.status).toBe(200);
    await bot.waitForLog(/a Teams PDF offer was declined/);
    expect(h.fakes.connector.activities.length).toBe(before);
  });
});
