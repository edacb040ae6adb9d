/**
 * The caller's Linen key, from the Authorization header only: `Basic base64(<any user name>:<key>)`, what Excel
 * and Power BI send when a person picks Basic and pastes the key as the password, or `Bearer <key>`. The feed
 * never uses a key of its own. A header that carries no usable key is a 401 sentence saying what to put where.
 */
import { BASIC_CHALLENGE, ODataError } from './errors.ts';

const unauthorized = (message: string) =>
  new ODataError(401, 'unauthorized', message, { 'www-authenticate': BASIC_CHALLENGE });

/** The key, undefined when the request sends no credentials at all, or a 401 for unusable ones. */
export function keyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  if (typeof header !== 'string') throw unauthorized('Send one Authorization header with your Linen API key.');
  const basic = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const key = colon < 0 ? '' : decoded.slice(colon + 1);
    if (key === '') throw unauthorized('Put your Linen API key in the password field (the user name can be anything).');
    if (/\s/.test(key))
      throw unauthorized('The Linen API key in the password contains spaces or line breaks; paste it again.');
    return key;
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (bearer) return bearer[1];
  throw unauthorized('Sign in with Basic authentication: any user name, and your Linen API key as the password.');
}

export function missingKey(): ODataError {
  return unauthorized('Sign in with Basic authentication: any user name, and your Linen API key as the password.');
}
