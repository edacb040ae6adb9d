/**
 * The Home tab with many workspaces (Add to Slack), through the bot's real HTTP receiver: each workspace's home is
 * built with its own connected key and published with its own bot token, and nothing of another workspace's key
 * shows; a workspace that has not connected is told how to; the overdue invoices and orders running out appear only
 * once accounting answers are allowed in direct messages (allowing them in a channel is not enough: the home is the
 * person's own); what a person follows is kept per workspace.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYS } from '../../support/sandbox-http.ts';
import { allText, type BotUnderTest, buttons, type Harness, startHarness } from '../../support/slack-harness.ts';
import {
  ADMIN,
  botTokenOf,
  connectThroughModal,
  knowUsers,
  startWorkspaceBot,
  TEAM_A,
  TEAM_B,
} from '../../support/workspace-bot.ts';

const TEAM_C = 'T0CCCCCCC';
const FINANCE = 'C0FIN0001';

let h: Harness;
let bot: BotUnderTest;

beforeAll(async () => {
  h = await startHarness();
  knowUsers(h);
  bot = await startWorkspaceBot(h);
  expect((await connectThroughModal(h, bot, { teamId: TEAM_A, apiKey: KEYS.all })).response_action).toBe('update');
  expect((await connectThroughModal(h, bot, { teamId: TEAM_B, apiKey: KEYS.hotel })).response_action).toBe('update');
}, 90_000);
afterAll(() => h?.close());

type View = Record<string, any>;
const textOf = (view: View) => allText({ text: '', blocks: view.blocks });

async function openHome(userId: string, teamId: string) {
  const since = h.slack.published.length;
  expect(await bot.openHome(userId, { teamId })).toBe(200);
  return h.slack.waitForPublish(userId, () => true, 20_000, since);
}

describe('the Home tab in each workspace', () => {
  it('is built with the workspace’s own key and published with its own token: nothing of another workspace shows', async () => {
    const harbor = await openHome('U0HARBOR1', TEAM_B);
    expect(harbor.authorization).toBe(`Bearer ${botTokenOf(TEAM_B)}`);
    const text = textOf(harbor.view);
    expect(text).toContain('Your Linen home');
    expect(text).toContain('Harborview Hotel');
    // Not in the text, nor among the menu's customers.
    expect(text).not.toMatch(/Mercy|St\. Luke|Lakeshore/);

    const all = await openHome('U0ALL0001', TEAM_A);
    expect(all.authorization).toBe(`Bearer ${botTokenOf(TEAM_A)}`);
    expect(textOf(all.view)).toContain('Mercy General Hospital');
    expect(h.problems).toEqual([]);
  });

  it('says how to connect in a workspace that has not, with Refresh', async () => {
    const none = await openHome('U0NONE001', TEAM_C);
    const text = textOf(none.view);
    expect(text).toContain(
      'This workspace has not connected a Linen key yet: a workspace admin can type /linen connect',
    );
    expect(buttons({ blocks: none.view.blocks }).map((b) => b.text)).toEqual(['Refresh']);
    expect(h.problems).toEqual([]);
  });

  it('shows invoices and orders running out only once accounting answers are allowed in direct messages', async () => {
    const before = textOf((await openHome('U0ACCT001', TEAM_A)).view);
    expect(before).not.toContain('Overdue invoices');
    expect(before).toContain(
      'Accounting answers are not shown in direct messages here; a workspace admin can allow them with /linen access accounting dms on.',
    );
    // Allowed in a channel: the home, in the person's direct messages, still shows none.
    await bot.ask('access accounting allow', { teamId: TEAM_A, channelId: FINANCE, userId: ADMIN });
    expect(textOf((await openHome('U0ACCT001', TEAM_A)).view)).not.toContain('Overdue invoices');

    await bot.ask('access accounting dms on', { teamId: TEAM_A, channelId: FINANCE, userId: ADMIN });
    const after = textOf((await openHome('U0ACCT001', TEAM_A)).view);
    expect(after).toContain('Overdue invoices');
    expect(after).toContain('Purchase orders running out');
    // Another workspace's rule is its own.
    expect(textOf((await openHome('U0HARBOR1', TEAM_B)).view)).not.toContain('Overdue invoices');
  });

  it('keeps what a person follows per workspace', async () => {
    const harbor = h.sandbox.data.customers.find((c) => c.name === 'Harborview Hotel')!;
    const home = await openHome('U0SAME001', TEAM_B);
    const since = h.slack.published.length;
    expect(
      await bot.clickHome({
        view: home.view,
        userId: 'U0SAME001',
        teamId: TEAM_B,
        action: { actionId: 'linen_menu:home follow', type: 'multi_static_select', values: [harbor.id] },
      }),
    ).toBe(200);
    const followed = await h.slack.waitForPublish('U0SAME001', (v) => textOf(v).includes('Following'), 20_000, since);
    expect(followed.authorization).toBe(`Bearer ${botTokenOf(TEAM_B)}`);
    expect(textOf(followed.view)).toContain('following Harborview Hotel');
    // The same user id in another workspace follows what it chose there: nothing yet.
    expect(textOf((await openHome('U0SAME001', TEAM_A)).view)).toContain('following every customer');
    expect(h.problems).toEqual([]);
  });
});
