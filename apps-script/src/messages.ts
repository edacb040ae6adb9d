/**
 * Every failure ends as one sentence a person can act on (what `#ERROR!` shows on hover): no stack trace,
 * never the key.
 */
import {
  AuthenticationError,
  ConfigurationError,
  InvalidParamsError,
  LinenError,
  NotFoundError,
  PermissionDeniedError,
  redact,
} from '../../shared/index.ts';
import { CachedError } from './cache.ts';

export const MENU = 'Extensions > Linen Connect';

/** A wrong argument, said in the add-on's own words. */
export class ArgError extends Error {}

const sentence = (s: string) => {
  const t = s.trim().replace(/^\d{3} [a-z_]+: /, '');
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(cap) ? cap : `${cap}.`;
};

export function missingKeyMessage(): string {
  return `No Linen API key is set for this spreadsheet: its owner sets one with ${MENU} > Set API key...`;
}

export function cellMessage(e: unknown, secrets: readonly string[]): string {
  let text: string;
  if (e instanceof ArgError || e instanceof CachedError) text = e.message;
  else if (e instanceof AuthenticationError) {
    text = `The Linen API rejected the API key (revoked or mistyped): set a valid one with ${MENU} > Set API key...`;
  } else if (e instanceof PermissionDeniedError) {
    text = `${e.userMessage.replace(/\.$/, '')}: ask your linen provider for a key that includes it.`;
  } else if ((e instanceof NotFoundError || e instanceof InvalidParamsError) && e.requestId === undefined) {
    // Raised by the client before any request (a customer name, a ticket number): its message is the sentence.
    text = sentence(e.message);
  } else if (e instanceof LinenError) text = sentence(e.userMessage);
  else text = `The Linen add-on failed: ${sentence(e instanceof Error ? e.message : String(e))}`;
  return redact(text.replace(/\s+/g, ' '), secrets);
}

/** Whether an error may be remembered for a minute (a retry right away would fail the same way). */
export function worthCaching(e: unknown): boolean {
  return e instanceof LinenError && !(e instanceof ConfigurationError);
}
