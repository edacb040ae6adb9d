/**
 * One Sheets execution's view of the world: settings, the API (UrlFetchApp transport, Utilities.sleep, pacing
 * shared through CacheService), and listings cached in CacheService under the document lock. The functions'
 * work (shared/cells/) runs on it with `runSync`.
 */

import { listingRequest } from '../../shared/cells/args.ts';
import { CellContext, type Listing, type Reader } from '../../shared/cells/context.ts';
import { ArgError, worthCaching } from '../../shared/cells/messages.ts';
import type { Cell } from '../../shared/cells/values.ts';
import { createLinenApi, createLinenApiSync, type LinenApiSync, type LinenClientOptions } from '../../shared/client.ts';
import { collect } from '../../shared/core/walk.ts';
import { type Operation, runSync, type SyncTransport } from '../../shared/index.ts';
import type { Api } from '../../shared/resources/index.ts';
import { cachedRows, peekRows, type Scope } from './cache.ts';
import { sheetDay, sheetTimestamp } from './format.ts';
import { cachePacingStore, readSettings, type Settings, sha256, sleep, urlFetchTransport } from './gas.ts';
import { latencyGuard } from './latency-guard.ts';
import { missingKeyMessage, sheetsMessage } from './messages.ts';

/** Sheets stops a custom function after 30 s; keep a margin for returning the value. */
export const EXECUTION_MS = 28_000;

function clientOptions(settings: Settings, apiKey: string, timeBudgetMs: number): LinenClientOptions {
  return {
    apiKey,
    baseUrl: settings.baseUrl,
    timeZone: settings.orgTimeZone,
    // Dated by the send: dating by the answer would cost a second CacheService write per request.
    pacing: { limit: 120, windowMs: 60_000, countFrom: 'send', store: cachePacingStore(sha256(apiKey)) },
    timeBudgetMs,
  };
}

export function makeClient(settings: Settings, apiKey: string, timeBudgetMs: number): LinenApiSync {
  // A request UrlFetchApp has started cannot be stopped: start one only when it can end within the budget.
  return createLinenApiSync({
    ...clientOptions(settings, apiKey, timeBudgetMs),
    transport: latencyGuard(urlFetchTransport),
    sleep,
  });
}

/** The API's operations for the key, not yet run (a refresh run drives them together with `runSyncBatch`). */
export function makeApi(settings: Settings, apiKey: string, timeBudgetMs: number): Api {
  return createLinenApi(clientOptions(settings, apiKey, timeBudgetMs));
}

export class Context extends CellContext {
  readonly settings: Settings;
  readonly started: number;
  // Members ending in `_` get short names in Code.js: the build mangles the properties matching
  // /^[a-z][A-Za-z]*_$/ (esbuild `mangleProps`, scripts/build-apps-script.ts). TypeScript's `private` is erased
  // before esbuild sees it and `#private` fields would be lowered to WeakMaps for the es2020 target, so the
  // suffix is the marker. Never give it to a name read from outside the bundle (tests, the generated stubs).
  private readonly apiKey_: string;
  private api_: Api | undefined;
  private readonly scope_: Scope;
  // A request UrlFetchApp has started cannot be stopped: start one only when it can end within the budget.
  private readonly transport_: SyncTransport = latencyGuard(urlFetchTransport);

  /** `cell`: a custom function's execution (it reads the spreadsheet owner's key). */
  constructor(started = Date.now(), options: { cell?: boolean } = {}) {
    const settings = readSettings();
    super({ org: settings.orgTimeZone, sheet: settings.sheetTimeZone });
    this.started = started;
    this.settings = settings;
    if (!settings.apiKey) throw new ArgError(missingKeyMessage());
    this.apiKey_ = settings.apiKey;
    this.scope_ = {
      baseUrl: settings.baseUrl,
      keyHash: sha256(this.apiKey_),
      generation: settings.generation,
      deadline: started + EXECUTION_MS,
      cell: options.cell === true,
    };
  }

  get secrets(): string[] {
    return [this.apiKey_];
  }

  remaining_(): number {
    return Math.max(1_000, this.started + EXECUTION_MS - Date.now());
  }

  get api(): Api {
    this.api_ ??= makeApi(this.settings, this.apiKey_, this.remaining_());
    return this.api_;
  }

  /** Run a cell's work (or a lookup) to its end in this execution. */
  run<T>(op: Operation<T>): T {
    return runSync(op, this.transport_, { sleep });
  }

  rows<P extends Record<string, unknown>, T extends Record<string, unknown>>(
    name: string,
    params: P,
    list: Listing<P, T>,
  ): Operation<T[]> {
    const { request, clean } = listingRequest(name, params);
    return this.cachedAs_(request, () => collect(list(this.api)(clean as P), { budgetMs: this.remaining_() - 500 }));
  }

  cached<T extends Record<string, unknown>>(
    name: string,
    params: Record<string, unknown>,
    fetch: (reader: Reader) => Operation<T[]>,
  ): Operation<T[]> {
    return this.cachedAs_(`${name} ${JSON.stringify(params)}`, () => fetch(this.reader(this.api, this.remaining_())));
  }

  private cachedAs_<T extends Record<string, unknown>>(request: string, fetch: () => Operation<T[]>): Operation<T[]> {
    return cachedRows(this.scope_, request, fetch, (e) => ({
      message: sheetsMessage(e, this.secrets),
      cache: worthCaching(e),
    }));
  }

  /** A listing already at hand, without fetching it (null when it is not). */
  protected peek<T extends Record<string, unknown>>(request: string): T[] | null {
    return peekRows<T>(this.scope_, request);
  }

  dayCell(day: string | null | undefined): Cell {
    return sheetDay(day, this.zones);
  }

  timeCell(iso: string | null | undefined): Cell {
    return sheetTimestamp(iso, this.zones);
  }
}
