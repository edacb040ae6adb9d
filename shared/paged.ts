/**
 * What a list method returns: one page on request, or every item through iteration (following cursors,
 * 200 rows a page unless the caller set `limit`, stopping on a repeated cursor). The async flavour is an
 * AsyncIterable, the sync flavour (Apps Script) an Iterable; both run the same page operation.
 */
import type { ListDef, Page } from './core/defs.ts';
import type { Operation } from './core/effects.ts';
import type { Budget } from './core/send.ts';
import { BULK_LIMIT, collect, nextCursor } from './core/walk.ts';

export type { Page };

export interface PageOptions {
  cursor?: string | undefined;
  limit?: number | undefined;
  /** Overrides the client's `timeBudgetMs` for this call. */
  timeBudgetMs?: number | undefined;
}

export interface WalkOptions {
  /** Stop after this many items. */
  maxItems?: number | undefined;
  /** Total time for the whole walk (all pages); defaults to the client's `timeBudgetMs`. */
  timeBudgetMs?: number | undefined;
}

export interface AsyncOptions {
  signal?: AbortSignal | undefined;
}

export type AsyncExec = <R>(op: Operation<R>, signal?: AbortSignal) => Promise<R>;
export type SyncExec = <R>(op: Operation<R>) => R;

export class AsyncPaged<T> implements AsyncIterable<T> {
  readonly #def: ListDef<T>;
  readonly #exec: AsyncExec;

  constructor(def: ListDef<T>, exec: AsyncExec) {
    this.#def = def;
    this.#exec = exec;
  }

  /** One page (the API's default size of 50 unless `limit` is given here or in the list's params). */
  page(options: PageOptions & AsyncOptions = {}): Promise<Page<T>> {
    return this.#exec(this.#def.page(options, { budgetMs: options.timeBudgetMs }), options.signal);
  }

  /** Every page in turn, following cursors. */
  async *pages(options: WalkOptions & AsyncOptions = {}): AsyncGenerator<Page<T>, void, undefined> {
    const budget: Budget = { budgetMs: options.timeBudgetMs };
    const limit = this.#def.limit ?? BULK_LIMIT;
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = await this.#exec(this.#def.page({ cursor, limit }, budget), options.signal);
      yield page;
      const next = nextCursor(page, seen, this.#def.endpoint);
      if (next === null) return;
      cursor = next;
    }
  }

  /** Every item, in the API's order. */
  async *items(options: WalkOptions & AsyncOptions = {}): AsyncGenerator<T, void, undefined> {
    let n = 0;
    for await (const page of this.pages(options)) {
      for (const item of page.data) {
        if (options.maxItems !== undefined && n >= options.maxItems) return;
        n++;
        yield item;
      }
      if (options.maxItems !== undefined && n >= options.maxItems) return;
    }
  }

  /** Every item as an array. */
  async all(options: WalkOptions & AsyncOptions = {}): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this.items(options)) out.push(item);
    return out;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.items()[Symbol.asyncIterator]();
  }
}

export class SyncPaged<T> implements Iterable<T> {
  // TypeScript-private rather than #private: the Apps Script bundle targets ES2020 (its runtime lacks class
  // fields), where #fields would compile to WeakMaps and helpers.
  constructor(
    private readonly def: ListDef<T>,
    private readonly exec: SyncExec,
  ) {}

  page(options: PageOptions = {}): Page<T> {
    return this.exec(this.def.page(options, { budgetMs: options.timeBudgetMs }));
  }

  *pages(options: WalkOptions = {}): Generator<Page<T>, void, undefined> {
    const budget: Budget = { budgetMs: options.timeBudgetMs };
    const limit = this.def.limit ?? BULK_LIMIT;
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (;;) {
      const page = this.exec(this.def.page({ cursor, limit }, budget));
      yield page;
      const next = nextCursor(page, seen, this.def.endpoint);
      if (next === null) return;
      cursor = next;
    }
  }

  *items(options: WalkOptions = {}): Generator<T, void, undefined> {
    let n = 0;
    for (const page of this.pages(options)) {
      for (const item of page.data) {
        if (options.maxItems !== undefined && n >= options.maxItems) return;
        n++;
        yield item;
      }
      if (options.maxItems !== undefined && n >= options.maxItems) return;
    }
  }

  all(options: WalkOptions = {}): T[] {
    return [...this.items(options)];
  }

  /**
   * The whole walk (what `all()` returns) as an operation, not yet run: for `runSyncBatch`, which drives
   * several walks at once and sends their pages together. `maxItems` does not apply.
   */
  walk(options: Pick<WalkOptions, 'timeBudgetMs'> = {}): Operation<T[]> {
    return collect(this.def, { budgetMs: options.timeBudgetMs });
  }

  [Symbol.iterator](): Iterator<T> {
    return this.items();
  }
}
