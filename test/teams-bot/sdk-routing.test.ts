/**
 * What the Teams SDK does with each kind of activity Teams sends, as the Teams adapter relies on it: which handler
 * (route name) runs, what an invoke's answer becomes (the HTTP response's body), where `send` posts (a channel message
 * is answered in its thread), how an @mention is stripped, and the file-consent upload the accept invoke names.
 * A bare `App` against the Bot Framework fakes, each activity built as Teams sends it (test/support/teams-activities.ts).
 */
import type { App } from '@microsoft/teams.apps';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Activity,
  botAdded,
  botRemoved,
  cardAction,
  channelMessage,
  channelPlace,
  dialogFetch,
  dialogSubmit,
  fileConsent,
  groupChat,
  groupChatMessage,
  installationUpdate,
  messageExtensionQuery,
  personalChat,
  personalMessage,
  postActivity,
  teamsChannel,
  teamsTeam,
  teamsUser,
} from '../support/teams-activities.ts';
import { type BareTeamsApp, startBareTeamsApp } from '../support/teams-bare-app.ts';
import { startTeamsFakes, type TeamsFakes } from '../support/teams-fakes.ts';

/** The routes the adapter uses, each recording the activities it ran for. */
const ROUTES = [
  'message',
  'mention',
  'install.add',
  'install.remove',
  'conversationUpdate',
  'teamMemberAdded',
  'teamMemberRemoved',
  'message.ext.query',
  'card.action',
  'file.consent.accept',
  'file.consent.decline',
  'dialog.open',
  'dialog.submit',
] as const;

let fakes: TeamsFakes;
let bench: BareTeamsApp;
const ran: { route: (typeof ROUTES)[number]; activity: Activity; text?: string }[] = [];
const user = teamsUser('Priya Raman');
const team = teamsTeam('Mercy Linen Operations');
const channel = teamsChannel(team, 'Linen Ops');

/** The routes that ran for an activity. */
const routesFor = (activity: Activity) => ran.filter((r) => r.activity.id === activity.id).map((r) => r.route);

function register(app: App) {
  const record = (route: (typeof ROUTES)[number]) => (ctx: { activity: Activity; next: () => unknown }) => {
    ran.push({ route, activity: ctx.activity, text: ctx.activity.text });
    return ctx.next();
  };
  for (const route of ['mention', 'conversationUpdate', 'teamMemberAdded', 'teamMemberRemoved'] as const)
    app.on(route, record(route) as never);
  app.on('message', async (ctx) => {
    ran.push({ route: 'message', activity: ctx.activity, text: ctx.activity.text });
    await ctx.send(`You asked: ${ctx.activity.text}`);
  });
  app.on('install.add', record('install.add') as never);
  app.on('install.remove', record('install.remove') as never);
  app.on('message.ext.query', async (ctx) => {
    ran.push({ route: 'message.ext.query', activity: ctx.activity });
    const query = ctx.activity.value.parameters?.find((p) => p.name === 'query')?.value;
    return {
      composeExtension: {
        type: 'result',
        attachmentLayout: 'list',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: { type: 'AdaptiveCard', version: '1.5', body: [{ type: 'TextBlock', text: String(query) }] },
            preview: { contentType: 'application/vnd.microsoft.card.thumbnail', content: { title: String(query) } },
          },
        ],
      },
    };
  });
  app.on('card.action', async (ctx) => {
    ran.push({ route: 'card.action', activity: ctx.activity });
    return {
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: `Done: ${ctx.activity.value.action.verb}`,
    };
  });
  app.on('file.consent.accept', async (ctx) => {
    ran.push({ route: 'file.consent.accept', activity: ctx.activity });
    const info = ctx.activity.value.uploadInfo;
    const pdf = Buffer.from('%PDF-1.7 invoice INV-26-000123');
    // The upload URL is pre-authenticated: the bot's token must not go there.
    await fetch(String(info?.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-range': `bytes 0-${pdf.length - 1}/${pdf.length}` },
      body: pdf,
    });
  });
  app.on('file.consent.decline', record('file.consent.decline') as never);
  app.on('dialog.open', async (ctx) => {
    ran.push({ route: 'dialog.open', activity: ctx.activity });
    return {
      task: {
        type: 'continue',
        value: {
          title: 'Connect Linen',
          card: {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: { type: 'AdaptiveCard', version: '1.5', body: [{ type: 'Input.Text', id: 'key' }] },
          },
        },
      },
    };
  });
  app.on('dialog.submit', async (ctx) => {
    ran.push({ route: 'dialog.submit', activity: ctx.activity });
    return { task: { type: 'message', value: 'Connected.' } };
  });
}

beforeAll(async () => {
  fakes = await startTeamsFakes();
  bench = await startBareTeamsApp(fakes, { register, activity: { mentions: { stripText: true } } });
});

afterAll(async () => {
  await bench?.close();
  await fakes?.close();
});

const post = (activity: Activity) => postActivity(bench.endpoint, activity, fakes.connectorToken());

