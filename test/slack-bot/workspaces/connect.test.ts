/**
 * Multi-workspace mode through the bot's real HTTP receiver: keys connected with the `/linen connect` modal
 * (checked against the sandbox before they are saved), each workspace answered with its own key, admins only,
 * status by the last four characters, disconnect, access rules for accounting answers, channel keys, digests
 * reading with their channel's key, and connections kept across a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { ManualClock } from '../../../chat/digests/clock.ts';
import { expectNoSecretInDump } from '../../support/db-dump.ts';
import { allText, type BotUnderTest, buttons, type Harness, startHarness } from '../../support/slack-harness.ts';
import {
  ADMIN,
  botTokenOf,
  connectThroughModal,
  knowUsers,
  MEMBER,
  OWNER,
  startWorkspaceBot,
  submitConnect,
  TEAM_A,
  TEAM_B,
} from '../../support/workspace-bot.ts';

const KEY = {
  all: 'lk_live_demo_all_access',
  mercyOps: 'lk_live_demo_mercy_ops',
  harbor: 'lk_live_demo_harbor_hotel',
  revoked: 'lk_live_demo_revoked',
};
const OPS = 'C0OPS0001';
const FINANCE = 'C0FIN0001';
const HARBOR_ROOM = 'C0HARBOR1';
const DM = 'D0ADMIN01';

describe('connecting Linen from Slack (multi-workspace mode)', () => {
  let h: Harness;
  let bot: BotUnderTest;
  let dataDir: string;
  // The digest worker's clock: Fri 20 Nov 2026, 12:00 CST, as the harness's command clock.
  const clock = new ManualClock('2026-11-20T18:00:00Z');
  const digests = { clock, tickMs: 3_600_000, pacingMs: 0 };

  beforeAll(async () => {
    h = await startHarness();
    knowUsers(h);
    dataDir = mkdtempSync(join(tmpdir(), 'linen-connect-'));
    bot = await startWorkspaceBot(h, { LINEN_DATA_DIR: dataDir }, digests);
    // Creating an embedded database on disk (PGlite's initdb) is the slow part of this hook on a busy machine.
  }, 90_000);
  afterAll(async () => {
    await h?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const ask = (text: string, teamId: string, channelId = OPS, userId = ADMIN) =>
    bot.ask(text, { teamId, channelId, userId });

  it('a workspace that has installed but not connected answers every command with how to connect', async () => {
    const answer = await ask('signals', TEAM_B);
    expect(answer.text).toMatch(/has not connected a Linen key yet: a workspace admin can type \/linen connect/);
    expect(answer.blocks).toHaveLength(1);
  });

  it('a member who is not an admin is refused connect in one sentence, and no modal opens', async () => {
    const opened = h.slack.views.length;
    const answer = await ask('connect', TEAM_A, OPS, MEMBER);
    expect(answer.text).toMatch(/^Only workspace admins and owners .* can connect Linen/);
    expect(h.slack.views.length).toBe(opened);
    const access = await ask('access accounting allow', TEAM_A, OPS, MEMBER);
    expect(access.text).toMatch(/^Only workspace admins and owners/);
  });

  it('the modal opens with the key, the allowed address, the timezone and the place, in the team token', async () => {
    const r = await bot.command('connect', { teamId: TEAM_A, userId: OWNER, channelId: OPS, triggerId: 'trig-1' });
    expect(r.status).toBe(200);
    const view = await h.slack.waitForView('trig-1');
    expect(view.callback_id).toBe('linen_connect');
    const ids = (view.blocks as { block_id: string; element: { action_id: string } }[]).map((b) => [
      b.block_id,
      b.element.action_id,
    ]);
    expect(ids).toEqual([
      ['api_key', 'api_key'],
      ['base_url', 'base_url'],
      ['timezone', 'timezone'],
      ['place', 'place'],
    ]);
    expect(view.blocks[1].element.options.map((o: { value: string }) => o.value)).toEqual([h.sandbox.baseUrl]);
    expect(h.slack.views.at(-1)!.authorization).toBe(`Bearer ${botTokenOf(TEAM_A)}`);
  });

  it('an invalid key is refused on the key field, and nothing is saved', async () => {
    const ack = await connectThroughModal(h, bot, { teamId: TEAM_A, apiKey: KEY.revoked });
    expect(ack).toEqual({
      response_action: 'errors',
      errors: { api_key: 'The Linen API rejected this key; check it and paste it again.' },
    });
    expect((await ask('status', TEAM_A)).text).toMatch(/has not connected/);
  });

  it('an address outside LINEN_ALLOWED_BASE_URLS is refused on the address field', async () => {
    const ack = await connectThroughModal(h, bot, {
      teamId: TEAM_A,
      apiKey: KEY.mercyOps,
      baseUrl: 'https://attacker.example.com/v1',
    });
    expect(ack.response_action).toBe('errors');
    expect(Object.keys(ack.errors)).toEqual(['base_url']);
    expect(ack.errors.base_url).toBe(`This bot only connects to ${h.sandbox.baseUrl}.`);
  });

  it('a forged submission by a member is refused even though the modal was never opened for them', async () => {
    const view = { callback_id: 'linen_connect', private_metadata: JSON.stringify({ channelId: OPS }), blocks: [] };
    const ack = await submitConnect(bot, view, {
      teamId: TEAM_A,
      apiKey: KEY.mercyOps,
      userId: MEMBER,
      baseUrl: h.sandbox.baseUrl,
      timeZone: 'America/Chicago',
    });
    expect(ack.response_action).toBe('errors');
    expect(ack.errors.api_key).toMatch(/^Only workspace admins and owners/);
  });

  it('a valid key is checked and saved; the modal then says which customers and scopes it has', async () => {
    const ack = await connectThroughModal(h, bot, { teamId: TEAM_A, apiKey: KEY.mercyOps });
    expect(ack.response_action).toBe('update');
    const text = JSON.stringify(ack.view.blocks);
    expect(text).toContain('ending in *_ops*');
    expect(text).toContain('Mercy General Hospital');
    expect(text).not.toContain('Harborview');
    expect(text).toMatch(/:white_check_mark: processing.*:no_entry_sign: accounting.*:no_entry_sign: direct sales/);
    expect(text).not.toContain(KEY.mercyOps);
  });

  it('each of two workspaces sees only its own data', async () => {
    const ack = await connectThroughModal(h, bot, { teamId: TEAM_B, apiKey: KEY.harbor, userId: OWNER });
    expect(ack.response_action).toBe('update');
    const a = allText(await ask('tickets', TEAM_A));
    const b = allText(await ask('tickets', TEAM_B, OPS, OWNER));
    expect(a).toContain('Mercy General Hospital');
    expect(a).not.toContain('Harborview Hotel');
    expect(b).toContain('Harborview Hotel');
    expect(b).not.toContain('Mercy');
    const refused = allText(await ask('fillrate Harborview Hotel', TEAM_A));
    expect(refused).toMatch(/No customer named “Harborview Hotel” is visible/);
  });

  it('status shows each key by its last four characters only, to anyone', async () => {
    const answer = await ask('status', TEAM_A, OPS, MEMBER);
    const text = allText(answer);
    expect(text).toContain('`_ops`');
    expect(text).not.toContain(KEY.mercyOps);
    expect(text).not.toContain('demo_mercy');
    expect(text).toMatch(/Accounting answers appear in: no channel yet; not in direct messages/);
  });

  it('accounting answers are refused outside the channels an admin allowed, and in DMs until allowed', async () => {
    const ack = await connectThroughModal(h, bot, {
      teamId: TEAM_A,
      apiKey: KEY.all,
      channelId: FINANCE,
      place: 'channel',
    });
    expect(ack.response_action).toBe('update');
    const before = await ask('balance', TEAM_A, FINANCE);
    expect(before.text).toBe(
      'Accounting answers are not shown in this channel; a workspace admin can allow them here with /linen access accounting allow.',
    );
    expect((await ask('access accounting allow', TEAM_A, FINANCE)).text).toContain(`<#${FINANCE}>`);
    const allowed = allText(await ask('balance', TEAM_A, FINANCE));
    expect(allowed).toMatch(/Mercy General Hospital/);
    expect((await ask('invoices', TEAM_A, OPS)).text).toMatch(/not shown in this channel/);
    expect((await ask('balance', TEAM_A, DM)).text).toMatch(/not shown in direct messages/);
    await ask('access accounting dms on', TEAM_A, DM);
    // Allowed now: a DM answers with the workspace default key, which has no accounting scope.
    expect((await ask('balance', TEAM_A, DM)).text).toBe("This workspace's key has no accounting access.");
    await ask('access accounting dms off', TEAM_A, DM);
    expect((await ask('balance', TEAM_A, DM)).text).toMatch(/not shown in direct messages/);
  });

  it('an invoice PDF button clicked outside an allowed channel is refused, and nothing is uploaded', async () => {
    const balance = await ask('balance', TEAM_A, FINANCE);
    const pdf = buttons(balance).find((b) => b.actionId.startsWith('linen_pdf'));
    expect(pdf).toBeDefined();
    const uploads = h.slack.uploads.length;
    const click = await bot.click(pdf!.actionId, pdf!.value, { teamId: TEAM_A, channelId: OPS, userId: ADMIN });
    const [answer] = await h.slack.waitForPosts(click.sink);
    expect(answer!.body.text).toMatch(/^Accounting answers are not shown in this channel/);
    expect(h.slack.uploads.length).toBe(uploads);
  });

  it("a channel's own key overrides the workspace default there, and only there", async () => {
    const ack = await connectThroughModal(h, bot, {
      teamId: TEAM_A,
      apiKey: KEY.harbor,
      channelId: HARBOR_ROOM,
      place: 'channel',
    });
    expect(JSON.stringify(ack.view.blocks)).toContain(`<#${HARBOR_ROOM}> only`);
    const inRoom = allText(await ask('tickets', TEAM_A, HARBOR_ROOM));
    expect(inRoom).toContain('Harborview Hotel');
    expect(inRoom).not.toContain('Mercy');
    const elsewhere = allText(await ask('tickets', TEAM_A, OPS));
    expect(elsewhere).toContain('Mercy General Hospital');
    expect(elsewhere).not.toContain('Harborview Hotel');
  });

  it('a digest subscribed in a channel reads with the key bound to that channel', async () => {
    h.slack.channels.set(HARBOR_ROOM, { name: 'harbor-room', member: true });
    const answer = await ask('digest subscribe tickets', TEAM_A, HARBOR_ROOM);
    expect(allText(answer)).toMatch(/Subscribed/i);
    const subs = await bot.bot.digests.store.listSubscriptions({ orgId: TEAM_A });
    expect(subs.map((s) => [s.channelId, s.keyRef])).toEqual([[HARBOR_ROOM, keyRefOf(KEY.harbor)]]);
    // Saturday 07:00 CST: the worker posts the first tickets digest, read with the channel's own key.
    clock.set('2026-11-21T13:00:20Z');
    const tick = await bot.bot.digests.worker!.tick();
    expect(tick.outcomes).toEqual({ posted: 1 });
    const post = h.slack.calls.filter((c) => c.method === 'chat.postMessage').at(-1)!;
    expect(post.params.channel).toBe(HARBOR_ROOM);
    const posted = JSON.stringify(post.params);
    expect(posted).toContain('Harborview Hotel');
    expect(posted).not.toContain('Mercy');
    // Subscribed from another channel for this one: still this channel's key.
    await ask(`digest subscribe shortfall <#${HARBOR_ROOM}|harbor-room>`, TEAM_A, OPS);
    const again = await bot.bot.digests.store.listSubscriptions({ orgId: TEAM_A });
    expect(again.map((s) => s.keyRef)).toEqual([keyRefOf(KEY.harbor), keyRefOf(KEY.harbor)]);
  });

  it('a receivables digest is refused in a channel where accounting answers may not appear', async () => {
    const answer = await ask('digest subscribe receivables', TEAM_A, OPS);
    expect(answer.text).toMatch(/Accounting answers are not shown in this channel/);
  });

  it('the database holds every connected key sealed: no key in any encoding', async () => {
    await expectNoSecretInDump(bot.bot.database, Object.values(KEY), [/^\(T0\w+,\*,key_/m]);
  });

  it('help lists connect, disconnect, status and access', async () => {
    const text = allText(await ask('help', TEAM_A));
    for (const word of ['/linen connect', '/linen disconnect', '/linen status', '/linen access accounting'])
      expect(text).toContain(word);
  });

  it('connections survive a restart', async () => {
    await bot.stop();
    bot = await startWorkspaceBot(h, { LINEN_DATA_DIR: dataDir }, digests);
    expect(allText(await ask('tickets', TEAM_B, OPS, OWNER))).toContain('Harborview Hotel');
    expect(allText(await ask('status', TEAM_A))).toContain('`_ops`');
  });

  it('disconnect here removes the channel key; disconnect removes every key of the workspace only', async () => {
    expect((await ask('disconnect here', TEAM_A, HARBOR_ROOM)).text).toMatch(/Disconnected this channel's key/);
    expect(allText(await ask('tickets', TEAM_A, HARBOR_ROOM))).toContain('Mercy General Hospital');
    expect((await ask('disconnect', TEAM_A, OPS, MEMBER)).text).toMatch(/^Only workspace admins/);
    expect((await ask('disconnect', TEAM_A)).text).toMatch(/Disconnected every Linen key/);
    expect((await ask('signals', TEAM_A)).text).toMatch(/has not connected a Linen key yet/);
    expect(allText(await ask('tickets', TEAM_B, OPS, OWNER))).toContain('Harborview Hotel');
  });

  it('no key appears in any log line or message', () => {
    const everything = [...bot.logs, ...h.slack.posts.map((p) => JSON.stringify(p.body))].join('\n');
    for (const key of Object.values(KEY)) expect(everything).not.toContain(key);
    expect(h.problems).toEqual([]);
  });
});
