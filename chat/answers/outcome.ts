/**
 * What became of a command or a button, in four words the operator counts (`linen_commands_total`): `answered`
 * (the data, or help, usage, a choice of customers, "nothing found"), `busy` (the key's budget: rate limited, or
 * no pacing slot within the command's time), `refused` (access rules: accounting where it may not appear, a
 * workspace or key without access) and `error` (anything failing: the API, the store, the deadline, the bot).
 */
import { InvalidParamsError, NotFoundError, PermissionDeniedError, RateLimitError } from '../../shared/errors.ts';
import { NoKeyError } from '../linen.ts';

export type AnswerOutcome = 'answered' | 'busy' | 'refused' | 'error';

/** The outcome of an answer that ended in `err` (its sentence is what the person sees). */
export function outcomeOfError(err: unknown): AnswerOutcome {
  if (err instanceof RateLimitError) return 'busy';
  if (err instanceof PermissionDeniedError || err instanceof NoKeyError) return 'refused';
  // Nothing by that name or number, or an argument refused before any request: a proper answer to the question.
  if (err instanceof NotFoundError) return 'answered';
  if (err instanceof InvalidParamsError && err.status === undefined) return 'answered';
  return 'error';
}
