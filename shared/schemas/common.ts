/**
 * Schema helpers (zod/mini, which is small enough for the Apps Script bundle). Objects are not strict:
 * fields the API adds later pass validation (and are dropped from the typed result).
 */
import * as z from 'zod/mini';

/** ISO 8601 UTC timestamp; kept as the string the API sent. */
export const timestamp = z.string();
/** `YYYY-MM-DD` org-local day. */
export const day = z.string();
export const id = z.string();
export const cents = z.int();
export const nullable = <T extends z.ZodMiniType>(t: T) => z.nullable(t);

/**
 * An enum the API may extend: validated as a string, typed as the known values plus any string, so editors
 * suggest the known ones and a new value never breaks parsing.
 */
export function openEnum<const T extends readonly string[]>(_known: T): z.ZodMiniType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

export const pagination = z.object({
  cursor: z.nullable(z.string()),
  has_more: z.boolean(),
});

export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: z.array(item), pagination, request_id: z.string() });
}

export function singleEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: item, request_id: z.string() });
}

export const errorEnvelope = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
  request_id: z.string(),
});

export const ref = z.object({ id: z.string(), manifest_number: z.string() });
