/**
 * Operation descriptions: what the resources return and the clients run. A call is one operation; a list is
 * a page operation the clients drive cursor by cursor.
 */
import type { Operation } from './effects.ts';
import type { Budget } from './send.ts';

export interface Page<T> {
  data: T[];
  /** Pass to `page({ cursor })` for the next page; null on the last page. */
  cursor: string | null;
  hasMore: boolean;
  requestId: string;
}

export interface CallDef<T> {
  readonly kind: 'call';
  readonly endpoint: string;
  op(budget: Budget): Operation<T>;
}

export interface PageRequest {
  cursor?: string | undefined;
  limit?: number | undefined;
}

export interface ListDef<T> {
  readonly kind: 'list';
  readonly endpoint: string;
  /** The caller's `limit`, if any (iteration otherwise uses 200). */
  readonly limit: number | undefined;
  page(req: PageRequest, budget: Budget): Operation<Page<T>>;
}
