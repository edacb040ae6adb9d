/**
 * The bot in multi-workspace mode for tests: each team's bot token comes from `authorize` (as an installation
 * would give it), Linen keys are connected through the `/linen connect` modal, and the fake Slack knows an admin
 * and a member. `connectThroughModal` types the command, takes the view Slack was asked to open, fills it in and
 * submits it, signed, returning the bot's acknowledgement (`response_action`).
 */
import { randomBytes } from 'node:crypto';
import type { Authorize } from '@slack/bolt';
import { SecretBox } from '../../base/secrets/crypto.ts';
import type { StartOptions } from '../../service/start.ts';
import type { BotUnderTest, Harness } from './slack-harness.ts';
import { SIGNING_SECRET } from './slack-harness.ts';
import { postSigned, viewSubmissionBody } from './slack-sign.ts';

export const TEAM_A = 'T0AAAAAAA';
export const TEAM_B = 'T0BBBBBBB';
export const ADMIN = 'U0ADMIN01';
export const OWNER = 'U0OWNER01';
export const MEMBER = 'U0MEMBER1';

/** The bot token of a team, as its installation would hold it. */
export const botTokenOf = (teamId: string) => `xoxb-${teamId}-workspace-token`;

const authorize: Authorize<boolean> = async (source) => ({
  botToken: botTokenOf(source.teamId ?? 'none'),
  botId: 'B0BOT',
  botUserId: 'U0BOT',
  teamId: source.teamId,
});

/** One key-encryption key per test file: the stored keys must survive a restart with the same one. */
export const testSecrets = new SecretBox({ current: randomBytes(32).toString('base64') });

export function knowUsers(h: Harness): void {
  h.slack.users.set(ADMIN, { isAdmin: true, tz: 'America/Chicago' });
  h.slack.users.set(OWNER, { isOwner: true });
  h.slack.users.set(MEMBER, {});
}

/** `digests`: the worker's clock and settings (default: no worker). */
export function startWorkspaceBot(
  h: Harness,
  env: Record<string, string | undefined> = {},
  digests: StartOptions['digests'] = { worker: false },
): Promise<BotUnderTest> {
  return h.startBotWith(
    { LINEN_API_KEY: undefined, ...env },
    { start: { multiWorkspace: { authorize, secrets: testSecrets }, digests } },
  );
}

export interface ConnectInput {
  teamId: string;
  /** The workspace's Enterprise Grid organization. */
  enterpriseId?: string;
  apiKey: string;
  userId?: string;
  channelId?: string;
  /** Default: the first address the modal offers. */
  baseUrl?: string;
  timeZone?: string;
  /** `'channel'`: this channel only; default: the workspace default. */
  place?: 'default' | 'channel';
}

/** `/linen connect`, the modal Slack opened, filled in and submitted; the acknowledgement's JSON. */
export async function connectThroughModal(
  h: Harness,
  bot: BotUnderTest,
  input: ConnectInput,
): Promise<Record<string, any>> {
  const triggerId = `trigger-${randomBytes(4).toString('hex')}`;
  const userId = input.userId ?? ADMIN;
  const r = await bot.command('connect', {
    teamId: input.teamId,
    enterpriseId: input.enterpriseId,
    userId,
    channelId: input.channelId,
    triggerId,
  });
  if (r.status !== 200) throw new Error(`ack ${r.status}`);
  const view = await h.slack.waitForView(triggerId);
  return submitConnect(bot, view, input);
}

/** Submits a connect view as the user would have filled it. */
export async function submitConnect(
  bot: BotUnderTest,
  view: Record<string, any>,
  input: ConnectInput,
): Promise<Record<string, any>> {
  const blocks = view.blocks as { block_id: string; element: Record<string, any> }[];
  const placeBlock = blocks.find((b) => b.block_id === 'place');
  const urlBlock = blocks.find((b) => b.block_id === 'base_url');
  const baseUrl = input.baseUrl ?? urlBlock?.element.initial_option?.value;
  const tzBlock = blocks.find((b) => b.block_id === 'timezone');
  const values: Record<string, Record<string, unknown>> = {
    api_key: { api_key: { type: 'plain_text_input', value: input.apiKey } },
    base_url: { base_url: { type: 'static_select', selected_option: baseUrl ? { value: baseUrl } : null } },
    timezone: { timezone: { type: 'plain_text_input', value: input.timeZone ?? tzBlock?.element.initial_value } },
  };
  if (placeBlock) {
    const options = placeBlock.element.options as { value: string }[];
    values.place = {
      place: { type: 'radio_buttons', selected_option: input.place === 'channel' ? options[1] : options[0] },
    };
  }
  const body = viewSubmissionBody({
    view,
    values,
    userId: input.userId ?? ADMIN,
    teamId: input.teamId,
    enterpriseId: input.enterpriseId,
  });
  const res = await postSigned(bot.url, SIGNING_SECRET, body);
  if (res.status !== 200) throw new Error(`view_submission ack ${res.status}: ${res.body}`);
  return res.body ? (JSON.parse(res.body) as Record<string, any>) : {};
}
