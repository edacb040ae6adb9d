/**
 * The Bot Connector's side of inbound authentication, on loopback: the OpenID metadata document
 * (`/v1/.well-known/openidconfiguration`) and its signing keys (`/v1/.well-known/keys`), shaped as
 * login.botframework.com serves them, and tokens signed the way the Bot Connector signs the requests it posts to a
 * bot's `/api/messages`.
 *
 * The Teams SDK 2.0 never reads `jwks_uri`: it derives the keys address from the metadata URL by replacing
 * `/openidconfiguration` with `/keys`, so the keys sit beside the document, as at Microsoft, and `jwks_uri` names the
 * same address.
 *
 * Besides a good token, `refusedToken` makes each token a bot must refuse with 401 without acting on it.
 */
import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { sendJson, serveOnLoopback } from './loopback-http.ts';
import { epochSeconds, type JwtClaims, type JwtHeader, signJwt } from './teams-jwt.ts';

/** The issuer of every Bot Connector token (the SDK's `PUBLIC.tokenIssuer`). */
export const BOT_FRAMEWORK_ISSUER = 'https://api.botframework.com';

export interface ConnectorTokenOptions {
  /** The bot's client id (`TEAMS_CLIENT_ID`): the token's audience. */
  appId: string;
  /** The `serviceUrl` of the activity the token comes with. */
  serviceUrl: string;
  /** Seconds from now until `exp` (default one hour, as the Bot Connector's are); negative for a token in the past. */
  expiresInSeconds?: number;
}

/** Every way a token can be wrong that the bot must refuse with 401, each with what is wrong as a test name. */
export const REFUSED_TOKENS = {
  'wrong-audience': 'an audience other than the bot',
  expired: 'expired beyond the 5 minutes of clock skew',
  'not-yet-valid': 'not valid until beyond the 5 minutes of clock skew',
  'foreign-key': 'signed by a key that is not in the JWKS',
  'forged-kid': 'signed by another key under a trusted kid',
  'serviceurl-mismatch': "a serviceurl other than the activity's",
  'no-serviceurl': 'no serviceurl claim',
  'wrong-issuer': 'an issuer other than the Bot Framework',
  'no-issuer': 'no issuer claim',
  hs256: 'HS256 keyed with the public key',
  'alg-none': 'alg none (unsigned)',
  'not-a-jwt': 'not a JWT',
} as const;

export type RefusedTokenKind = keyof typeof REFUSED_TOKENS;

export interface TeamsOpenIdFake {
  origin: string;
  /** `TEAMS_OPENID_METADATA_URL`: the cloud's `openIdMetadataUrl`. */
  metadataUrl: string;
  /** Where the keys are; the metadata's `jwks_uri`. */
  keysUrl: string;
  /** The path of every request served, in order (the SDK fetches the keys, not the document). */
  requests: string[];
  /** A token as the Bot Connector sends it with an activity. */
  connectorToken(options: ConnectorTokenOptions): string;
  /** A token the bot must refuse, wrong in that one way and right in every other. */
  refusedToken(kind: RefusedTokenKind, options: ConnectorTokenOptions): string;
  close(): Promise<void>;
}

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

function newSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // Microsoft's kids are base64url SHA-1 certificate thumbprints (27 characters), the same as x5t.
  return { kid: randomBytes(20).toString('base64url'), privateKey, publicKey };
}

export async function startTeamsOpenIdFake(): Promise<TeamsOpenIdFake> {
  const trusted = newSigningKey();
  // Never published: what an attacker signs with.
  const foreign = newSigningKey();
  const requests: string[] = [];
  let keysUrl = '';

  const server = await serveOnLoopback((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (req.method !== 'GET') return sendJson(res, 405, { error: 'method not allowed' });
    if (path === '/v1/.well-known/openidconfiguration') {
      return sendJson(res, 200, {
        issuer: BOT_FRAMEWORK_ISSUER,
        authorization_endpoint: 'https://invalid.botframework.com',
        jwks_uri: keysUrl,
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['private_key_jwt'],
      });
    }
    if (path === '/v1/.well-known/keys') {
      const jwk = trusted.publicKey.export({ format: 'jwk' });
      // `endorsements` names the channels a key may sign for; Microsoft adds it to each JWK.
      return sendJson(res, 200, {
        keys: [
          { kty: 'RSA', use: 'sig', kid: trusted.kid, x5t: trusted.kid, n: jwk.n, e: jwk.e, endorsements: ['msteams'] },
        ],
      });
    }
    sendJson(res, 404, { error: 'not found' });
  });
  keysUrl = `${server.origin}/v1/.well-known/keys`;

  const claimsFor = (o: ConnectorTokenOptions): JwtClaims => {
    const now = epochSeconds(Date.now());
    const exp = now + (o.expiresInSeconds ?? 3600);
    // Valid for an hour from its issue; a token that is already past was issued an hour before it ran out.
    const nbf = Math.min(now, exp - 3600);
    return { serviceurl: o.serviceUrl, nbf, iat: nbf, exp, iss: BOT_FRAMEWORK_ISSUER, aud: o.appId };
  };
  const rs256 = (key: SigningKey): JwtHeader => ({ alg: 'RS256', kid: key.kid, x5t: key.kid });
  const signed = (claims: JwtClaims, key = trusted, header = rs256(key)) => signJwt(header, claims, key.privateKey);

  return {
    origin: server.origin,
    metadataUrl: `${server.origin}/v1/.well-known/openidconfiguration`,
    keysUrl,
    requests,
    connectorToken: (o) => signed(claimsFor(o)),
    refusedToken(kind, o) {
      const good = claimsFor(o);
      const now = epochSeconds(Date.now());
      const without = (name: string) => Object.fromEntries(Object.entries(good).filter(([k]) => k !== name));
      switch (kind) {
        case 'wrong-audience':
          return signed({ ...good, aud: '00000000-0000-0000-0000-0000000000aa' });
        case 'expired':
          return signed({ ...good, nbf: now - 7200, iat: now - 7200, exp: now - 360 });
        case 'not-yet-valid':
          return signed({ ...good, nbf: now + 600, iat: now + 600, exp: now + 4200 });
        case 'foreign-key':
          return signed(good, foreign);
        case 'forged-kid':
          return signed(good, foreign, rs256(trusted));
        case 'serviceurl-mismatch':
          return signed({ ...good, serviceurl: 'https://smba.trafficmanager.net/evil/' });
        case 'no-serviceurl':
          return signed(without('serviceurl'));
        case 'wrong-issuer':
          return signed({ ...good, iss: 'https://sts.windows.net/00000000-0000-0000-0000-0000000000bb/' });
        case 'no-issuer':
          return signed(without('iss'));
        case 'hs256':
          // The classic confusion: a verifier that takes the alg from the token would check this with the public key.
          return signJwt(
            { alg: 'HS256', kid: trusted.kid },
            good,
            trusted.publicKey.export({ type: 'spki', format: 'pem' }),
          );
        case 'alg-none':
          return signJwt({ alg: 'none', kid: trusted.kid }, good);
        case 'not-a-jwt':
          return randomBytes(32).toString('base64url');
      }
    },
    close: server.close,
  };
}
