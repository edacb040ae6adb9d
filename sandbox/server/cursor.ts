/**
 * Opaque pagination cursors: HMAC-signed base64url tokens bound to the key, the endpoint and the filters of
 * the first page. Tampered, foreign or mismatched cursors are a 422.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { invalidParams } from './errors.ts';

export interface CursorState {
  /** Offset of the next row in the filtered, sorted list. */
  offset: number;
  /** Resolved date window of the first page, reused so a default "last 7 days" stays put while paging. */
  window?: [string, string];
  /** Id of the last row served, when rows have one: the next page starts after it even if rows moved. */
  anchor?: string;
}

interface CursorPayload {
  v: 1;
  b: string;
  o: number;
  w?: [string, string];
  a?: string;
}

export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  /** A short digest binding a cursor to the key, the endpoint path and the canonical filters. */
  binding(keyId: string, path: string, filters: Record<string, string>): string {
    const canonical = JSON.stringify([keyId, path, Object.entries(filters).sort(([a], [b]) => (a < b ? -1 : 1))]);
    return createHash('sha256').update(canonical).digest('base64url').slice(0, 22);
  }

  encode(binding: string, state: CursorState): string {
    const payload: CursorPayload = { v: 1, b: binding, o: state.offset };
    if (state.window) payload.w = state.window;
    if (state.anchor !== undefined) payload.a = state.anchor;
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(body)}`;
  }

  decode(token: string, binding: string): CursorState {
    const bad = () =>
      invalidParams(
        'Parameter "cursor" is invalid: pass the pagination.cursor of the previous page unchanged, with the same filters.',
      );
    const dot = token.indexOf('.');
    if (dot <= 0) throw bad();
    const body = token.slice(0, dot);
    const sig = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(body), 'base64url');
    if (sig.length !== expected.length || !timingSafeEqual(sig, expected)) throw bad();
    let payload: CursorPayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
    } catch {
      throw bad();
    }
    if (payload.v !== 1 || payload.b !== binding || !Number.isInteger(payload.o) || payload.o < 0) throw bad();
    const state: CursorState = { offset: payload.o };
    if (payload.w) state.window = payload.w;
    if (typeof payload.a === 'string') state.anchor = payload.a;
    return state;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.secret).update(`cursor.${body}`).digest('base64url');
  }
}
