/**
 * "Add to Slack" as a browser does it, against the bot and the fake Slack: GET /slack/install (keeping the state
 * cookie it sets), follow the page's Add to Slack link to the authorize page (choosing the workspace with `team`),
 * follow its redirect back to /slack/oauth_redirect with the cookie. And Events API requests, signed as Slack signs
 * them, for a given workspace.
 */
import type { FakeSlack } from './slack-fake.ts';
import { commandBody, signature } from './slack-sign.ts';

export const STATE_COOKIE = 'slack-app-oauth-state';

export interface InstallResult {
  /** The status of the final /slack/oauth_redirect answer, and its page. */
  status: number;
  page: string;
  /** The Set-Cookie headers of /slack/install. */
  installCookies: string[];
}

function stateCookieOf(setCookies: string[]): string | undefined {
  const c = setCookies.find((h) => h.startsWith(`${STATE_COOKIE}=`));
  return c?.split(';')[0];
}

export async function installWorkspace(
  botOrigin: string,
  teamId: string,
  opts: { withCookie?: boolean } = {},
): Promise<InstallResult> {
  const start = await fetch(`${botOrigin}/slack/install`, { redirect: 'manual' });
  const installCookies = start.headers.getSetCookie();
  const page = await start.text();
  if (start.status !== 200) throw new Error(`/slack/install answered ${start.status}`);
  const link = /<a href="([^"]+)">/.exec(page)?.[1];
  if (!link) throw new Error('no Add to Slack link on the install page');
  const authorize = new URL(link);
  authorize.searchParams.set('team', teamId);
  const approved = await fetch(authorize, { redirect: 'manual' });
  const back = approved.headers.get('location');
  if (approved.status !== 302 || !back)
    throw new Error(`authorize answered ${approved.status}: ${await approved.text()}`);
  const cookie = stateCookieOf(installCookies);
  const headers: Record<string, string> = {};
  if (cookie && opts.withCookie !== false) headers.cookie = cookie;
  const done = await fetch(back, { redirect: 'manual', headers });
  return { status: done.status, page: await done.text(), installCookies };
}

/** Makes `teamId` a workspace that can install the app (named after it). */
export function addWorkspace(slack: FakeSlack, teamId: string, org?: { enterpriseId: string; orgWide: boolean }): void {
  slack.oauth.workspaces.set(teamId, { teamId, name: `Workspace ${teamId}`, ...(org ?? {}) });
}

/** Where a request comes from: a workspace, and for Enterprise Grid its organization and whether the install is org-wide. */
export interface From {
  teamId: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
}

/** Posts an Events API callback for the workspace, signed; returns the HTTP status. */
export async function postEvent(
  eventsUrl: string,
  secret: string,
  from: string | From,
  event: Record<string, unknown>,
): Promise<number> {
  const f: From = typeof from === 'string' ? { teamId: from } : from;
  const body = JSON.stringify({
    token: 'deprecated-verification-token',
    team_id: f.teamId,
    ...(f.enterpriseId ? { enterprise_id: f.enterpriseId } : {}),
    authorizations: [
      {
        enterprise_id: f.enterpriseId ?? null,
        team_id: f.isEnterpriseInstall ? null : f.teamId,
        is_enterprise_install: f.isEnterpriseInstall === true,
        is_bot: true,
      },
    ],
    api_app_id: 'A0LINEN',
    event: { event_ts: '1700000003.000100', ...event },
    type: 'event_callback',
    event_id: `Ev${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    is_ext_shared_channel: false,
  });
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(eventsUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': signature(secret, ts, body),
    },
    body,
  });
  await res.text();
  return res.status;
}

/** A slash command from a workspace, signed: `/linen <text>` unless `command` says otherwise. */
export async function postCommand(
  eventsUrl: string,
  secret: string,
  f: From & { text: string; responseUrl: string; command?: string },
): Promise<number> {
  const form = new URLSearchParams(commandBody({ text: f.text, responseUrl: f.responseUrl, command: f.command }));
  form.set('team_id', f.teamId);
  if (f.enterpriseId) form.set('enterprise_id', f.enterpriseId);
  form.set('is_enterprise_install', String(f.isEnterpriseInstall === true));
  const body = form.toString();
  const ts = Math.floor(Date.now() / 1000);
  const res = await fetch(eventsUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': signature(secret, ts, body),
    },
    body,
  });
  await res.text();
  return res.status;
}
