/**
 * Structured fields beside a log message. A JSON line carries them as fields of its own; a plain-text line shows
 * them only when asked to (`inText`), since its message usually says the same in words.
 */
import { LinenError } from '../../shared/errors.ts';

export class LogFields {
  constructor(
    readonly fields: Readonly<Record<string, unknown>>,
    readonly inText: boolean,
  ) {}
}

export function logFields(fields: Record<string, unknown>, options: { inText?: boolean } = {}): LogFields {
  return new LogFields(fields, options.inText ?? false);
}

/** The Linen API's `request_id` of a failure (or of the failure that caused it), to quote to support. */
export function requestIdOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof LinenError && e.requestId) return e.requestId;
  }
  return undefined;
}

/** A failed request's fields: its request id when the API gave one. */
export function failureFields(err: unknown): LogFields {
  const requestId = requestIdOf(err);
  return logFields(requestId ? { request_id: requestId } : {});
}
