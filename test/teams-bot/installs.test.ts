/**
 * Installing and removing the app, with organizations connecting their own keys: an install in a 1:1 chat, a team or
 * a group chat records the conversation and its tenant (a 1:1 install greets the person); removing the app from a
 * team or a chat deletes the digest subscriptions of its conversations and their records, in one transaction, and
 * once the tenant has no conversation left, its connection, keys, access rules and admins too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlExecutor } from '../../base/store/sql.ts';
import { readStatus } from '../../service/admin/status.ts';
import { renderText } from '../../service/admin/text.ts';
import { KEYS } from '../support/sandbox-http.ts';
import {
  botAdded,
  botRemoved,
  cardAction,
  channelMessage,
  groupChat,
  groupChatMessage,
  installationUpdate,
  personalChat,
  personalMessage,
  teamsChannel,
  teamsTeam,
  teamsUser,
} from '../support/teams-activities.ts';
import { cardText, startTeamsHarness, type TeamsBotUnderTest, type TeamsHarness } from '../support/teams-harness.ts';

let h: TeamsHarness;
let bot: TeamsBotUnderTest;
let db: SqlExecutor;
const admin = teamsUser('Dana Whitfield');
const adminChat = personalChat();
const team = teamsTeam('Mercy Linen Operations');
const general = teamsChannel(team);
const laundry = teamsChannel(team, 'Laundry');
const chat = groupChat();

beforeAll(async () => {
  h = await startTeamsHarness();
  bot = await h.start({ mode: 'connected' });
  db = bot.bot.database;
});
afterAll(() => h?.close());

const rowsOf = async (table: string) =>
  Number((await db.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${table}`))[0]?.n ?? 0);
const conversations = async () =>
  (
    await db.query<{ conversation_id: string; conversation_type: string; team_id: string | null; tenant_id: string }>(
      'SELECT conversation_id, conversation_type, team_id, tenant_id FROM teams_conversations ORDER BY installed_at, conversation_id',
    )
  ).map((r) => [r.conversation_type, r.conversation_id, r.team_id]);

async function acknowledged(activity: Record<string, any>) {
  const res = await bot.post(activity);
  expect(res.status).toBe(200);
}

describe('installing and removing the app', () => {
  it('greets the person on a 1:1 install and records the chat with its tenant', async () => {
    const before = h.fakes.connector.postsTo(adminChat.conversationId).length;
    await acknowledged(installationUpdate(h.fakes.bot, { user: admin, place: adminChat, action: 'add' }));
    const [greeting] = (await h.fakes.connector.waitForPosts(adminChat.conversationId, before + 1)).slice(before);
    expect(cardText(greeting!.activity)).toMatch(/Hello, I am Linen: your linen provider's data here in Teams/);
    expect(cardText(greeting!.activity)).toMatch(/balance/);
    const [row] = await db.query<{ tenant_id: string; service_url: string }>(
      'SELECT tenant_id, service_url FROM teams_conversations WHERE conversation_id = $1',
      [adminChat.conversationId],
    );
    expect(row).toEqual({ tenant_id: h.fakes.bot.tenantId, service_url: h.fakes.bot.serviceUrl });
  });

  it('records a team (its General channel) and a group chat, without posting in them', async () => {
    await acknowledged(botAdded(h.fakes.bot, { user: admin, place: { kind: 'channel', channel: general } }));
    await acknowledged(installationUpdate(h.fakes.bot, { user: admin, place: chat, action: 'add' }));
    expect(await conversations()).toEqual([
      ['personal', adminChat.conversationId, null],
      ['channel', general.id, team.id],
      ['groupChat', chat.chatId, null],
    ]);
    expect(h.fakes.connector.postsTo(general.id)).toEqual([]);
    expect(h.fakes.connector.postsTo(chat.chatId)).toEqual([]);
  });

  it('connects a key, then digests in two channels of the team and in the group chat', async () => {
    const res = await bot.post(
      cardAction(h.fakes.bot, {
        user: admin,
        place: adminChat,
        replyToId: 'form',
        verb: 'linen_connect',
        data: { api_key: KEYS.all, base_url: h.sandbox.baseUrl, timezone: 'America/Chicago' },
      }),
    );
    expect(JSON.stringify(res.body)).toContain('Linen is connected');
    for (const channel of [general, laundry]) {
      const answer = await bot.answerTo(
        channelMessage(h.fakes.bot, { user: admin, channel, text: 'digest subscribe daily 07:00 all-clear' }),
      );
      expect(cardText(answer.activity)).toMatch(/Subscribed: /);
    }
    const inChat = await bot.answerTo(
      groupChatMessage(h.fakes.bot, { user: admin, chat, text: 'digest subscribe daily 08:00 all-clear' }),
    );
    expect(cardText(inChat.activity)).toMatch(/Subscribed: /);
    expect(await rowsOf('digest_subscriptions')).toBe(3);
    // A message in a channel records it with its team.
    expect(await conversations()).toContainEqual(['channel', laundry.id, team.id]);
  });

  it('npm run admin -- status shows the tenant, its key and its digests as Teams rows', async () => {
    const report = await readStatus(db, {});
    const tenant = h.fakes.bot.tenantId;
    expect(report.workspaces).toEqual([
      expect.objectContaining({
        platform: 'teams',
        workspace: tenant,
        install: 'conversations',
        conversations: 4,
        keys: 1,
        subscriptions: 3,
      }),
    ]);
    expect(report.connections).toEqual([
      expect.objectContaining({ platform: 'teams', workspace: tenant, place: '*', key: `…${KEYS.all.slice(-4)}` }),
    ]);
    expect(report.subscriptions.map((s) => [s.platform, s.channel]).sort()).toEqual(
      [
        ['teams', general.id],
        ['teams', laundry.id],
        ['teams', chat.chatId],
      ].sort(),
    );
    const text = renderText(report, 'PGlite in test', new Date());
    expect(text).toMatch(new RegExp(`^teams +${tenant} +- +4 conversations +`, 'm'));
    expect(text).not.toContain(KEYS.all);
  });

  it('removing the app from the team deletes the subscriptions of all its channels, and keeps the rest', async () => {
    await acknowledged(
      installationUpdate(h.fakes.bot, { user: admin, place: { kind: 'channel', channel: general }, action: 'remove' }),
    );
    await bot.waitForLog(/removed from a channel conversation .*: 2 digest subscription\(s\) deleted/);
    const left = await bot.bot.digests.store.listSubscriptions({ platform: 'teams' });
    expect(left.map((s) => s.channelId)).toEqual([chat.chatId]);
    expect(await conversations()).toEqual([
      ['personal', adminChat.conversationId, null],
      ['groupChat', chat.chatId, null],
    ]);
    // The organization is still connected: its 1:1 chat and group chat remain.
    expect(await rowsOf('workspace_connections')).toBe(1);
    const answer = await bot.answerTo(personalMessage(h.fakes.bot, { user: admin, text: 'status', chat: adminChat }));
    expect(cardText(answer.activity)).toMatch(/the key ending in/);
  });

  it('removing it from the last chats forgets the organization: keys, access rules, admins, in one go', async () => {
    await acknowledged(botRemoved(h.fakes.bot, { user: admin, place: chat }));
    await bot.waitForLog(/removed from a groupChat conversation .*: 1 digest subscription\(s\) deleted$/);
    expect(await rowsOf('workspace_keys')).toBe(1);
    await acknowledged(installationUpdate(h.fakes.bot, { user: admin, place: adminChat, action: 'remove' }));
    await bot.waitForLog(/removed from a personal conversation .*the tenant's connection forgotten/);
    for (const table of [
      'teams_conversations',
      'digest_subscriptions',
      'workspace_connections',
      'workspace_keys',
      'connection_admins',
    ])
      expect(await rowsOf(table), table).toBe(0);
    // Installed again, the organization starts over: connect first.
    const answer = await bot.answerTo(personalMessage(h.fakes.bot, { user: admin, text: 'signals', chat: adminChat }));
    expect(cardText(answer.activity)).toMatch(/has not connected a Linen key yet/);
  });

  it('an install without a tenant (not from Teams) records nothing', async () => {
    const activity = installationUpdate(h.fakes.bot, {
      user: teamsUser('Nobody'),
      place: personalChat(),
      action: 'add',
    });
    delete activity.conversation.tenantId;
    delete activity.channelData.tenant;
    const before = await rowsOf('teams_conversations');
    await acknowledged(activity);
    expect(await rowsOf('teams_conversations')).toBe(before);
  });
});
