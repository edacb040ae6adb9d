/**
 * Every failure of a cell ends as one sentence a person can act on (what `#ERROR!` shows in Sheets, and Excel's
 * `#VALUE!` or `#N/A` on hover): no stack trace, never the key. The sentences are the same in both spreadsheets;
 * only a remedy that names the user interface differs (`where` the key is set).
 */
import {
  AuthenticationError,
  ConfigurationError,
  InvalidParamsError,
  LinenError,
  NotFoundError,
  PermissionDeniedError,
} from '../errors.ts';
import { redact } from '../redact.ts';

/** A failure whose message is already the sentence the cell shows. */
export class CellSentence extends Error {}

/** A wrong argument, said in the add-on's own words. */
export class ArgError extends CellSentence {}

const sentence = (s: string) => {
  const t = s.trim().replace(/^\d{3} [a-z_]+: /, '');
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(cap) ? cap : `${cap}.`;
};

/** Raised by the client before any request (a customer name, a ticket number): its message is the sentence. */
export const beforeAnyRequest = (e: unknown): e is NotFoundError | InvalidParamsError =>
  (e instanceof NotFoundError || e instanceof InvalidParamsError) && e.requestId === undefined;

/**
 * The sentence a cell shows for `e`; `setKey` says where a person sets a key, e.g.
 * `Extensions > Linen Connect > Set API key...`.
 */
export function cellMessage(e: unknown, secrets: readonly string[], setKey: string): string {
  let text: string;
  if (e instanceof CellSentence) text = e.message;
  else if (e instanceof AuthenticationError) {
    text = `The Linen API rejected the API key (revoked or mistyped): set a valid one with ${setKey}`;
  } else if (e instanceof PermissionDeniedError) {
    text = `${e.userMessage.replace(/\.$/, '')}: ask your linen provider for a key that includes it.`;
  } else if (beforeAnyRequest(e)) text = sentence(e.message);
  else if (e instanceof LinenError) text = sentence(e.userMessage);
  else text = `The Linen add-on failed: ${sentence(e instanceof Error ? e.message : String(e))}`;
  return redact(text.replace(/\s+/g, ' '), secrets);
}

/** Whether an error may be remembered for a minute (a retry right away would fail the same way). */
export function worthCaching(e: unknown): boolean {
  return e instanceof LinenError && !(e instanceof ConfigurationError);
}
