/**
 * One execution's view of the world: settings, the client (UrlFetchApp transport, Utilities.sleep, pacing
 * shared through CacheService), cached listings, and the argument readers every function uses.
 */

import { dayInZone, isIsoDay } from '../../shared/dates.ts';
import {
  type Customer,
  createLinenApiSync,
  type Item,
  type LinenApiSync,
  resolveCustomerFrom,
  type SyncPaged,
} from '../../shared/index.ts';
import { normalizeName } from '../../shared/names.ts';
import { cachedRows, peekRows, type Scope } from './cache.ts';
import { isDate, type Zones } from './format.ts';
import { cachePacingStore, readSettings, type Settings, sha256, sleep, urlFetchTransport } from './gas.ts';
import { latencyGuard } from './latency-guard.ts';
import { ArgError, cellMessage, missingKeyMessage, worthCaching } from './messages.ts';

/** Sheets stops a custom function after 30 s; keep a margin for returning the value. */
export const EXECUTION_MS = 28_000;

export function makeClient(settings: Settings, apiKey: string, timeBudgetMs: number): LinenApiSync {
  return createLinenApiSync({
    apiKey,
    baseUrl: settings.baseUrl,
    timeZone: settings.orgTimeZone,
    // A request UrlFetchApp has started cannot be stopped: start one only when it can end within the budget.
    transport: latencyGuard(urlFetchTransport),
    sleep,
    // Dated by the send: dating by the answer would cost a second CacheService write per request.
    pacing: { limit: 120, windowMs: 60_000, countFrom: 'send', store: cachePacingStore(sha256(apiKey)) },
    timeBudgetMs,
  });
}

export class Context {
  readonly settings: Settings;
  readonly zones: Zones;
  readonly started: number;
  // Members ending in `_` get short names in Code.js: the build mangles the properties matching
  // /^[a-z][A-Za-z]*_$/ (esbuild `mangleProps`, scripts/build-apps-script.ts). TypeScript's `private` is erased
  // before esbuild sees it and `#private` fields would be lowered to WeakMaps for the es2020 target, so the
  // suffix is the marker. Never give it to a name read from outside the bundle (tests, the generated stubs).
  private readonly apiKey_: string;
  private client_: LinenApiSync | undefined;
  private readonly scope_: Scope;

