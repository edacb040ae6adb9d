/**
 * `sandbox.changes`: the sandbox's data changed while it runs, as the provider's data changes under a real key
 * (a cart count closes short, a signal is raised or reopened, a ticket moves on, an invoice is paid or falls
 * overdue, an order is spent, a day's deliveries come in short). Each method validates its input as the matching
 * `/__sandbox/changes/*` control does (a 422 or 404 ApiError with one sentence), makes a new version of the data
 * that every `/v1` endpoint serves from the next request on, and answers with the changed records as `/v1`
 * lists them. `reset()` serves the seeded data again.
 */
import type { CartCount, InventorySignal, PurchaseOrder } from '../model.ts';
import { Rng } from '../seed/prng.ts';
import { addCartCount, changeCartCount, closeCountShort } from './cart-counts.ts';
import type { ChangeContext, Outcome } from './context.ts';
import { type DeliveryChange, setDailyDelivery } from './deliveries.ts';
import {
  type AddCartCount,
  type AddInvoice,
  type AddPurchaseOrder,
  type AddSignal,
  addCartCountInput,
  addInvoiceInput,
  addPurchaseOrderInput,
  addSignalInput,
  type ChangeCartCount,
  type ChangeInvoice,
  type ChangeSignal,
  type ChangeTicket,
  type CloseCountShort,
  changeCartCountInput,
  changeInvoiceInput,
  changeSignalInput,
  changeTicketInput,
  closeCountShortInput,
  type OpenTicket,
  openTicketInput,
  type PayInvoice,
  parseInput,
  payInvoiceInput,
  type SetDailyDelivery,
  type SpendPurchaseOrder,
  setDailyDeliveryInput,
  spendPurchaseOrderInput,
} from './input.ts';
import {
  addInvoice,
  addPurchaseOrder,
  changeInvoice,
  type InvoiceChange,
  payInvoice,
  spendPurchaseOrder,
} from './invoices.ts';
import { changeSignal, raiseSignal } from './signals.ts';
import { ChangeClock, type DataStore } from './store.ts';
import { changeTicket, openTicket, type TicketRow } from './tickets.ts';

export interface ChangeLogEntry {
  /** What was done, e.g. `invoices.pay`. */
  change: string;
  /** The records added or changed. */
  ids: string[];
  at: string;
}

export interface ChangeOptions {
  store: DataStore;
  /** Org-local "today" of the sandbox. */
  today: () => string;
  /** Wall clock, epoch ms. */
  now: () => number;
  /** The instant the served data is "as of" (epoch ms): changes are stamped after it. */
  asOf: number;
  /** When the sandbox started (epoch ms, wall clock). */
  startedAt: number;
}

export class SandboxChanges {
  private readonly store: DataStore;
  private readonly today: () => string;
  private readonly clock: ChangeClock;
  private readonly entries: ChangeLogEntry[] = [];
  /** Counts every change since the sandbox started (never reset), so an id is never given out twice. */
  private sequence = 0;

  constructor(options: ChangeOptions) {
    this.store = options.store;
    this.today = options.today;
    this.clock = new ChangeClock(options.now, options.asOf, options.startedAt);
  }

  /** The changes made since the start or the last reset, oldest first. */
  get log(): readonly ChangeLogEntry[] {
    return this.entries;
  }

  /** Serves the seeded data again, as it was generated. */
  reset(): void {
    this.store.reset();
    this.entries.length = 0;
  }

  addCartCount(input: AddCartCount): CartCount {
    const body = parseInput(addCartCountInput, input, 'cart count');
    return this.apply('cart_counts.add', (ctx) => addCartCount(ctx, body));
  }

  changeCartCount(id: string, input: ChangeCartCount): CartCount {
    const body = parseInput(changeCartCountInput, input, 'cart count change');
    return this.apply('cart_counts.change', (ctx) => changeCartCount(ctx, id, body));
  }

  /** Closes a cart's count of a day (today by default, taken now if it has none) `short_by` pieces short. */
  closeCartCountShort(input: CloseCountShort): CartCount {
    const body = parseInput(closeCountShortInput, input, 'short close');
    return this.apply('cart_counts.close_short', (ctx) => closeCountShort(ctx, body));
  }

  addSignal(input: AddSignal): InventorySignal {
    const body = parseInput(addSignalInput, input, 'signal');
    return this.apply('signals.add', (ctx) => raiseSignal(ctx, body));
  }

  changeSignal(id: string, input: ChangeSignal): InventorySignal {
    const body = parseInput(changeSignalInput, input, 'signal change');
    return this.apply('signals.change', (ctx) => changeSignal(ctx, id, body));
  }

  openTicket(input: OpenTicket): TicketRow {
    const body = parseInput(openTicketInput, input, 'quality ticket');
    return this.apply('quality_tickets.open', (ctx) => openTicket(ctx, body));
  }

  changeTicket(id: string, input: ChangeTicket): TicketRow {
    const body = parseInput(changeTicketInput, input, 'quality ticket change');
    return this.apply('quality_tickets.change', (ctx) => changeTicket(ctx, id, body));
  }

  addInvoice(input: AddInvoice): InvoiceChange {
    const body = parseInput(addInvoiceInput, input, 'invoice');
    return this.apply('invoices.add', (ctx) => addInvoice(ctx, body));
  }

  /** A settled payment of an invoice (of its whole balance unless `amount_cents` says less). */
  payInvoice(id: string, input: PayInvoice = {}): InvoiceChange {
    const body = parseInput(payInvoiceInput, input, 'payment');
    return this.apply('invoices.pay', (ctx) => payInvoice(ctx, id, body));
  }

  changeInvoice(id: string, input: ChangeInvoice): InvoiceChange {
    const body = parseInput(changeInvoiceInput, input, 'invoice change');
    return this.apply('invoices.change', (ctx) => changeInvoice(ctx, id, body));
  }

  addPurchaseOrder(input: AddPurchaseOrder): PurchaseOrder {
    const body = parseInput(addPurchaseOrderInput, input, 'purchase order');
    return this.apply('purchase_orders.add', (ctx) => addPurchaseOrder(ctx, body));
  }

  /** Spends part of an active order's budget: an invoice sent now that draws it down. */
  spendPurchaseOrder(id: string, input: SpendPurchaseOrder): InvoiceChange {
    const body = parseInput(spendPurchaseOrderInput, input, 'purchase order spend');
    return this.apply('purchase_orders.spend', (ctx) => spendPurchaseOrder(ctx, id, body));
  }

  /** Sets the pieces of an item delivered to a department (or customer level) on a day. */
  setDailyDelivery(input: SetDailyDelivery): DeliveryChange {
    const body = parseInput(setDailyDeliveryInput, input, 'daily delivery');
    return this.apply('deliveries.set', (ctx) => setDailyDelivery(ctx, body));
  }

  /** Runs one change against the current version and, if it succeeds, serves the version it made. */
  private apply<T>(change: string, run: (ctx: ChangeContext) => Outcome<T>): T {
    const data = this.store.current;
    const rng = new Rng(`linen-connect:changes:${data.seeded.today}#${++this.sequence}`);
    let last = 0;
    const ctx: ChangeContext = {
      data,
      today: this.today(),
      timeZone: data.organization.time_zone,
      at: () => (last = this.clock.next()),
      newId: () => rng.id(),
    };
    const outcome = run(ctx);
    this.store.commit(outcome.next);
    this.entries.push({ change, ids: outcome.ids, at: new Date(last || this.clock.next()).toISOString() });
    return outcome.answer;
  }
}
