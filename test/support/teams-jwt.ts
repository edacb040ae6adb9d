/**
 * JSON Web Tokens for the Teams fakes, with node:crypto alone: signing (RS256 as Microsoft signs, and the HS256 and
 * `none` forms an attacker would try), reading without checking, and checking an RS256 signature. The SDK's own
 * validator (jsonwebtoken with jwks-rsa) is what the tests exercise; this is only the other side of the wire.
 */
import { createHmac, type KeyObject, sign, verify } from 'node:crypto';

export type JwtHeader = { alg: 'RS256' | 'HS256' | 'none'; typ?: 'JWT'; kid?: string; x5t?: string };
export type JwtClaims = Record<string, unknown>;

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');
const json64 = (value: unknown) => b64url(JSON.stringify(value));

/** Signs `claims` with `header.alg`: RS256 with an RSA private key, HS256 with a shared secret, `none` unsigned. */
export function signJwt(header: JwtHeader, claims: JwtClaims, key?: KeyObject | string | Buffer): string {
  const input = `${json64({ typ: 'JWT', ...header })}.${json64(claims)}`;
  switch (header.alg) {
    case 'RS256':
      if (!key || typeof key === 'string' || Buffer.isBuffer(key)) throw new Error('RS256 needs an RSA private key');
      return `${input}.${b64url(sign('sha256', Buffer.from(input), key))}`;
    case 'HS256':
      if (typeof key !== 'string' && !Buffer.isBuffer(key)) throw new Error('HS256 needs a shared secret');
      return `${input}.${b64url(createHmac('sha256', key).update(input).digest())}`;
    case 'none':
      return `${input}.`;
  }
}

/** The header and claims of a token, unchecked; undefined for anything that is not three dot-separated parts. */
export function decodeJwt(token: string): { header: JwtHeader; claims: JwtClaims } | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as JwtHeader;
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as JwtClaims;
    return { header, claims };
  } catch {
    return undefined;
  }
}

/** Whether `token` is RS256 and signed by the private half of `publicKey`. */
export function verifyRs256(token: string, publicKey: KeyObject): boolean {
  const parts = token.split('.');
  if (parts.length !== 3 || decodeJwt(token)?.header.alg !== 'RS256') return false;
  return verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), publicKey, Buffer.from(parts[2]!, 'base64url'));
}

/** Seconds since the epoch, as JWT times are counted. */
export const epochSeconds = (ms: number) => Math.floor(ms / 1000);
