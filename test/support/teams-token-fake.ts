/**
 * Microsoft Entra's token endpoint for a bot, on loopback: `POST /{tenant}/oauth2/v2.0/token` with the client
 * credentials grant (form body: grant_type, client_id, client_secret, scope `https://api.botframework.com/.default`),
 * as the bot asks it for the bearer token it sends to the Bot Connector. Its origin is `TEAMS_LOGIN_URL`.
 *
 * It checks the tenant, the client id and the secret, answers as Entra does (`token_type`, `expires_in`,
 * `ext_expires_in`, `access_token`; errors with `error`, `error_description` and `error_codes`) and issues access
 * tokens that are JWTs with Entra's claims (`aud`, `iss`, `appid`, `tid`, ...), since the SDK decodes them. The fake
 * Bot Connector accepts only tokens that `verify` vouches for.
 */
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { sendJson, serveOnLoopback } from './loopback-http.ts';
import { decodeJwt, epochSeconds, type JwtClaims, signJwt, verifyRs256 } from './teams-jwt.ts';

/** The scope a bot asks for to call the Bot Connector. */
export const BOT_FRAMEWORK_SCOPE = 'https://api.botframework.com/.default';
/** The audience of the tokens issued for that scope. */
export const BOT_FRAMEWORK_AUDIENCE = 'https://api.botframework.com';

export interface TokenRequest {
  tenant: string;
  grantType: string | undefined;
  clientId: string | undefined;
  scope: string | undefined;
  /** Whether a client_secret was sent and was the right one (the secret itself is not kept). */
  secretMatched: boolean;
  status: number;
}

export interface TeamsTokenFake {
  /** `TEAMS_LOGIN_URL`: the origin the bot asks `{origin}/{tenant}/oauth2/v2.0/token`. */
  origin: string;
  /** `TEAMS_TENANT_ID`: the bot registration's home tenant. */
  tenantId: string;
  /** `TEAMS_CLIENT_ID`. */
  clientId: string;
  /** `TEAMS_CLIENT_SECRET`. */
  clientSecret: string;
  /** `{origin}/{tenantId}/oauth2/v2.0/token` */
  tokenUrl: string;
  /** Lifetime of the tokens issued from now on, in seconds (Entra's are about an hour). */
  expiresIn: number;
  /** Every request, in order. */
  requests: TokenRequest[];
  /** Every access token issued, in order. */
  issued: string[];
  /** The next `count` requests fail with `status` (500 server_error, 503 temporarily_unavailable). */
  failNext(count: number, status?: 500 | 503): void;
  /** The claims of an unexpired token this fake issued for the Bot Framework; undefined for any other token. */
  verify(token: string): JwtClaims | undefined;
  close(): Promise<void>;
}

/** Entra's error body: the OAuth error, an AADSTS description with the ids support asks for, the numeric codes. */
function entraError(error: string, code: number, description: string) {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = new Date()
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
  return {
    error,
    error_description: `AADSTS${code}: ${description} Trace ID: ${traceId} Correlation ID: ${correlationId} Timestamp: ${timestamp}`,
    error_codes: [code],
    timestamp,
    trace_id: traceId,
    correlation_id: correlationId,
    error_uri: `https://login.microsoftonline.com/error?code=${code}`,
  };
}