  /** `cell`: a custom function's execution (it reads the spreadsheet owner's key). */
  constructor(started = Date.now(), options: { cell?: boolean } = {}) {
    this.started = started;
    this.settings = readSettings();
    if (!this.settings.apiKey) throw new ArgError(missingKeyMessage());
    this.apiKey_ = this.settings.apiKey;
    this.zones = { org: this.settings.orgTimeZone, sheet: this.settings.sheetTimeZone };
    this.scope_ = {
      baseUrl: this.settings.baseUrl,
      keyHash: sha256(this.apiKey_),
      generation: this.settings.generation,
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

  get client(): LinenApiSync {
    this.client_ ??= makeClient(this.settings, this.apiKey_, this.remaining_());
    return this.client_;
  }

  /**
   * Every row of a listing, through the shared cache: `ctx.rows('inventory.units', { customerId }, (c) => c.inventory.units)`.
   * The cache key is `name` (`resource.method`, naming the method `list` picks) and `params` (sorted, undefined
   * ones dropped); on a miss, that method is called with those params and every page is fetched.
   */
  rows<P extends Record<string, unknown>, T extends Record<string, unknown>>(
    name: string,
    params: P,
    list: (client: LinenApiSync) => (params: P) => SyncPaged<T>,
  ): T[] {
    const { request, clean } = listingRequest(name, params);
    return this.cachedAs_(request, (c) => list(c)(clean as P).all({ timeBudgetMs: this.remaining_() - 500 }));
  }

  /**
   * Rows `fetch` computes (a walk kept to what matches, a resource by id), cached like a listing under `name` and
   * `params`: `ctx.cached('orders.get', { id }, (c) => [c.orders.get(id)])`.
   */
  cached<T extends Record<string, unknown>>(
    name: string,
    params: Record<string, unknown>,
    fetch: (client: LinenApiSync) => T[],
  ): T[] {
    return this.cachedAs_(`${name} ${JSON.stringify(params)}`, fetch);
  }

  private cachedAs_<T extends Record<string, unknown>>(request: string, fetch: (client: LinenApiSync) => T[]): T[] {
    return cachedRows(
      this.scope_,
      request,
      () => fetch(this.client),
      (e) => ({ message: cellMessage(e, this.secrets), cache: worthCaching(e) }),
    );
  }

  customers(): Customer[] {
    return this.rows('customers.list', {}, (c) => c.customers.list);
  }

  /** A listing already at hand, without fetching it (null when it is not). */
  protected peek<T extends Record<string, unknown>>(request: string): T[] | null {
    return peekRows<T>(this.scope_, request);
  }

  /**
   * A customer argument as the id a listing filters on, reading the customers list only when it must: an
   * argument shaped like an id is taken as one (the API answers 404 for an id the key does not see), a name is
   * looked up, and so is any argument once the list is at hand.
   */
  customerRef(input: unknown): { id: string; customer?: Customer } {
    const q = text(input, 'customer');
    if (q === undefined) throw new ArgError('Give a customer id or name.');
    const listed = this.peek<Customer>(listingRequest('customers.list', {}).request);
    if (!listed && ID_SHAPED.test(q)) return { id: q };
    const customer = resolveCustomerFrom(q, listed ?? this.customers());
    return { id: customer.id, customer };
  }

  customer(input: unknown): Customer {
    return resolveCustomerFrom(text(input, 'customer')!, this.customers());
  }

  customerName(id: string | null | undefined): string {
    if (!id) return '';
    return this.customers().find((c) => c.id === id)?.name ?? id;
  }

  departmentName(id: string | null | undefined): string {
    if (!id) return '';
    for (const c of this.customers()) for (const d of c.departments) if (d.id === id) return d.name;
    return id;
  }

  /** A department by id or name, within one customer when given. */
  department(input: unknown, customer?: Customer): { id: string; name: string } {
    const q = text(input, 'department')!;
    const pool = (customer ? [customer] : this.customers()).flatMap((c) =>
      c.departments.map((d) => ({ ...d, customer: c.name })),
    );
    const byId = pool.find((d) => d.id === q);
    if (byId) return byId;
    const named = pool.filter((d) => normalizeName(d.name) === normalizeName(q));
    if (named.length === 1) return named[0]!;
    if (named.length > 1) {
      throw new ArgError(
        `Department "${q}" exists at ${named.map((d) => d.customer).join(', ')}: give the customer or the id.`,
      );
    }
    const known = customer
      ? `; ${customer.name} has ${customer.departments.map((d) => d.name).join(', ') || 'none'}`
      : '';
    throw new ArgError(`No department "${q}" is visible to this key${known}.`);
  }

  items(): Item[] {
    return this.rows('items.list', {}, (c) => c.items.list);
  }

  /** An item by id, name or SKU. */
  item(input: unknown): Item {
    const q = text(input, 'item'); // read before the items are listed: a wrong argument costs no request
    return this.pick(this.items(), q, 'item');
  }

  /** A unit, cart or item by id, else by name (or SKU, for an item), among a listing. */
  pick<T extends { id: string; name: string; sku?: string }>(rows: readonly T[], input: unknown, what: string): T {
    const q = text(input, what)!;
    const n = normalizeName(q);
    const found =
      rows.find((r) => r.id === q) ??
      rows.find((r) => normalizeName(r.name) === n || (r.sku !== undefined && normalizeName(r.sku) === n));
    if (!found) throw new ArgError(`No ${what} "${q}" is visible to this key.`);
    return found;
  }

  /** A date argument as an org-local day: a Sheets date (read in the spreadsheet's zone), a serial number or `YYYY-MM-DD`. */
  day(input: unknown, name: string): string | undefined {
    return day(input, name, this.settings.sheetTimeZone);
  }
}

/** A listing's name in the cache: `name` and its params (sorted, undefined ones dropped). */
export function listingRequest(name: string, params: Record<string, unknown>) {
  const clean: Record<string, unknown> = {};
  for (const k of Object.keys(params).sort()) if (params[k] !== undefined) clean[k] = params[k];
  return { request: `${name} ${JSON.stringify(clean)}`, clean };
}

/** Sixteen or more letters, digits, `_` or `-`, with a letter and a digit among them: an id, not a name. */
const ID_SHAPED = /^(?=[^\d]*\d)(?=[^a-z]*[a-z])[a-z0-9_-]{16,}$/i;

export const isBlank = (v: unknown) => v === undefined || v === null || v === '';

function single(v: unknown, name: string): unknown {
  if (Array.isArray(v)) {
    if (v.length === 1 && Array.isArray(v[0]) && v[0].length === 1) return v[0][0];
    throw new ArgError(`${name} must be a single value, not a range.`);
  }
  return v;
}

/** A text argument, or undefined when blank. */
export function text(input: unknown, name: string): string | undefined {
  const v = single(input, name);
  if (isBlank(v)) return undefined;
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return String(v);
  throw new ArgError(`${name} must be text.`);
}

/** An enum argument: `In progress` and `in_progress` both work. */
export function choice<V extends string>(input: unknown, name: string, allowed: readonly V[]): V | undefined {
  const t = text(input, name);
  if (t === undefined) return undefined;
  const v = t.toLowerCase().replace(/[\s-]+/g, '_');
  const found = allowed.find((a) => a === v);
  if (found === undefined) throw new ArgError(`${name} must be one of ${allowed.join(', ')}, not "${t}".`);
  return found;
}

const SERIAL_EPOCH = Date.UTC(1899, 11, 30);

export function day(input: unknown, name: string, sheetTimeZone: string): string | undefined {
  const v = single(input, name);
  if (isBlank(v)) return undefined;
  if (isDate(v)) {
    if (Number.isNaN(v.getTime())) throw new ArgError(`${name} is not a valid date.`);
    const d = dayInZone(v, sheetTimeZone);
    // Sheets dates run from year 1 to 9999; the API's days have four-digit years.
    if (!isIsoDay(d)) throw new ArgError(`${name} must be a date between the years 1 and 9999.`);
    return d;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 0 && v < 2_958_466) {
    return new Date(SERIAL_EPOCH + Math.floor(v) * 86_400_000).toISOString().slice(0, 10);
  }
  if (typeof v === 'string' && isIsoDay(v.trim())) return v.trim();
  const typed =
    typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' && Number.isFinite(v) ? String(v) : '';
  throw new ArgError(`${name} must be a date or a day written YYYY-MM-DD${typed ? `, not ${typed}` : ''}.`);
}

/** A from/to pair, checked for order. */
export function window(ctx: Context, from: unknown, to: unknown, required: boolean): { from?: string; to?: string } {
  const f = ctx.day(from, 'from');
  const t = ctx.day(to, 'to');
  if (required && f === undefined) throw new ArgError('from is required (a date or YYYY-MM-DD).');
  if (required && t === undefined) throw new ArgError('to is required (a date or YYYY-MM-DD).');
  if (f !== undefined && t !== undefined && f > t) throw new ArgError(`from (${f}) is after to (${t}).`);
  return { ...(f !== undefined ? { from: f } : {}), ...(t !== undefined ? { to: t } : {}) };
}
