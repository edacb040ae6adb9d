/**
 * What a cell's work needs from the spreadsheet it runs in, and the lookups every function shares. The work is
 * written once as operations (generators yielding the sans-IO core's effects): Sheets drives them with
 * `runSync` over UrlFetchApp, Excel with `runAsync` over fetch. A spreadsheet supplies listings through its own
 * cache (`rows`, `cached`, `peek`) and says how it shows a day and an instant (`dayCell`, `timeCell`).
 */
import type { CallDef, ListDef } from '../core/defs.ts';
import type { Operation } from '../core/effects.ts';
import { collect } from '../core/walk.ts';
import { normalizeName } from '../names.ts';
import { resolveCustomerFrom } from '../reports/lookup.ts';
import type { Api } from '../resources/index.ts';
import type { Customer, Item } from '../schemas/customers.ts';
import { day, listingRequest, text, window } from './args.ts';
import { ArgError } from './messages.ts';
import type { Cell, Zones } from './values.ts';

/** Reads with the context's API and time budget, for `cached` work that is more than one listing. */
export interface Reader {
  api: Api;
  /** Every row of a listing. */
  all<T>(def: ListDef<T>): Operation<T[]>;
  /** One resource. */
  one<T>(def: CallDef<T>): Operation<T>;
}

/** A listing method of the API: `(api) => api.deliveries.daily`. */
export type Listing<P, T> = (api: Api) => (params: P) => ListDef<T>;

/** Sixteen or more letters, digits, `_` or `-`, with a letter and a digit among them: an id, not a name. */
const ID_SHAPED = /^(?=[^\d]*\d)(?=[^a-z]*[a-z])[a-z0-9_-]{16,}$/i;

export abstract class CellContext {
  readonly zones: Zones;
  // Members ending in `_` get short names in the Sheets bundle (see scripts/build-apps-script.ts).
  private known_: Customer[] | undefined;

  constructor(zones: Zones) {
    this.zones = zones;
  }

  /**
   * Every row of a listing, through the spreadsheet's cache: `ctx.rows('inventory.units', { customerId },
   * (a) => a.inventory.units)`. The cache names it by `name` (`resource.method`) and `params` (sorted, undefined
   * ones dropped); on a miss, that method is called with those params and every page is fetched.
   */
  abstract rows<P extends Record<string, unknown>, T extends Record<string, unknown>>(
    name: string,
    params: P,
    list: Listing<P, T>,
  ): Operation<T[]>;

  /**
   * Rows `fetch` computes (a walk kept to what matches, a resource by id), cached like a listing under `name` and
   * `params`: `ctx.cached('orders.get', { id }, function* (r) { return [yield* r.one(r.api.orders.get(id))]; })`.
   */
  abstract cached<T extends Record<string, unknown>>(
    name: string,
    params: Record<string, unknown>,
    fetch: (reader: Reader) => Operation<T[]>,
  ): Operation<T[]>;

  /** A listing already at hand (`request` as `listingRequest` names it), fetching nothing; null when it is not. */
  protected abstract peek<T extends Record<string, unknown>>(request: string): T[] | null;

  /** An org-local `YYYY-MM-DD` day as the spreadsheet shows a date. */
  abstract dayCell(day: string | null | undefined): Cell;

  /** An API timestamp as the spreadsheet shows a date-time, at the organization's wall-clock time. */
  abstract timeCell(iso: string | null | undefined): Cell;

  *customers(): Operation<Customer[]> {
    this.known_ = yield* this.rows('customers.list', {}, (a) => a.customers.list);
    return this.known_;
  }

  /**
   * A customer argument as the id a listing filters on, reading the customers list only when it must: an
   * argument shaped like an id is taken as one (the API answers 404 for an id the key does not see), a name is
   * looked up, and so is any argument once the list is at hand.
   */
  *customerRef(input: unknown): Operation<{ id: string; customer?: Customer }> {
    const q = text(input, 'customer');
    if (q === undefined) throw new ArgError('Give a customer id or name.');
    const listed = this.peek<Customer>(listingRequest('customers.list', {}).request);
    if (!listed && ID_SHAPED.test(q)) return { id: q };
    const customer = resolveCustomerFrom(q, listed ?? (yield* this.customers()));
    return { id: customer.id, customer };
  }

  *customer(input: unknown): Operation<Customer> {
    return resolveCustomerFrom(text(input, 'customer')!, yield* this.customers());
  }

  /** A customer's name from the list `customers()` read (tables read it first; see columns.ts). */
  customerName(id: string | null | undefined): string {
    if (!id) return '';
    return this.known_?.find((c) => c.id === id)?.name ?? id;
  }

  departmentName(id: string | null | undefined): string {
    if (!id) return '';
    for (const c of this.known_ ?? []) for (const d of c.departments) if (d.id === id) return d.name;
    return id;
  }

  /** A department by id or name, within one customer when given. */
  *department(input: unknown, customer?: Customer): Operation<{ id: string; name: string }> {
    const q = text(input, 'department')!;
    const pool = (customer ? [customer] : yield* this.customers()).flatMap((c) =>
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

  items(): Operation<Item[]> {
    return this.rows('items.list', {}, (a) => a.items.list);
  }

  /** An item by id, name or SKU. */
  *item(input: unknown): Operation<Item> {
    const q = text(input, 'item'); // read before the items are listed: a wrong argument costs no request
    return this.pick(yield* this.items(), q, 'item');
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

  /** A date argument as an org-local day: a date cell (read in the spreadsheet's zone), a serial number or `YYYY-MM-DD`. */
  day(input: unknown, name: string): string | undefined {
    return day(input, name, this.zones.sheet);
  }

  /** A from/to pair, checked for order. */
  window(from: unknown, to: unknown, required: boolean): { from?: string; to?: string } {
    return window(from, to, required, this.zones.sheet);
  }

  /** Reads for `cached` work, within this call's time. */
  protected reader(api: Api, budgetMs: number): Reader {
    return {
      api,
      all: (def) => collect(def, { budgetMs }),
      one: (def) => def.op({ budgetMs }),
    };
  }
}
