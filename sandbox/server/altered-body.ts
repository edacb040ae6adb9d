/**
 * The fault kinds that change a served answer rather than replace it: a newer API (`evolved`: extra fields and
 * enum values this client has never seen) and a broken one (`missing_field`: a required field left out).
 */
import type { FaultDecision } from './faults.ts';

/** The enumerated fields an `evolved` answer gives a value no version of the specification lists. */
const ENUM_FIELDS = ['status', 'kind', 'type', 'stage', 'severity'];

type Envelope = { data: unknown; pagination?: unknown; request_id: string };

function evolve(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(evolve);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(value)) {
    out[name] = ENUM_FIELDS.includes(name) && typeof v === 'string' ? `future_${name}` : evolve(v);
  }
  out.added_in_a_later_version = { note: 'a field this client does not know', count: 1 };
  return out;
}

function withoutId(row: unknown): unknown {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return row;
  const { id: _id, ...rest } = row as Record<string, unknown>;
  return rest;
}

export function alterBody(action: FaultDecision['action'], body: Envelope): Envelope {
  if (action === 'evolved') {
    return { ...body, data: evolve(body.data), added_in_a_later_version: true } as Envelope;
  }
  if (action === 'missing_field') {
    if (Array.isArray(body.data)) {
      if (body.data.length > 0) return { ...body, data: body.data.map(withoutId) };
      const { pagination: _p, ...rest } = body;
      return rest;
    }
    return { ...body, data: withoutId(body.data) };
  }
  return body;
}