export async function startTeamsTokenFake(
  options: { clientId?: string; tenantId?: string } = {},
): Promise<TeamsTokenFake> {
  const clientId = options.clientId ?? randomUUID();
  const tenantId = options.tenantId ?? randomUUID();
  // Entra client secrets are 40 characters with a `~` after the first three.
  const clientSecret = `${randomBytes(2).toString('hex').slice(0, 3)}8Q~${randomBytes(27).toString('base64url').slice(0, 34)}`;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(20).toString('base64url');
  const requests: TokenRequest[] = [];
  const issued: string[] = [];
  const failures: number[] = [];

  const server = await serveOnLoopback((req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
    if (!m || req.method !== 'POST') return sendJson(res, 404, { error: 'not found' });
    const tenant = decodeURIComponent(m[1]!);
    const form = new URLSearchParams(
      req.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ? body.toString('utf8') : '',
    );
    const record: TokenRequest = {
      tenant,
      grantType: form.get('grant_type') ?? undefined,
      clientId: form.get('client_id') ?? undefined,
      scope: form.get('scope') ?? undefined,
      secretMatched: form.get('client_secret') === clientSecret,
      status: 200,
    };
    requests.push(record);
    const answer = (status: number, payload: unknown) => {
      record.status = status;
      sendJson(res, status, payload, { 'cache-control': 'no-store, no-cache' });
    };

    const failure = failures.shift();
    if (failure === 503)
      return answer(503, { error: 'temporarily_unavailable', error_description: 'Try again later.' });
    if (failure === 500) return answer(500, { error: 'server_error', error_description: 'The token service failed.' });
    if (tenant !== tenantId) return answer(400, entraError('invalid_request', 90002, `Tenant '${tenant}' not found.`));
    if (record.grantType !== 'client_credentials')
      return answer(
        400,
        entraError(
          'unsupported_grant_type',
          70003,
          `The app requested an unsupported grant type '${record.grantType}'.`,
        ),
      );
    if (record.clientId !== clientId)
      return answer(
        400,
        entraError(
          'unauthorized_client',
          700016,
          `Application with identifier '${record.clientId}' was not found in the directory '${tenant}'.`,
        ),
      );
    if (!form.has('client_secret'))
      return answer(
        401,
        entraError(
          'invalid_client',
          7000216,
          "'client_assertion', 'client_secret' or 'request' is required for the 'client_credentials' grant type.",
        ),
      );
    if (!record.secretMatched)
      return answer(
        401,
        entraError(
          'invalid_client',
          7000215,
          `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${clientId}'.`,
        ),
      );
    if (record.scope !== BOT_FRAMEWORK_SCOPE)
      return answer(
        400,
        entraError('invalid_scope', 70011, `The provided value for the input parameter 'scope' is not valid.`),
      );

    const now = epochSeconds(Date.now());
    const lifetime = fake.expiresIn;
    // The claims of an Entra v1 app-only token for the Bot Framework.
    const claims: JwtClaims = {
      aud: BOT_FRAMEWORK_AUDIENCE,
      iss: `https://sts.windows.net/${tenantId}/`,
      iat: now,
      nbf: now,
      exp: now + lifetime,
      aio: randomBytes(24).toString('base64url'),
      appid: clientId,
      appidacr: '1',
      idp: `https://sts.windows.net/${tenantId}/`,
      idtyp: 'app',
      oid: randomUUID(),
      sub: randomUUID(),
      tid: tenantId,
      uti: randomBytes(16).toString('base64url'),
      ver: '1.0',
    };
    const accessToken = signJwt({ alg: 'RS256', kid, x5t: kid }, claims, privateKey);
    issued.push(accessToken);
    answer(200, { token_type: 'Bearer', expires_in: lifetime, ext_expires_in: lifetime, access_token: accessToken });
  });

  const fake: TeamsTokenFake = {
    origin: server.origin,
    tenantId,
    clientId,
    clientSecret,
    tokenUrl: `${server.origin}/${tenantId}/oauth2/v2.0/token`,
    expiresIn: 3599,
    requests,
    issued,
    failNext(count, status = 503) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    verify(token) {
      if (!verifyRs256(token, publicKey)) return undefined;
      const claims = decodeJwt(token)?.claims;
      if (!claims || claims.aud !== BOT_FRAMEWORK_AUDIENCE || claims.appid !== clientId) return undefined;
      if (typeof claims.exp !== 'number' || claims.exp <= epochSeconds(Date.now())) return undefined;
      return claims;
    },
    close: server.close,
  };
  return fake;
}
