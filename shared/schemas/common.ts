/**
 * Schema helpers (zod/mini, which is small enough for the Apps Script bundle). Objects are not strict:
 * fields the API adds later pass validation (and are dropped from the typed result).
 */
import * as z from 'zod/mini';
import { getOrInsert } from '../collections.ts';

/**
 * A safe integer, as `z.int()` accepts, checked with a refinement: `z.int()` brings zod's number-format
 * checks into the Apps Script bundle (about 1.3 KB that every custom-function execution loads) for this one use.
 */
const safeInteger = () => z.number().check(z.refine(Number.isSafeInteger, 'expected an integer'));

// One instance of each field schema, shared by every object that has such a field: a schema never changes once
// built, and each one built is load time the Apps Script bundle pays on every custom-function execution.
export const text = z.string();
export const int = safeInteger();
export const num = z.number();
export const bool = z.boolean();
/** ISO 8601 UTC timestamp; kept as the string the API sent. */
export const timestamp = z.string();
/** `YYYY-MM-DD` org-local day. */
export const day = z.string();
export const id = z.string();
export const cents = safeInteger();

const nullables = new Map<z.ZodMiniType, z.ZodMiniType>();
/** The schema or null: one instance per inner schema. */
export const nullable = <T extends z.ZodMiniType>(t: T) =>
  getOrInsert(nullables, t, () => z.nullable(t)) as z.ZodMiniNullable<T>;

/**
 * An enum the API may extend: validated as a string, typed as the known values plus any string, so editors
 * suggest the known ones and a new value never breaks parsing.
 */
export function openEnum<const T extends readonly string[]>(_known: T): z.ZodMiniType<T[number] | (string & {})> {
  return z.string() as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

export const pagination = z.object({
  cursor: nullable(text),
  has_more: bool,
});

export function listEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: z.array(item), pagination, request_id: text });
}

export function singleEnvelope<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: item, request_id: text });
}

export const errorEnvelope = z.object({
  error: z.object({ code: text, message: text }),
  request_id: text,
});

export const ref = z.object({ id, manifest_number: text });
