/**
 * Warming the cache for a set of LINEN_ calls with the fewest requests. Each call runs exactly as its cell
 * would, but with a context whose listings come from what this run has fetched: a call that needs a listing
 * not fetched yet stops there. The listings every stopped call needs are then fetched together (their pages
 * sent with `UrlFetchApp.fetchAll`, under the shared pacing) and stored under the run's generation, and the
 * calls run again, until each has what it needs (a customer name is resolved in one round, that customer's
 * deliveries fetched in the next). So the run fetches exactly the listings the cells will read, each once.
 */
import { listingRequest } from '../../shared/cells/args.ts';
import type { Listing } from '../../shared/cells/context.ts';
import { IMPLS } from '../../shared/cells/functions.ts';
import { collect } from '../../shared/core/walk.ts';
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  InternalServerError,
  type Operation,
  RateLimitError,
  runSyncBatch,
  TimeoutError,
} from '../../shared/index.ts';
import type { Api } from '../../shared/resources/index.ts';
import { CachedError, type Scope, type Stored, storedListing, storeListing } from './cache.ts';
import { Context } from './context.ts';
import { sleep, urlFetchAllTransport } from './gas.ts';
import { namedArgs } from './invoke.ts';
import { sheetsMessage } from './messages.ts';

/** A call's arguments as its cell passes them. */
export interface PlannedCall {
  name: string;
  args: unknown[];
}

export interface WarmOptions {
  cache: GoogleAppsScript.Cache.Cache;
  /** The run's generation, key digest and API address: where the listings are stored. */
  scope: Scope;
  /** The API with the run's key and a budget as long as the run's. */
  api: Api;
  /** Epoch ms: no new round of requests starts after this. */
  deadline: number;
}

export interface WarmOutcome {
  /** Every call found what it needs. */
  complete: boolean;
  /** Listings fetched by this run (the others were already stored under the generation). */
  fetched: number;
  /** What stops the run: the key was rejected, or the API is down or too slow. */
  failure?: unknown;
}

/** Raised inside a planned call: the listing it needs is not fetched yet. */
class Pending extends Error {}

/** Failures that say nothing about one listing but about the run: the key, the API itself, the time left. */
export function stopsTheRun(e: unknown): boolean {
  return (
    e instanceof AuthenticationError ||
    e instanceof ConfigurationError ||
    e instanceof InternalServerError ||
    e instanceof ConnectionError ||
    e instanceof TimeoutError ||
    e instanceof RateLimitError
  );
}

class PlanningContext extends Context {
  private readonly lookup_: (request: string) => Stored | undefined;
  private readonly need_: (request: string, walk: () => Operation<Record<string, unknown>[]>) => void;
  private readonly runApi_: Api;
  private readonly until_: number;

  constructor(o: WarmOptions, lookup: PlanningContext['lookup_'], need: PlanningContext['need_']) {
    super();
    this.lookup_ = lookup;
    this.need_ = need;
    this.runApi_ = o.api;
    this.until_ = o.deadline;
  }

  /** What this run has at hand: a listing stored under an older generation is not, the cells will not read it. */
  protected override peek<T extends Record<string, unknown>>(request: string): T[] | null {
    const known = this.lookup_(request);
    return known && !('error' in known) ? (known.rows as T[]) : null;
  }

  /** The rows this run has at hand; otherwise the call stops here and the run fetches what it needs. */
  override *rows<P extends Record<string, unknown>, T extends Record<string, unknown>>(
    name: string,
    params: P,
    list: Listing<P, T>,
  ): Operation<T[]> {
    const { request, clean } = listingRequest(name, params);
    const known = this.lookup_(request);
    if (known) {
      if ('error' in known) throw new CachedError(known.error);
      return known.rows as T[];
    }
    this.need_(request, () =>
      collect(list(this.runApi_)(clean as P), { budgetMs: Math.max(1_000, this.until_ - Date.now()) }),
    );
    throw new Pending();
  }
}

export function warmListings(calls: readonly PlannedCall[], o: WarmOptions): WarmOutcome {
  const known = new Map<string, Stored>();
  const lookup = (request: string) => {
    let v = known.get(request);
    if (v === undefined) {
      v = storedListing(o.cache, o.scope, request) ?? undefined;
      if (v) known.set(request, v);
    }
    return v;
  };
  let needed = new Map<string, () => Operation<Record<string, unknown>[]>>();
  const ctx = new PlanningContext(o, lookup, (request, walk) => {
    if (!needed.has(request)) needed.set(request, walk);
  });
  const secrets = ctx.secrets;
  let fetched = 0;
  let pending = [...calls];
  while (pending.length > 0) {
    needed = new Map();
    pending = pending.filter((c) => {
      try {
        const work = IMPLS[c.name];
        if (work) ctx.run(work(ctx, namedArgs(c.name, c.args)));
        return false;
      } catch (e) {
        // Any other failure is the cell's own answer (a wrong argument, an unknown customer).
        return e instanceof Pending;
      }
    });
    if (needed.size === 0) break;
    if (Date.now() >= o.deadline) return { complete: false, fetched };
    const requests = [...needed.keys()];
    const results = runSyncBatch(
      [...needed.values()].map((walk) => walk()),
      urlFetchAllTransport,
      { sleep },
    );
    let failure: unknown;
    results.forEach((r, i) => {
      let stored: Stored;
      if (r.ok) {
        stored = { rows: r.value };
        fetched++;
      } else if (stopsTheRun(r.error)) {
        failure ??= r.error;
        return;
      } else {
        stored = { error: sheetsMessage(r.error, secrets) };
      }
      storeListing(o.cache, o.scope, requests[i]!, stored);
      known.set(requests[i]!, stored);
    });
    if (failure !== undefined) return { complete: false, fetched, failure };
  }
  return { complete: pending.length === 0, fetched };
}
