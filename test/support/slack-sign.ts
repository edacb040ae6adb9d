/**
 * Requests to the bot exactly as Slack sends them: form-encoded bodies signed with the signing secret
 * (`v0=` + HMAC-SHA256 of `v0:<timestamp>:<body>`, headers x-slack-signature and x-slack-request-timestamp).
 */
import { createHmac } from 'node:crypto';

export function signature(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

export interface SignedPost {
  /** Seconds since the epoch to sign with (default now). */
  timestamp?: number;
  /** Leave the signature headers out. */
  unsigned?: boolean;
  /** Sign with this secret instead. */
  secret?: string;
}

export async function postSigned(
  url: string,
  secret: string,
  body: string,
  opts: SignedPost = {},
): Promise<{ status: number; body: string; ms: number }> {
  const ts = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (!opts.unsigned) {
    headers['x-slack-request-timestamp'] = String(ts);
    headers['x-slack-signature'] = signature(opts.secret ?? secret, ts, body);
  }
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, body: text, ms: performance.now() - started };
}

export interface CommandFields {
  text: string;
  responseUrl: string;
  userId?: string;
  channelId?: string;
  command?: string;
  teamId?: string;
  /** The workspace's Enterprise Grid organization. */
  enterpriseId?: string;
  triggerId?: string;
}

/** The form body of a slash command, with the fields Slack sends. */
export function commandBody(f: CommandFields): string {
  return new URLSearchParams({
    token: 'deprecated-verification-token',
    team_id: f.teamId ?? 'T0LINEN',
    team_domain: 'linen-test',
    channel_id: f.channelId ?? 'C0LINEN',
    channel_name: 'linen-ops',
    user_id: f.userId ?? 'U0COORD',
    user_name: 'coordinator',
    command: f.command ?? '/linen',
    text: f.text,
    api_app_id: 'A0LINEN',
    ...(f.enterpriseId ? { enterprise_id: f.enterpriseId, enterprise_name: 'Grid' } : {}),
    is_enterprise_install: 'false',
    response_url: f.responseUrl,
    trigger_id: f.triggerId ?? '1.2.3',
  }).toString();
}

export interface ViewSubmission {
  /** The view as opened (its callback_id, private_metadata). */
  view: Record<string, any>;
  /** `block_id -> action_id -> value` as Slack sends the state of inputs. */
  values: Record<string, Record<string, unknown>>;
  userId: string;
  teamId: string;
  enterpriseId?: string | undefined;
}

/** The form body of a modal's view_submission payload. */
export function viewSubmissionBody(s: ViewSubmission): string {
  const payload = {
    type: 'view_submission',
    team: { id: s.teamId, domain: 'linen-test', ...(s.enterpriseId ? { enterprise_id: s.enterpriseId } : {}) },
    user: { id: s.userId, username: 'someone', name: 'someone', team_id: s.teamId },
    api_app_id: 'A0LINEN',
    token: 'deprecated-verification-token',
    trigger_id: '1.2.5',
    view: {
      id: 'V0SUBMIT',
      team_id: s.teamId,
      type: 'modal',
      callback_id: s.view.callback_id,
      private_metadata: s.view.private_metadata ?? '',
      blocks: s.view.blocks ?? [],
      state: { values: s.values },
      hash: '1700000000.abcdef',
      title: s.view.title,
      app_id: 'A0LINEN',
      bot_id: 'B0BOT',
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: s.enterpriseId ? { id: s.enterpriseId, name: 'Grid' } : null,
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface ButtonClick {
  actionId: string;
  value: string;
  blockId?: string;
  responseUrl: string;
  userId?: string;
  teamId?: string;
  channelId?: string;
}

/** The form body of a block_actions payload for a button in an ephemeral message. */
export function blockActionsBody(c: ButtonClick): string {
  const payload = {
    type: 'block_actions',
    user: { id: c.userId ?? 'U0COORD', username: 'coordinator', name: 'coordinator', team_id: c.teamId ?? 'T0LINEN' },
    api_app_id: 'A0LINEN',
    token: 'deprecated-verification-token',
    container: {
      type: 'message',
      message_ts: '1700000000.000100',
      channel_id: c.channelId ?? 'C0LINEN',
      is_ephemeral: true,
    },
    trigger_id: '1.2.4',
    team: { id: c.teamId ?? 'T0LINEN', domain: 'linen-test' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: c.channelId ?? 'C0LINEN', name: 'linen-ops' },
    state: { values: {} },
    response_url: c.responseUrl,
    actions: [
      {
        action_id: c.actionId,
        block_id: c.blockId ?? 'b1',
        text: { type: 'plain_text', text: 'x', emoji: true },
        value: c.value,
        type: 'button',
        action_ts: '1700000001.000200',
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface ViewClick {
  /** The Home tab's view as the bot published it (its callback_id, private_metadata and blocks). */
  view: Record<string, any>;
  userId: string;
  teamId?: string | undefined;
  /** A button (its value) or a multi-select menu (the values chosen in it). */
  action:
    | { actionId: string; type: 'button'; value: string }
    | { actionId: string; type: 'multi_static_select'; values: readonly string[] };
}

/** The form body of a block_actions payload for a click on a Home tab: no channel, and no response_url. */
export function viewActionsBody(c: ViewClick): string {
  const teamId = c.teamId ?? 'T0LINEN';
  const a = c.action;
  const payload = {
    type: 'block_actions',
    user: { id: c.userId, username: 'someone', name: 'someone', team_id: teamId },
    api_app_id: 'A0LINEN',
    token: 'deprecated-verification-token',
    container: { type: 'view', view_id: 'VH0HOME' },
    trigger_id: '1.2.6',
    team: { id: teamId, domain: 'linen-test' },
    enterprise: null,
    is_enterprise_install: false,
    view: {
      id: 'VH0HOME',
      team_id: teamId,
      type: 'home',
      callback_id: c.view.callback_id ?? '',
      private_metadata: c.view.private_metadata ?? '',
      blocks: c.view.blocks ?? [],
      state: { values: {} },
      hash: '1700000000.home',
      app_id: 'A0LINEN',
      app_installed_team_id: teamId,
      bot_id: 'B0BOT',
    },
    actions: [
      a.type === 'button'
        ? {
            action_id: a.actionId,
            block_id: 'b1',
            text: { type: 'plain_text', text: 'x', emoji: true },
            value: a.value,
            type: 'button',
            action_ts: '1700000001.000300',
          }
        : {
            action_id: a.actionId,
            block_id: 'b1',
            type: 'multi_static_select',
            selected_options: a.values.map((value) => ({ text: { type: 'plain_text', text: value }, value })),
            action_ts: '1700000001.000300',
          },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
