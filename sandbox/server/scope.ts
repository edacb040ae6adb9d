/** What a key sees: its customers (and, for unit-restricted keys, its units), plus per-customer row indexes. */
import type { ApiKey, SandboxData } from '../model.ts';
import { notFound } from './errors.ts';

export interface KeyScope {
  key: ApiKey;
  /** Customers of the key that exist in the data. */
  customerIds: ReadonlySet<string>;
  /** True when the key sees every customer (lists need no per-row filtering). */
  allCustomers: boolean;
  /** Units the key's user counts; null when unrestricted. */
  unitIds: ReadonlySet<string> | null;
}

const scopeCache = new WeakMap<SandboxData, WeakMap<ApiKey, KeyScope>>();

export function scopeOf(data: SandboxData, key: ApiKey): KeyScope {
  let perData = scopeCache.get(data);
  if (!perData) {
    perData = new WeakMap();
    scopeCache.set(data, perData);
  }
  let scope = perData.get(key);
  if (!scope) {
    const known = new Set(data.customers.map((c) => c.id));
    const customerIds = new Set(key.customer_ids.filter((id) => known.has(id)));
    scope = {
      key,
      customerIds,
      allCustomers: customerIds.size === known.size,
      unitIds: key.unit_ids ? new Set(key.unit_ids) : null,
    };
    perData.set(key, scope);
  }
  return scope;
}

export function canSeeCustomer(scope: KeyScope, customerId: string | null | undefined): boolean {
  return customerId != null && scope.customerIds.has(customerId);
}

/** A `customer_id` filter must name a visible customer; anything else is 404, never 403. */
export function checkCustomerFilter(scope: KeyScope, customerId: string | null): void {
  if (customerId !== null && !scope.customerIds.has(customerId)) {
    throw notFound(`Customer "${customerId}" was not found.`);
  }
}

/** Rows of a resource in list order, with the same order kept per customer. */
export interface CustomerIndex<T> {
  all: readonly T[];
  byCustomer: ReadonlyMap<string, readonly T[]>;
}

export function indexByCustomer<T>(rows: readonly T[], customerOf: (row: T) => string | null): CustomerIndex<T> {
  const byCustomer = new Map<string, T[]>();
  const all: T[] = [];
  for (const row of rows) {
    const c = customerOf(row);
    if (c === null) continue;
    all.push(row);
    let bucket = byCustomer.get(c);
    if (!bucket) {
      bucket = [];
      byCustomer.set(c, bucket);
    }
    bucket.push(row);
  }
  return { all, byCustomer };
}

/** A date window over rows sorted newest first with undated rows last (as every dated list is). */
export interface DayWindow<T> {
  dayOf: (row: T) => string | null;
  from: string | null;
  to: string | null;
}

function firstIndex<T>(rows: readonly T[], pred: (row: T) => boolean): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pred(rows[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The rows whose day lies in [from, to]; rows without a day are excluded once any bound is set. */
export function sliceWindow<T>(rows: readonly T[], window: DayWindow<T> | undefined): readonly T[] {
  if (!window || (window.from === null && window.to === null)) return rows;
  const { dayOf, from, to } = window;
  const start =
    to === null
      ? 0
      : firstIndex(rows, (r) => {
          const d = dayOf(r);
          return d === null || d <= to;
        });
  const end = firstIndex(rows, (r) => {
    const d = dayOf(r);
    return d === null || (from !== null && d < from);
  });
  if (end <= start) return [];
  const out = rows.slice(start, end);
  // Guard against an out-of-order source: keep only rows really inside the window.
  return out.filter((r) => {
    const d = dayOf(r);
    return d !== null && (from === null || d >= from) && (to === null || d <= to);
  });
}

/** The rows of the visible customers (or of the one filtered customer), in list order, within a window. */
export function visibleRows<T>(
  index: CustomerIndex<T>,
  scope: KeyScope,
  customerId: string | null,
  customerOf: (row: T) => string | null,
  window?: DayWindow<T>,
): readonly T[] {
  if (customerId !== null) return sliceWindow(index.byCustomer.get(customerId) ?? [], window);
  if (scope.allCustomers) return sliceWindow(index.all, window);
  if (scope.customerIds.size === 1) {
    const [only] = scope.customerIds;
    return sliceWindow(index.byCustomer.get(only!) ?? [], window);
  }
  return sliceWindow(index.all, window).filter((row) => canSeeCustomer(scope, customerOf(row)));
}

const memoCache = new WeakMap<SandboxData, Map<string, unknown>>();

/** Computes something once per data set (sorted lists, indexes, lookups). */
export function memo<T>(data: SandboxData, name: string, build: () => T): T {
  let perData = memoCache.get(data);
  if (!perData) {
    perData = new Map();
    memoCache.set(data, perData);
  }
  if (!perData.has(name)) perData.set(name, build());
  return perData.get(name) as T;
}
