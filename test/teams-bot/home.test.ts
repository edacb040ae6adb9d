/**
 * The home on Teams, through the service's real HTTP server against the Bot Framework fakes and the sandbox: `home`
 * in the 1:1 chat posts it as an Adaptive Card 1.5 that keeps itself current (Universal Actions: a `refresh` whose
 * `userIds` is the person's `29:` id); the `adaptiveCard/action` invoke of its refresh and of its buttons is answered
 * with the current card itself (`statusCode` 200, the card as the value), within Teams' wait even when the Linen API
 * is held; a follow chosen on the card is kept across a restart; in a channel, where everyone would read it, the home
 * is not shown. Every card is checked by the Adaptive Card validator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinenClient } from '../../shared/node.ts';
import { executeActions, validateCard } from '../support/adaptive-card.ts';
import { gatedApis } from '../support/gated-api.ts';
import { KEYS } from '../support/sandbox-http.ts';
import { cardAction, channelMessage, type TeamsPlace } from '../support/teams-activities.ts';
import {
  cardText,
  NOW,
  startTeamsHarness,
  type TeamsBotUnderTest,
  type TeamsHarness,
  TZ,
} from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;
let dataDir: string;

beforeAll(async () => {
  h = await startTeamsHarness();
  dataDir = h.dataDir();
  bot = await h.start({ dataDir });
});
afterAll(() => h?.close());

type Card = Record<string, any>;

const cardOf = (activity: Record<string, any> | undefined): Card => activity?.attachments?.[0]?.content;
const personal = (conversationId: string): TeamsPlace => ({ kind: 'personal', conversationId });
const customer = (name: string) => h.sandbox.data.customers.find((c) => c.name === name)!;
/** The text of a card as a card (a RichTextBlock a line). */
const textOfCard = (card: Card) => cardText({ attachments: [{ content: card }] });

/** Every `Action.Execute` of a card, body and refresh alike. */
const executes = (card: Card) => executeActions(card);

/** Presses an `Action.Execute` of the card (or Teams runs its refresh); the invoke's answer. */
async function invoke(
  b: TeamsBotUnderTest,
  conversationId: string,
  replyToId: string,
  action: { verb: string; data: any },
  trigger: 'manual' | 'automatic' = 'manual',
) {
  const res = await b.post(
    cardAction(h.fakes.bot, {
      user: h.user,
      place: personal(conversationId),
      replyToId,
      verb: action.verb,
      data: action.data,
      trigger,
    }),
  );
  expect(res.status).toBe(200);
  return res.body as { statusCode: number; type: string; value: Card };
}

