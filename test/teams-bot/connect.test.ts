/**
 * Organizations connect their own Linen key from Teams (no LINEN_API_KEY): `connect` in the 1:1 chat shows a card
 * form; the key is checked with the API before it is saved, sealed at rest, and shown again only as its last four
 * characters. Whoever connects a tenant's first key becomes its first Linen admin and may name others. Accounting
 * answers appear nowhere until an admin allows a channel or 1:1 chats, as on Slack.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../support/sandbox-http.ts';
import { assertNoLeaks, tableRows } from '../support/secret-leaks.ts';
import {
  type Activity,
  cardAction,
  channelMessage,
  personalChat,
  personalMessage,
  teamsUser,
} from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;
const admin = teamsUser('Dana Whitfield');
const member = teamsUser('Sam Ortiz');
const adminChat = personalChat();

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start({ mode: 'connected' });
});
afterAll(() => h?.close());

const said = async (text: string, o: { user?: typeof admin; channel?: boolean } = {}) =>
  cardText(
    o.channel
      ? (await bot.ask(text, { user: o.user ?? admin, channel: h.channel })).answer.activity
      : (await bot.answerTo(personalMessage(h.fakes.bot, { user: o.user ?? admin, text, chat: adminChat }))).activity,
  );

/** The connect form's submission, as Teams sends an Action.Execute of the form card; the invoke's answer. */
async function submit(data: Record<string, unknown>, user = admin) {
  const res = await bot.post(
    cardAction(h.fakes.bot, { user, place: adminChat, replyToId: 'form', verb: 'linen_connect', data }),
  );
  expect(res.status).toBe(200);
  return res.body as { statusCode: number; type: string; value: any };
}

describe('connecting a key from Teams', () => {
  it('answers every command with how to connect until a key is connected, help included', async () => {
    expect(await said('balance')).toMatch(
      /This organization has not connected a Linen key yet: a Linen admin of your organization can type “connect”/,
    );
    expect(await said('help')).toMatch(/Linen in Microsoft Teams[\s\S]*has not connected a Linen key yet/);
  });

  it('does not take a key in a channel: connect is for the 1:1 chat', async () => {
    expect(await said('connect', { channel: true })).toMatch(/Connect Linen in your 1:1 chat with Linen/);
  });

  it('shows the form in the 1:1 chat: a masked key field, the allowed address, the timezone', async () => {
    const { answer } = await bot.ask('connect', { user: admin });
    const card = answer.activity?.attachments?.[0]?.content;
    const inputs = JSON.stringify(card);
    expect(inputs).toContain('"id":"api_key"');
    expect(inputs).toContain('"style":"Password"');
    expect(inputs).toContain(`"value":"${h.sandbox.baseUrl}"`);
    expect(inputs).toContain('"verb":"linen_connect"');
  });

  it('puts a wrong key back on the form with one sentence, the key field empty', async () => {
    const answer = await submit({
      api_key: 'lk_live_not_a_key_at_all',
      base_url: h.sandbox.baseUrl,
      timezone: 'America/Chicago',
    });
    expect(answer.type).toBe('application/vnd.microsoft.card.adaptive');
    const body = JSON.stringify(answer.value);
    expect(body).toContain('The Linen API rejected this key');
    expect(body).not.toContain('lk_live_not_a_key_at_all');
    const badZone = await submit({ api_key: KEYS.all, base_url: h.sandbox.baseUrl, timezone: 'Mars/Base' });
    expect(JSON.stringify(badZone.value)).toContain('Give an IANA timezone');
    const otherApi = await submit({ api_key: KEYS.all, base_url: 'https://elsewhere.example/v1', timezone: 'UTC' });
    expect(JSON.stringify(otherApi.value)).toContain('This bot only connects to');
  });

  it('checks and saves a good key: the card says what it sees, the key never echoed', async () => {
    const answer = await submit({ api_key: KEYS.all, base_url: h.sandbox.baseUrl, timezone: 'America/Chicago' });
    const body = JSON.stringify(answer.value);
    expect(body).toContain('Linen is connected');
    expect(body).toContain(`…${KEYS.all.slice(-4)}`);
    expect(body).toContain('Mercy General Hospital');
    expect(body).not.toContain(KEYS.all);
    expect(await said('status')).toMatch(new RegExp(`the key ending in ${KEYS.all.slice(-4)}`));
    expect(await said('status')).toContain('connected by Dana Whitfield');
  });

  it('answers with the connected key, and refuses accounting answers until an admin allows them', async () => {
    expect(await said('signals shortfall', { channel: true })).toMatch(/Inventory signals: Shortfall/);
    expect(await said('balance', { channel: true })).toMatch(
      /Accounting answers are not shown in this channel; a Linen admin of your organization can allow them here with “access accounting allow”/,
    );
    expect(await said('invoices')).toMatch(/Accounting answers are not shown in direct messages here/);
  });

  it('lets the admin who connected allow a channel and 1:1 chats; nobody else', async () => {
    expect(await said('access accounting allow', { channel: true, user: member })).toMatch(
      /Only your organization's Linen admins/,
    );
    expect(await said('access accounting allow', { channel: true })).toMatch(/Accounting answers appear in: /);
    expect(await said('balance Mercy General Hospital', { channel: true })).toMatch(
      /Open balance: Mercy General Hospital/,
    );
    expect(await said('access accounting dms on')).toMatch(/and in direct messages/);
    expect(await said('invoices')).toMatch(/Open invoices/);
  });

  it('lets an admin name another admin with an @mention', async () => {
    const activity: Activity = channelMessage(h.fakes.bot, {
      user: admin,
      channel: h.channel,
      text: `admins add <at>${member.name}</at>`,
    });
    activity.entities.push({
      type: 'mention',
      text: `<at>${member.name}</at>`,
      mentioned: { id: member.id, name: member.name },
    });
    expect(cardText((await bot.answerTo(activity)).activity)).toMatch(
      /Linen admins of your organization: Dana Whitfield, Sam Ortiz/,
    );
    expect(await said('access accounting deny', { channel: true, user: member })).toMatch(
      /Accounting answers appear in: no channel yet/,
    );
  });

  it('disconnects: commands say how to connect again', async () => {
    expect(await said('disconnect')).toMatch(/Disconnected every Linen key of this organization/);
    expect(await said('signals')).toMatch(/has not connected a Linen key yet/);
  });

  it('keeps no key in a log line, a post, or a stored row', async () => {
    const produced = [
      ...bot.logs.map((text) => ({ source: 'log line', text })),
      ...h.fakes.connector.activities.map((a) => ({ source: 'Teams post', text: JSON.stringify(a.activity ?? {}) })),
      ...(await tableRows(bot.bot.database, [
        'workspace_connections',
        'workspace_keys',
        'connection_admins',
        'teams_conversations',
        'digest_subscriptions',
      ])),
    ];
    assertNoLeaks([KEYS.all, h.fakes.env.TEAMS_CLIENT_SECRET, h.fakes.connectorToken().slice(-40)], produced);
  });
});
