/**
 * Checking a Linen key before it is kept: list its customers (a 401 means the key is wrong), then one cheap request
 * per scope (a page of one row), a 403 meaning the key lacks that scope. One operation, for either runner.
 */

import type { Operation } from './core/effects.ts';
import type { Budget } from './core/send.ts';
import { collect } from './core/walk.ts';
import { PermissionDeniedError } from './errors.ts';
import type { Api } from './resources/index.ts';
import type { Customer } from './schemas/customers.ts';

export type KeyScope = 'processing' | 'accounting' | 'direct_sales';
export const KEY_SCOPES: readonly KeyScope[] = ['processing', 'accounting', 'direct_sales'];

export interface KeyReport {
  customers: Customer[];
  /** The scopes the key has, in `KEY_SCOPES` order. */
  scopes: KeyScope[];
}

/** The cheapest request each scope gates. */
const PROBES: Record<KeyScope, (api: Api) => { page: (req: { limit: number }, b: Budget) => Operation<unknown> }> = {
  processing: (api) => api.inventory.units(),
  accounting: (api) => api.balance.list(),
  direct_sales: (api) => api.orders.list(),
};

/** The key's customers and working scopes; throws the client's error (AuthenticationError for a wrong key). */
export function* checkKey(api: Api, budgetMs: number): Operation<KeyReport> {
  const budget: Budget = { budgetMs };
  const customers = yield* collect(api.customers.list(), budget);
  const scopes: KeyScope[] = [];
  for (const scope of KEY_SCOPES) {
    try {
      yield* PROBES[scope](api).page({ limit: 1 }, budget);
      scopes.push(scope);
    } catch (e) {
      if (!(e instanceof PermissionDeniedError)) throw e;
    }
  }
  return { customers, scopes };
}