describe('home in the 1:1 chat', () => {
  it('posts the home as a card that refreshes itself for the person who asked', async () => {
    const { activity, answer } = await bot.ask('home', { user: h.user });
    const card = cardOf(answer.activity);
    expect(card.version).toBe('1.5');
    expect(card.refresh.userIds).toEqual([activity.from.id]);
    expect(activity.from.id).toMatch(/^29:/);
    expect(card.refresh.action).toMatchObject({
      type: 'Action.Execute',
      verb: 'linen_refresh',
      data: { command: 'home' },
    });
    const text = cardText(answer.activity);
    expect(text).toContain('Your Linen home');
    expect(text).toMatch(/As of 2026-11-20 12:00 \(America\/Chicago\) · following every customer/);
    expect(text).toContain('Short today');
    expect(text).toContain('Overdue invoices');
    expect(executes(card).map((a) => a.title)).toEqual(expect.arrayContaining(['Refresh', 'Follow these customers']));
    expect(h.problems).toEqual([]);
  });

  it('answers the refresh Teams runs when the card is viewed with the current card itself', async () => {
    const { activity, answer } = await bot.ask('home', { user: h.user });
    const card = cardOf(answer.activity);
    h.sandbox.changes.addSignal({
      kind: 'shortfall_streak',
      severity: 'high',
      customer_id: customer('Mercy General Hospital').id,
      summary: 'Gowns under par for nine days',
    });
    try {
      const res = await invoke(bot, activity.conversation.id, answer.id, card.refresh.action, 'automatic');
      expect(res).toMatchObject({ statusCode: 200, type: 'application/vnd.microsoft.card.adaptive' });
      expect(validateCard(res.value, 'refreshed')).toEqual([]);
      expect(res.value.refresh.userIds).toEqual([h.user.id]);
      expect(textOfCard(res.value)).toContain('Gowns under par for nine days');
    } finally {
      h.sandbox.changes.reset();
    }
  });

  it('keeps a follow chosen on the card, across a restart', async () => {
    const mgh = customer('Mercy General Hospital');
    const { activity, answer } = await bot.ask('home', { user: h.user });
    const card = cardOf(answer.activity);
    const save = executes(card).find((a) => a.title === 'Follow these customers')!;
    // Teams sends the card's inputs with the action: the customers chosen in its list.
    const res = await invoke(bot, activity.conversation.id, answer.id, {
      verb: save.verb,
      data: { ...save.data, [save.data.input]: mgh.id },
    });
    expect(validateCard(res.value, 'followed')).toEqual([]);
    const text = textOfCard(res.value);
    expect(text).toContain('Following Mercy General Hospital.');
    expect(text).not.toContain("St. Luke's Medical Center ›");
    const rows = await bot.bot.database.query<Record<string, unknown>>(
      'SELECT platform, org_id, user_id FROM home_follows WHERE user_id = $1',
      [h.user.id],
    );
    expect(rows).toEqual([{ platform: 'teams', org_id: h.fakes.bot.tenantId, user_id: h.user.id }]);

    await bot.stop();
    bot = await h.start({ dataDir });
    const again = await bot.ask('home', { user: h.user });
    expect(cardText(again.answer.activity)).toContain('following Mercy General Hospital');
    expect(h.problems).toEqual([]);
  });

  it('pauses a digest of the person’s from its button, and answers with the card', async () => {
    const sub = await bot.answerTo(
      channelMessage(h.fakes.bot, { user: h.user, channel: h.channel, text: 'digest subscribe' }),
    );
    const id = /Subscribed: (d[a-z0-9]+)/.exec(cardText(sub.activity))![1]!;
    const { activity, answer } = await bot.ask('home', { user: h.user });
    const pause = executes(cardOf(answer.activity)).find((a) => a.data?.command === `home pause digest ${id}`)!;
    expect(pause.title).toBe('Pause');
    const res = await invoke(bot, activity.conversation.id, answer.id, pause);
    expect(textOfCard(res.value)).toContain(`Paused ${id}`);
    expect((await bot.bot.digests.store.getSubscription(id))?.status).toBe('paused');
    expect(executes(res.value).find((a) => a.data?.command === `home resume digest ${id}`)?.title).toBe('Resume');
  });
});

describe('within Teams’ wait', () => {
  const gatedApi = gatedApis(() => h.sandbox.baseUrl);

  it('answers the refresh with a card saying the home is on its way while the Linen API is held', async () => {
    const gated = await gatedApi();
    const held = await h.start({
      start: {
        linenClient: createLinenClient({
          apiKey: KEYS.all,
          baseUrl: gated.baseUrl,
          timeZone: TZ,
          pacing: false,
          now: () => NOW,
        }),
        deadlines: { interimMs: 50, deadlineMs: 500 },
      },
    });
    const res = await invoke(
      held,
      'a:1home-held-chat',
      '1700000000001',
      {
        verb: 'linen_refresh',
        data: { linen: 'linen_refresh', command: 'home' },
      },
      'automatic',
    );
    expect(res).toMatchObject({ statusCode: 200, type: 'application/vnd.microsoft.card.adaptive' });
    expect(gated.held.length).toBeGreaterThan(0);
    expect(gated.held.every((r) => !r.answered)).toBe(true);
    expect(validateCard(res.value, 'on its way')).toEqual([]);
    expect(textOfCard(res.value)).toContain('Building your Linen home');
    // It asks again the next time it is viewed.
    expect(res.value.refresh.userIds).toEqual([h.user.id]);
    await held.stop();
  });
});

describe('home in a channel', () => {
  it('is not shown where the channel would read it: one sentence pointing to the 1:1 chat', async () => {
    const answer = await bot.answerTo(channelMessage(h.fakes.bot, { user: h.user, channel: h.channel, text: 'home' }));
    const text = cardText(answer.activity);
    expect(text).toContain('Your Linen home is yours alone: type “home” in your 1:1 chat with Linen to see it.');
    expect(text).not.toContain('Short today');
    expect(cardOf(answer.activity).refresh).toBeUndefined();
  });
});