describe('what the Teams SDK does with each activity Teams sends', () => {
  it('runs `message` for a 1:1 message and posts the answer to the 1:1 chat', async () => {
    const activity = personalMessage(fakes.bot, { user, text: 'balance Mercy' });
    expect((await post(activity)).status).toBe(200);
    expect(routesFor(activity)).toEqual(['message']);
    const [answer] = fakes.connector.postsTo(activity.conversation.id);
    expect(answer?.activity?.text).toBe('You asked: balance Mercy');
    expect(answer?.threadId).toBeUndefined();
  });

  it('strips the bot’s @mention from a channel message and answers in the message’s thread', async () => {
    const activity = channelMessage(fakes.bot, { user, channel, text: 'ticket TKT-26-00417' });
    expect((await post(activity)).status).toBe(200);
    expect(routesFor(activity)).toEqual(['mention', 'message']);
    expect(ran.find((r) => r.activity.id === activity.id && r.route === 'message')?.text).toBe('ticket TKT-26-00417');
    const answer = fakes.connector.postsTo(channel.id).find((p) => p.threadId === activity.id);
    expect(answer?.activity?.text).toBe('You asked: ticket TKT-26-00417');
  });

  it('posts into the root’s thread for a reply in a channel thread', async () => {
    const root = channelMessage(fakes.bot, { user, channel, text: 'short' });
    const reply = channelMessage(fakes.bot, { user, channel, text: 'short Mercy', threadRoot: root.id });
    expect((await post(reply)).status).toBe(200);
    const answer = fakes.connector.postsTo(channel.id).find((p) => p.activity?.text === 'You asked: short Mercy');
    expect(answer?.threadId).toBe(root.id);
  });

  it('runs `mention` and `message` for a group chat message that @mentions the bot', async () => {
    const chat = groupChat();
    const activity = groupChatMessage(fakes.bot, { user, chat, text: 'signals' });
    expect((await post(activity)).status).toBe(200);
    expect(routesFor(activity)).toEqual(['mention', 'message']);
    expect(fakes.connector.postsTo(activity.conversation.id)).toHaveLength(1);
  });

  it('runs `install.add` and `install.remove` for installationUpdate, with the tenant in channelData', async () => {
    const add = installationUpdate(fakes.bot, { user, place: channelPlace(channel), action: 'add' });
    const remove = installationUpdate(fakes.bot, { user, place: personalChat(), action: 'remove' });
    expect((await post(add)).status).toBe(200);
    expect((await post(remove)).status).toBe(200);
    expect(routesFor(add)).toEqual(['install.add']);
    expect(routesFor(remove)).toEqual(['install.remove']);
    expect(add.channelData.tenant.id).toBe(fakes.bot.tenantId);
  });

  it('runs `conversationUpdate` and `teamMemberAdded` when the bot is added to a team, only `conversationUpdate` in a 1:1 chat', async () => {
    const inTeam = botAdded(fakes.bot, { user, place: channelPlace(teamsChannel(team)) });
    const inChat = botAdded(fakes.bot, { user, place: personalChat() });
    await post(inTeam);
    await post(inChat);
    expect(routesFor(inTeam)).toEqual(['conversationUpdate', 'teamMemberAdded']);
    expect(routesFor(inChat)).toEqual(['conversationUpdate']);
    expect(inTeam.membersAdded).toEqual([{ id: `28:${fakes.bot.appId}` }]);
  });

  it('runs `teamMemberRemoved` when the bot is removed from a team', async () => {
    const removed = botRemoved(fakes.bot, { user, place: channelPlace(channel) });
    await post(removed);
    expect(routesFor(removed)).toEqual(['conversationUpdate', 'teamMemberRemoved']);
  });

  it('answers the message extension’s query in the HTTP response: a `result` with the cards', async () => {
    const activity = messageExtensionQuery(fakes.bot, {
      user,
      place: channelPlace(channel),
      query: 'ticket TKT-26-00417',
    });
    const sentBefore = fakes.connector.activities.length;
    const res = await post(activity);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      composeExtension: {
        type: 'result',
        attachmentLayout: 'list',
        attachments: [{ content: { body: [{ text: 'ticket TKT-26-00417' }] } }],
      },
    });
    expect(fakes.connector.activities.length).toBe(sentBefore);
  });

  it('answers an Action.Execute (`card.action`) in the HTTP response', async () => {
    const activity = cardAction(fakes.bot, { user, place: personalChat(), replyToId: '1795700000000', verb: 'pdf' });
    const res = await post(activity);
    expect(routesFor(activity)).toEqual(['card.action']);
    expect(res.body).toEqual({
      statusCode: 200,
      type: 'application/vnd.microsoft.activity.message',
      value: 'Done: pdf',
    });
  });

  it('runs `file.consent.accept` with the upload slot, whose PUT keeps the bytes', async () => {
    const chat = personalChat();
    const uploadInfo = fakes.connector.fileUpload('INV-26-000123.pdf');
    const activity = fileConsent(fakes.bot, { user, chat, replyToId: '1795700000001', action: 'accept', uploadInfo });
    expect((await post(activity)).status).toBe(200);
    expect(routesFor(activity)).toEqual(['file.consent.accept']);
    const upload = await fakes.connector.waitForUpload(uploadInfo.uniqueId);
    expect(upload.bytes.toString()).toBe('%PDF-1.7 invoice INV-26-000123');
    expect(upload.contentTypes).toEqual(['application/pdf']);
  });

  it('runs `file.consent.decline` when the user declines the file', async () => {
    const activity = fileConsent(fakes.bot, {
      user,
      chat: personalChat(),
      replyToId: '1795700000002',
      action: 'decline',
    });
    expect((await post(activity)).status).toBe(200);
    expect(routesFor(activity)).toEqual(['file.consent.decline']);
  });

  it('answers task/fetch (`dialog.open`) and task/submit (`dialog.submit`) in the HTTP response', async () => {
    const place = personalChat();
    const open = await post(dialogFetch(fakes.bot, { user, place, data: { opendialogtype: 'connect' } }));
    const submit = await post(dialogSubmit(fakes.bot, { user, place, data: { key: 'lk_live_x' } }));
    expect(open.body).toMatchObject({ task: { type: 'continue', value: { title: 'Connect Linen' } } });
    expect(submit.body).toEqual({ task: { type: 'message', value: 'Connected.' } });
  });
});
