/**
 * Pages behind signed cursors. A cursor holds the offset of the next row and, when rows have an `id`, the id of
 * the last row served: when the data has changed since the previous page (a change control added or removed rows
 * before it), the page starts after that row where it now is, so a walk neither repeats nor skips rows for it.
 */
import type { CursorCodec, CursorState } from './cursor.ts';

export interface Page<T> {
  data: T[];
  pagination: { cursor: string | null; has_more: boolean };
}

const idOf = (row: unknown): string | undefined => {
  const id = (row as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : undefined;
};

/** Where the page after `state` starts in `rows`. */
function startOf(rows: readonly unknown[], state: CursorState): number {
  const { offset, anchor } = state;
  if (anchor === undefined || idOf(rows[offset - 1]) === anchor) return offset;
  const at = rows.findIndex((row) => idOf(row) === anchor);
  return at < 0 ? offset : at + 1;
}

export function paginate<T, R>(
  rows: readonly T[],
  state: CursorState,
  limit: number,
  project: (row: T) => R,
  codec: CursorCodec,
  binding: string,
  window?: [string, string],
): Page<R> {
  const start = Math.min(rows.length, startOf(rows, state));
  const end = Math.min(rows.length, start + limit);
  const data: R[] = [];
  for (let i = start; i < end; i++) data.push(project(rows[i]!));
  const hasMore = end < rows.length;
  let cursor: string | null = null;
  if (hasMore) {
    const next: CursorState = { offset: end };
    if (window) next.window = window;
    const anchor = idOf(rows[end - 1]);
    if (anchor !== undefined) next.anchor = anchor;
    cursor = codec.encode(binding, next);
  }
  return { data, pagination: { cursor, has_more: hasMore } };
}
