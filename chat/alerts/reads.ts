/**
 * The listings one check of a key reads, over the shared client: each fetched on first use and shared by every
 * alert on the key (whatever their number, channels or people), walking every page. A listing that failed is not
 * asked again by the same reads: its alerts fail this check together and the next check asks afresh.
 */
import { addDays, type LinenClient, today } from '../../shared/index.ts';
import type { AlertReads } from './kind.ts';

export interface AlertReadsOptions {
  /** The instant of the check: tickets are read from a year before its org-local day. */
  now: Date;
  /** Stops the walks under way (the worker shutting down). */
  signal?: AbortSignal | undefined;
}

/** Tickets opened this many days back are read (a ticket's listing filters on its created day). */
export const TICKET_DAYS = 365;

export function alertReads(client: LinenClient, options: AlertReadsOptions): AlertReads {
  const walk = { signal: options.signal };
  const memo = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, fetch: () => Promise<T>): Promise<T> => {
    let p = memo.get(key) as Promise<T> | undefined;
    if (!p) {
      p = Promise.resolve().then(fetch);
      // Each alert awaits it (a failure is that alert's failure for this check); none is left unhandled.
      p.catch(() => {});
      memo.set(key, p);
    }
    return p;
  };
  const ticketsFrom = addDays(today(client.timeZone, options.now), -TICKET_DAYS);
  return {
    customers: () => once('customers', () => client.customers.list().all(walk)),
    cartCounts: (day) => once(`counts ${day}`, () => client.inventory.counts({ from: day, to: day }).all(walk)),
    units: () => once('units', () => client.inventory.units().all(walk)),
    departments: (customerId) =>
      once(`departments ${customerId}`, () => client.customers.departments(customerId).all(walk)),
    // Without a status the API lists open and acknowledged signals.
    signals: () => once('signals', () => client.inventory.signals().all(walk)),
    ticketsOf: (customerId) =>
      once(`tickets ${customerId}`, () => client.qualityTickets.list({ customerId, from: ticketsFrom }).all(walk)),
    openInvoices: () =>
      once('invoices', async () => {
        const [sent, partial] = await Promise.all([
          client.invoices.list({ status: 'sent' }).all(walk),
          client.invoices.list({ status: 'partially_paid' }).all(walk),
        ]);
        return [...sent, ...partial];
      }),
    activePurchaseOrders: () =>
      once('purchase orders', () => client.purchaseOrders.list({ status: 'active' }).all(walk)),
    deliveries: (day) => once(`deliveries ${day}`, () => client.deliveries.daily({ from: day, to: day }).all(walk)),
  };
}
