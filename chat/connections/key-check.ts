/**
 * Checking a Linen key before it is saved: list its customers (a 401 means the key is wrong), then one cheap
 * request per scope (a page of one row), a 403 meaning the key lacks that scope.
 */
import { PermissionDeniedError } from '../../shared/errors.ts';
import { createLinenClient, type LinenClient } from '../../shared/node.ts';
import type { Customer } from '../../shared/schemas/customers.ts';
import { SCOPES, type Scope } from './connection.ts';

export interface KeyReport {
  customers: Customer[];
  scopes: Scope[];
}

export interface CheckKeyOptions {
  apiKey: string;
  baseUrl: string;
  timeZone: string;
  /** Slack waits 3 s for a modal's answer: the whole check must fit (default 2.5 s). */
  timeBudgetMs?: number | undefined;
  /** A client for the key (tests); default: a fresh one, closed afterwards. */
  createClient?: ((o: { apiKey: string; baseUrl: string; timeZone: string }) => LinenClient) | undefined;
}

const probe: Record<Scope, (c: LinenClient) => Promise<unknown>> = {
  processing: (c) => c.inventory.units().page({ limit: 1 }),
  accounting: (c) => c.balance.list().page({ limit: 1 }),
  direct_sales: (c) => c.orders.list().page({ limit: 1 }),
};

/** The key's customers and working scopes; throws the client's error (AuthenticationError for a wrong key). */
export async function checkKey(options: CheckKeyOptions): Promise<KeyReport> {
  const { apiKey, baseUrl, timeZone } = options;
  const client =
    options.createClient?.({ apiKey, baseUrl, timeZone }) ??
    createLinenClient({
      apiKey,
      baseUrl,
      timeZone,
      timeBudgetMs: options.timeBudgetMs ?? 2500,
      maxRetries: 0,
      userAgent: 'linen-connect-slack/0.1',
    });
  try {
    const customers = await client.customers.list().all();
    const works = await Promise.all(
      SCOPES.map((scope) =>
        probe[scope](client).then(
          () => true,
          (err: unknown) => {
            if (err instanceof PermissionDeniedError) return false;
            throw err;
          },
        ),
      ),
    );
    return { customers, scopes: SCOPES.filter((_, i) => works[i]) };
  } finally {
    await client.close();
  }
}
