/** Offset pagination behind signed cursors; the data never changes while the server runs. */
import type { CursorCodec, CursorState } from './cursor.ts';

export interface Page<T> {
  data: T[];
  pagination: { cursor: string | null; has_more: boolean };
}

export function paginate<T, R>(
  rows: readonly T[],
  offset: number,
  limit: number,
  project: (row: T) => R,
  codec: CursorCodec,
  binding: string,
  window?: [string, string],
): Page<R> {
  const end = Math.min(rows.length, offset + limit);
  const data: R[] = [];
  for (let i = offset; i < end; i++) data.push(project(rows[i]!));
  const hasMore = end < rows.length;
  let cursor: string | null = null;
  if (hasMore) {
    const state: CursorState = { offset: end };
    if (window) state.window = window;
    cursor = codec.encode(binding, state);
  }
  return { data, pagination: { cursor, has_more: hasMore } };
}
