/**
 * The listings a digest kind may read, and how each is read from a key's snapshot (`runner.ts` `KeySnapshot`):
 * the snapshot fetches each API listing once per key per tick, so every subscription of a key that reads it shares
 * one walk. A kind names the ones it needs in `reads`; a new listing is one entry here and one in the snapshot.
 */
import {
  addDays,
  type Customer,
  type CustomerTicket,
  type DailyDeliveryRow,
  type InventorySignal,
  type Invoice,
  type PurchaseOrder,
} from '../../../shared/index.ts';
import type { KeySnapshot } from '../runner.ts';
import type { Subscription } from '../storage/types.ts';
import { customerScope } from './customer-scope.ts';

export interface Listings {
  /** The key's open and acknowledged signals, of every signal kind (a digest keeps its own). */
  signals: readonly InventorySignal[];
  /** The daily delivery rows of the seven whole days ending the day before the run (org-local), oldest first. */
  deliveriesLastWeek: readonly DailyDeliveryRow[];
  /** The key's open invoices: sent and partially paid. */
  openInvoices: readonly Invoice[];
  /** The key's active purchase orders. */
  activePurchaseOrders: readonly PurchaseOrder[];
  /** Every quality ticket of the subscription's customers, each tagged with its customer. */
  customerTickets: readonly CustomerTicket[];
}

export type ListingName = keyof Listings;

/** What a listing may depend on besides the key: the subscription, the run's day, the key's customers. */
interface ListingRun {
  subscription: Subscription;
  yesterday: string;
  customers: Promise<readonly Customer[]>;
}

const LISTINGS: { readonly [L in ListingName]: (snap: KeySnapshot, run: ListingRun) => Promise<Listings[L]> } = {
  signals: (snap) => snap.signals(),
  deliveriesLastWeek: (snap, run) => snap.deliveriesBetween(addDays(run.yesterday, -6), run.yesterday),
  openInvoices: (snap) => snap.openInvoices(),
  activePurchaseOrders: (snap) => snap.activePurchaseOrders(),
  customerTickets: async (snap, run) => {
    // A ticket does not say whose it is: one listing per customer of the subscription.
    const customers = await run.customers;
    const inScope = customerScope(run.subscription, customers);
    const mine = customers.filter((c) => inScope(c.id));
    const lists = await Promise.all(mine.map((c) => snap.ticketsOf(c.id)));
    return mine.flatMap((c, i) => lists[i]!.map((t) => ({ ...t, customerId: c.id })));
  },
};

/** The listings `reads` names, all started at once (the key's customers' with them, not before them). */
export async function readListings(
  reads: readonly ListingName[],
  snap: KeySnapshot,
  run: ListingRun,
): Promise<Partial<Listings>> {
  const entries = await Promise.all(reads.map(async (name) => [name, await LISTINGS[name](snap, run)] as const));
  return Object.fromEntries(entries);
}
