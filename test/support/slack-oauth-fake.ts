/**
 * Slack's side of "Add to Slack", for the fake Slack: the authorize page (the installer approves at once and is
 * sent back to the app's redirect URL with a one-time code and the state), oauth.v2.access (the code exchange, and
 * with token rotation the refresh grant, which retires the old token and refresh token), and auth.test per issued
 * token. Each workspace installs with its own tokens.
 */
import { randomBytes } from 'node:crypto';

export interface FakeWorkspace {
  teamId: string;
  name: string;
  /** Set for a workspace of an Enterprise Grid organization. */
  enterpriseId?: string;
  /** An org-wide install: the app is installed for the whole organization (`enterpriseId`), not this workspace. */
  orgWide?: boolean;
}

interface Issued {
  teamId: string;
  /** Retired by a refresh or a revocation. */
  live: boolean;
}

export interface OAuthFake {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The redirect URL configured in the app (where the authorize page sends the installer back). */
  redirectUrl: string | null;
  /** Token rotation: issued bot tokens expire after this many seconds (null: rotation off, tokens never expire). */
  expiresIn: number | null;
  /** Workspaces that can install, by team id. */
  readonly workspaces: Map<string, FakeWorkspace>;
  /** Every bot token and refresh token issued, in order, with its workspace. */
  readonly botTokens: string[];
  readonly refreshTokens: string[];
  /** Retires every token of the workspace (what an uninstall does on Slack's side). */
  revoke(teamId: string): void;
  /** The authorize page: the redirect it answers (or a 400 with the reason). */
  authorize(url: URL): { status: number; location?: string; error?: string };
  /** oauth.v2.access with these form parameters. */
  access(params: Record<string, unknown>): Record<string, unknown>;
  /** auth.test for a token this fake issued; undefined for a token it does not know. */
  authTest(token: string): Record<string, unknown> | undefined;
}

const secret = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

export function createOAuthFake(): OAuthFake {
  const workspaces = new Map<string, FakeWorkspace>();
  const codes = new Map<string, { teamId: string; redirectUri: string; scope: string }>();
  const tokens = new Map<string, Issued>();
  const refreshes = new Map<string, Issued>();
  const botTokens: string[] = [];
  const refreshTokens: string[] = [];

  const fake: OAuthFake = {
    clientId: '1111111111.2222222222',
    clientSecret: 'c0ffee00c0ffee00c0ffee00c0ffee00',
    redirectUrl: null,
    expiresIn: 43_200,
    workspaces,
    botTokens,
    refreshTokens,
    revoke(teamId) {
      for (const m of [tokens, refreshes]) for (const [, t] of m) if (t.teamId === teamId) t.live = false;
    },
    authorize(url) {
      const q = url.searchParams;
      if (q.get('client_id') !== fake.clientId) return { status: 400, error: 'invalid_client_id' };
      const redirectUri = q.get('redirect_uri') ?? fake.redirectUrl;
      if (!redirectUri) return { status: 400, error: 'no_redirect_uri' };
      // The `team` parameter picks the workspace, as the workspace menu of the real page does.
      const teamId = q.get('team') ?? [...workspaces.keys()][0];
      if (!teamId || !workspaces.has(teamId)) return { status: 400, error: 'unknown_team' };
      const code = secret('code-');
      codes.set(code, { teamId, redirectUri, scope: q.get('scope') ?? '' });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      const state = q.get('state');
      if (state !== null) back.searchParams.set('state', state);
      return { status: 302, location: back.href };
    },
    access(params) {
      if (params.client_id !== fake.clientId || params.client_secret !== fake.clientSecret)
        return { ok: false, error: 'invalid_client' };
      if (params.grant_type === 'refresh_token') {
        const old = refreshes.get(String(params.refresh_token));
        if (!old?.live) return { ok: false, error: 'invalid_refresh_token' };
        old.live = false;
        for (const [, t] of tokens) if (t.teamId === old.teamId) t.live = false;
        const teamId = old.teamId;
        const issued = issue(teamId);
        return {
          ok: true,
          token_type: 'bot',
          access_token: issued.token,
          refresh_token: issued.refresh,
          expires_in: fake.expiresIn,
          team: { id: teamId, name: workspaces.get(teamId)!.name },
        };
      }
      const grant = codes.get(String(params.code));
      codes.delete(String(params.code));
      if (!grant) return { ok: false, error: 'invalid_code' };
      const { teamId, scope } = grant;
      const ws = workspaces.get(teamId)!;
      const issued = issue(teamId);
      return {
        ok: true,
        app_id: 'A0LINEN',
        authed_user: { id: `U0ADMIN${teamId}` },
        scope,
        token_type: 'bot',
        access_token: issued.token,
        bot_user_id: `U0BOT${teamId}`,
        team: ws.orgWide ? null : { id: teamId, name: ws.name },
        enterprise: ws.enterpriseId ? { id: ws.enterpriseId, name: 'Grid' } : null,
        is_enterprise_install: ws.orgWide === true,
        ...(fake.expiresIn !== null ? { refresh_token: issued.refresh, expires_in: fake.expiresIn } : {}),
      };
    },
    authTest(token) {
      const t = tokens.get(token);
      if (!t) return undefined;
      if (!t.live) return { ok: false, error: fake.expiresIn !== null ? 'token_expired' : 'token_revoked' };
      const ws = workspaces.get(t.teamId)!;
      return {
        ok: true,
        url: ws.orgWide
          ? 'https://grid.enterprise.slack.com/'
          : `https://${ws.name.toLowerCase().replace(/\W+/g, '-')}.slack.com/`,
        team: ws.name,
        team_id: ws.teamId,
        user_id: `U0BOT${ws.teamId}`,
        bot_id: `B0BOT${ws.teamId}`,
        ...(ws.enterpriseId ? { enterprise_id: ws.enterpriseId } : {}),
      };
    },
  };

  function issue(teamId: string): { token: string; refresh: string } {
    const token = secret(fake.expiresIn !== null ? 'xoxe.xoxb-1-' : 'xoxb-1-');
    const refresh = secret('xoxe-1-');
    tokens.set(token, { teamId, live: true });
    refreshes.set(refresh, { teamId, live: true });
    botTokens.push(token);
    refreshTokens.push(refresh);
    return { token, refresh };
  }

  return fake;
}
