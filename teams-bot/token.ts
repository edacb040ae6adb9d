/**
 * The bot's own token for the Bot Connector: asked of Entra ID with the client credentials
 * (`{TEAMS_LOGIN_URL}/{TEAMS_TENANT_ID}/oauth2/v2.0/token`, scope `https://api.botframework.com/.default`) and kept
 * until five minutes before it expires; concurrent askers share one request. The SDK's own client-secret flow
 * refuses an authority that is not https, and asks for a token at every call it makes: this serves both the SDK
 * (its `token` option) and the bot's own Connector clients (digests, PDFs).
 */
import { request } from 'undici';
import type { TeamsConfig } from './config.ts';

export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';

/** A token is renewed this long before it expires. */
const EARLY_MS = 5 * 60_000;

export class TokenError extends Error {
  override name = 'TokenError';
}

export interface BotTokens {
  /** A valid access token (a JWT). */
  get(): Promise<string>;
}

export function botTokens(
  config: Pick<TeamsConfig, 'clientId' | 'clientSecret' | 'tenantId' | 'loginUrl'>,
  now: () => number = Date.now,
): BotTokens {
  let kept: { token: string; until: number } | undefined;
  let asking: Promise<string> | undefined;
  const ask = async (): Promise<string> => {
    const url = `${config.loginUrl}/${encodeURIComponent(config.tenantId)}/oauth2/v2.0/token`;
    const res = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: config.clientId,
        client_secret: config.clientSecret,
        scope: BOT_FRAMEWORK_SCOPE,
      }).toString(),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const body = (await res.body.json().catch(() => null)) as {
      access_token?: unknown;
      expires_in?: unknown;
      error?: unknown;
    } | null;
    if (res.statusCode !== 200 || typeof body?.access_token !== 'string') {
      // Entra's error code says what is wrong (invalid_client: a wrong secret); its description may quote the request.
      const code = typeof body?.error === 'string' ? ` (${body.error})` : '';
      throw new TokenError(`Entra ID refused the bot's token request: HTTP ${res.statusCode}${code}`);
    }
    const seconds = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in ?? 3600);
    kept = { token: body.access_token, until: now() + Math.max(60, seconds) * 1000 - EARLY_MS };
    return body.access_token;
  };
  return {
    async get() {
      if (kept && now() < kept.until) return kept.token;
      asking ??= ask().finally(() => {
        asking = undefined;
      });
      return asking;
    },
  };
}
