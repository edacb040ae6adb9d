/**
 * The reports both surfaces show. Each is one operation (so it runs on either client and shares one time
 * budget across its requests), built from as few list walks as the numbers need.
 */
import type { CallDef } from '../core/defs.ts';
import type { Operation } from '../core/effects.ts';
import type { Budget } from '../core/send.ts';
import { collect } from '../core/walk.ts';
import { addDays, type DateInput, type DayWindow, lastCompleteDays, today, toIsoDay } from '../dates.ts';
import { InvalidParamsError } from '../errors.ts';
import { failedCall, type ResourceContext } from '../resources/define.ts';
import type { Api } from '../resources/index.ts';
import type { PO_STATUSES } from '../schemas/accounting.ts';
import type { Customer } from '../schemas/customers.ts';
import type { Unit } from '../schemas/inventory.ts';
import type { OrderDetail } from '../schemas/orders.ts';
import type { ManifestDetail } from '../schemas/processing.ts';
import type { QualityTicket, TicketStatus } from '../schemas/quality.ts';
import { type ArReport, computeAr, owesAnything } from './ar.ts';
import { computeFillRate, type FillRateReport } from './fill-rate.ts';
import { groupLocations } from './groups.ts';
import { type AgedInvoice, ageInvoices } from './invoices.ts';
import {
  MANIFEST_NUMBER,
  manifestWindow,
  notVisible,
  ORDER_NUMBER,
  orderWindow,
  parseDisplayNumber,
  parseTicketNumber,
  resolveCustomerFrom,
  ticketNotFound,
  ticketStatusLabel,
  ticketWindow,
  UNDELIVERED_STATUSES,
} from './lookup.ts';
import { computePoStatus, type PoStatus } from './purchase-orders.ts';
import { computeRewashRate, type RewashRate } from './rewash-rate.ts';
import { computeShort, type ShortReport, unitsOfPlace } from './short.ts';
import { groupSignals, SHORTFALL_KINDS, type SignalGroup } from './signals.ts';
import { apiStatus, type CustomerTicket, newestFirst, tagTickets } from './tickets.ts';

export interface FillRateParams {
  customerId: string;
  departmentId?: string | undefined;
  itemId?: string | undefined;
  /** Default: the last 7 whole org-local days, ending yesterday (today is only partly delivered). */
  from?: DateInput | undefined;
  to?: DateInput | undefined;
}

export interface SignalReportParams {
  customerId?: string | undefined;
  /** The signal kinds wanted (default: the shortfall kinds). */
  kinds?: readonly string[] | undefined;
}

/** What is short now, over which count days, and where (a department or unit), when narrowed. */
export type ShortToday = ShortReport & { window: DayWindow; place: string | null };

type PoStatusFilter = (typeof PO_STATUSES)[number];

export type TicketWithLabel = QualityTicket & { statusLabel: string };

function report<T>(endpoint: string, op: (budget: Budget) => Operation<T>): CallDef<T> {
  return { kind: 'call', endpoint, op };
}

/** Argument errors surface when the report runs (a rejection on the async client), never as a request. */
function guard<A extends unknown[], T>(name: string, fn: (...args: A) => CallDef<T>): (...args: A) => CallDef<T> {
  return (...args) => {
    try {
      return fn(...args);
    } catch (e) {
      return failedCall(`report ${name}`, e);
    }
  };
}

/** One customer (`customerId`), or several (`customerIds`: a group and its locations); neither: every one. */
interface CustomersParams {
  customerId?: string | undefined;
  customerIds?: readonly string[] | undefined;
}

/** The API filter for one customer; for several, every customer's rows kept to theirs. */
function customerFilter(params: CustomersParams): {
  customerId: string | undefined;
  keep: <T extends { customer_id: string }>(rows: T[]) => T[];
} {
  const ids = params.customerIds;
  if (!ids || ids.length === 0) return { customerId: params.customerId, keep: (rows) => rows };
  if (ids.length === 1) return { customerId: ids[0], keep: (rows) => rows };
  const set = new Set(ids);
  return { customerId: undefined, keep: (rows) => rows.filter((r) => set.has(r.customer_id)) };
}

/** The org-local day a report is "as of": the one given, else today. */
function dayOf(ctx: ResourceContext, asOf: DateInput | undefined): string {
  return asOf === undefined ? today(ctx.timeZone, ctx.clock()) : toIsoDay(asOf, ctx.timeZone, 'asOf');
}

/** A from/to window; a missing one is the last `days` whole days, ending yesterday. */
function windowOf(ctx: ResourceContext, from: DateInput | undefined, to: DateInput | undefined, days = 7): DayWindow {
  const dflt = lastCompleteDays(days, ctx.timeZone, ctx.clock());
  const w = {
    from: from === undefined ? undefined : toIsoDay(from, ctx.timeZone, 'from'),
    to: to === undefined ? dflt.to : toIsoDay(to, ctx.timeZone, 'to'),
  };
  return { from: w.from ?? (to === undefined ? dflt.from : w.to), to: w.to };
}

export function defineReports(ctx: ResourceContext, api: Api) {
  return {
    /** Fill rate of a customer (optionally a department and an item) over a window. */
    fillRate: guard('fillRate', (params: FillRateParams): CallDef<FillRateReport> => {
      if (!params || typeof params.customerId !== 'string' || params.customerId === '') {
        throw new InvalidParamsError({ message: 'fillRate needs a customerId' });
      }
      const window = windowOf(ctx, params.from, params.to);
      const list = api.deliveries.daily({
        customerId: params.customerId,
        departmentId: params.departmentId,
        itemId: params.itemId,
        from: window.from,
        to: window.to,
      });
      return report('report fillRate', function* (budget) {
        const rows = yield* collect(list, budget);
        return computeFillRate(rows, { ...params, window, today: today(ctx.timeZone, ctx.clock()) });
      });
    }),

    /**
     * Balance and aging per customer and per currency, with the open invoices: the API's rows for the customer
     * asked (every customer without one). A group with no open balance of its own gets its suggested locations'
     * rows added, labelled as theirs. `customers` (the key's list, when the caller already has it) saves its
     * listing; it is read only for a customer that owes nothing.
     */
    accountsReceivable: guard(
      'accountsReceivable',
      (
        params: { customerId?: string | undefined; customers?: readonly Customer[] | undefined } = {},
      ): CallDef<ArReport> => {
        const receivables = function* (customerId: string | undefined, budget: Budget) {
          const balances = yield* collect(api.balance.list({ customerId }), budget);
          const open = [
            ...(yield* collect(api.invoices.list({ customerId, status: 'sent' }), budget)),
            ...(yield* collect(api.invoices.list({ customerId, status: 'partially_paid' }), budget)),
          ];
          return { balances, open };
        };
        return report('report accountsReceivable', function* (budget) {
          const own = yield* receivables(params.customerId, budget);
          if (params.customerId === undefined || owesAnything(own.balances, own.open))
            return computeAr(own.balances, own.open);
          const cs = params.customers ?? (yield* collect(api.customers.list(), budget));
          const asked = cs.find((c) => c.id === params.customerId);
          if (!asked?.is_group) return computeAr(own.balances, own.open);
          const locations = groupLocations(asked, cs);
          const group = { customerId: asked.id, customerName: asked.name, locations: locations.map((l) => l.name) };
          if (!locations.length) return computeAr(own.balances, own.open, group);
          // One listing of every customer's rows, kept for the locations, rather than one listing per location.
          const ids = new Set(locations.map((l) => l.id));
          const all = yield* receivables(undefined, budget);
          const theirs = <T extends { customer_id: string }>(rows: T[]) => rows.filter((r) => ids.has(r.customer_id));
          return computeAr([...own.balances, ...theirs(all.balances)], [...own.open, ...theirs(all.open)], group);
        });
      },
    ),

    /**
     * Standing (open and acknowledged) signals grouped by customer, department and item, most severe first: the
     * shortfall kinds by default. One listing of every kind, filtered here (the list of kinds is open).
     */
    shortfallSignals: guard('shortfallSignals', (params: SignalReportParams = {}): CallDef<SignalGroup[]> => {
      const kinds: readonly string[] = params.kinds ?? SHORTFALL_KINDS;
      const list = api.inventory.signals({ customerId: params.customerId });
      const customers = api.customers.list();
      return report('report shortfallSignals', function* (budget) {
        const signals = (yield* collect(list, budget)).filter((s) => kinds.includes(s.kind));
        const cs = yield* collect(customers, budget);
        return groupSignals(signals, cs);
      });
    }),

    /**
     * What is missing right now by unit and item, from each cart's latest count of the last 7 days (today
     * included). `place` narrows to a department (its units) or a unit of the customer.
     */
    shortToday: guard(
      'shortToday',
      (
        params: { customerId?: string | undefined; place?: string | undefined; asOf?: DateInput | undefined } = {},
      ): CallDef<ShortToday> => {
        if (params.place !== undefined && !params.customerId)
          throw new InvalidParamsError({ message: 'give the customer of the department or unit' });
        const asOf = dayOf(ctx, params.asOf);
        const window = { from: addDays(asOf, -6), to: asOf };
        const counts = api.inventory.counts({ customerId: params.customerId, ...window });
        return report('report shortToday', function* (budget) {
          let place: { label: string; units: Unit[] } | null = null;
          if (params.place !== undefined && params.customerId) {
            const customerId = params.customerId;
            const cs = yield* collect(api.customers.list(), budget);
            const customer = resolveCustomerFrom(customerId, cs);
            const depts = yield* collect(api.customers.departments(customerId), budget);
            const units = yield* collect(api.inventory.units({ customerId }), budget);
            place = unitsOfPlace(params.place, customer, depts, units);
          }
          const rows = yield* collect(counts, budget);
          const ids = place ? new Set(place.units.map((u) => u.id)) : undefined;
          return { ...computeShort(rows, ids), window, place: place?.label ?? null };
        });
      },
    ),

    /** Rewash pounds against soil pounds over a window (default: the last 30 whole days), split by fault. */
    rewashRate: guard('rewashRate', (params: FillRateParams): CallDef<RewashRate> => {
      if (!params || typeof params.customerId !== 'string' || params.customerId === '') {
        throw new InvalidParamsError({ message: 'rewashRate needs a customerId' });
      }
      const window = windowOf(ctx, params.from, params.to, 30);
      const customerId = params.customerId;
      const batches = api.rewash.list({ customerId, ...window });
      const manifests = api.manifests.list({ customerId, type: 'normal', ...window });
      return report('report rewashRate', function* (budget) {
        return computeRewashRate(yield* collect(batches, budget), yield* collect(manifests, budget), window);
      });
    }),

    /**
     * Manifests by display number, with their detail (bins, signature, held rewash, rewash links). Numbers are
     * unique only per plant, so every match is returned. The listing is narrowed to the delivered days of the
     * number's year; undelivered manifests are looked for by status when it finds none.
     */
    findManifests: guard(
      'findManifests',
      (manifestNumber: string, params: { customerId?: string | undefined } = {}): CallDef<ManifestDetail[]> => {
        const { number, year } = parseDisplayNumber(manifestNumber, MANIFEST_NUMBER);
        const customerId = params.customerId;
        const list = api.manifests.list({ customerId, ...manifestWindow(year) });
        return report('report findManifests', function* (budget) {
          let found = (yield* collect(list, budget)).filter((m) => m.manifest_number === number);
          for (const status of UNDELIVERED_STATUSES) {
            if (found.length) break;
            const open = yield* collect(api.manifests.list({ customerId, status }), budget);
            found = open.filter((m) => m.manifest_number === number);
          }
          if (!found.length) throw notVisible(`manifest ${number}`);
          const details: ManifestDetail[] = [];
          for (const m of found) details.push(yield* api.manifests.get(m.id).op(budget));
          return details;
        });
      },
    ),

    /** Direct-sales orders by display number, with their lines and charges (drafts are looked for last). */
    findOrders: guard('findOrders', (orderNumber: string): CallDef<OrderDetail[]> => {
      const { number, year } = parseDisplayNumber(orderNumber, ORDER_NUMBER);
      const list = api.orders.list(orderWindow(year));
      return report('report findOrders', function* (budget) {
        let found = (yield* collect(list, budget)).filter((o) => o.order_number === number);
        if (!found.length)
          found = (yield* collect(api.orders.list({ stage: 'draft' }), budget)).filter(
            (o) => o.order_number === number,
          );
        if (!found.length) throw notVisible(`order ${number}`);
        const details: OrderDetail[] = [];
        for (const o of found) details.push(yield* api.orders.get(o.id).op(budget));
        return details;
      });
    }),

    /**
     * Purchase orders (active ones by default) with remaining and spent shares and days to expiry. `customerIds`
     * (a group and its locations) lists every customer's and keeps theirs.
     */
    purchaseOrders: guard(
      'purchaseOrders',
      (
        params: CustomersParams & { status?: PoStatusFilter | undefined; asOf?: DateInput | undefined } = {},
      ): CallDef<PoStatus[]> => {
        const asOf = dayOf(ctx, params.asOf);
        const { customerId, keep } = customerFilter(params);
        const list = api.purchaseOrders.list({ customerId, status: params.status ?? 'active' });
        return report('report purchaseOrders', function* (budget) {
          return computePoStatus(keep(yield* collect(list, budget)), asOf, ctx.timeZone);
        });
      },
    ),

    /** Open invoices (sent and partially paid) with their days overdue, most overdue first. */
    openInvoices: guard(
      'openInvoices',
      (params: CustomersParams & { asOf?: DateInput | undefined } = {}): CallDef<AgedInvoice[]> => {
        const asOf = dayOf(ctx, params.asOf);
        const { customerId, keep } = customerFilter(params);
        const sent = api.invoices.list({ customerId, status: 'sent' });
        const partial = api.invoices.list({ customerId, status: 'partially_paid' });
        return report('report openInvoices', function* (budget) {
          const open = [...(yield* collect(sent, budget)), ...(yield* collect(partial, budget))];
          return ageInvoices(
            keep(open).filter((i) => i.balance_cents > 0),
            asOf,
            ctx.timeZone,
          );
        });
      },
    ),

    /**
     * Quality tickets of the given customers, each tagged with its customer: one listing per customer (the
     * API filters tickets by customer; a ticket does not say whose it is). Several statuses are filtered here.
     */
    tickets: guard(
      'tickets',
      (params: {
        customerIds: readonly string[];
        statuses?: readonly TicketStatus[] | undefined;
      }): CallDef<CustomerTicket[]> => {
        const status = apiStatus(params.statuses);
        const lists = params.customerIds.map((customerId) => ({
          customerId,
          list: api.qualityTickets.list({ customerId, status }),
        }));
        return report('report tickets', function* (budget) {
          const out: CustomerTicket[] = [];
          for (const { customerId, list } of lists)
            out.push(...tagTickets(customerId, yield* collect(list, budget), params.statuses));
          return out.sort(newestFirst);
        });
      },
    ),

    /** A quality ticket by its display number, listing only the year the number carries. */
    findTicket: guard(
      'findTicket',
      (ticketNumber: string, params: { customerId?: string | undefined } = {}): CallDef<TicketWithLabel> => {
        const { number, year } = parseTicketNumber(ticketNumber);
        const window = ticketWindow(year);
        const list = api.qualityTickets.list({ customerId: params.customerId, from: window.from, to: window.to });
        return report('report findTicket', function* (budget) {
          const seen = yield* collect(list, budget, (t) => t.ticket_number === number);
          const found = seen.find((t) => t.ticket_number === number);
          if (!found) throw ticketNotFound(number);
          return { ...found, statusLabel: ticketStatusLabel(found) };
        });
      },
    ),

    /** A customer given by id or display name; unknown or ambiguous names fail listing close matches. */
    resolveCustomer: guard('resolveCustomer', (idOrName: string): CallDef<Customer> => {
      const list = api.customers.list();
      return report('report resolveCustomer', function* (budget) {
        return resolveCustomerFrom(idOrName, yield* collect(list, budget));
      });
    }),
  };
}

export type { Aging, ArCustomer, ArTotal } from './ar.ts';
export type { FillRateBucket } from './fill-rate.ts';
export { groupLocations, groupWithoutOwn, locationsPhrase, nameList } from './groups.ts';
export {
  AGING_BUCKETS,
  AGING_LABELS,
  type AgedInvoice,
  type AgingBucket,
  ageInvoices,
  daysOverdue,
} from './invoices.ts';
export { computePoStatus, type PoStatus } from './purchase-orders.ts';
export { computeRewashRate, type RewashRate } from './rewash-rate.ts';
export { computeShort, serves, unitsOfPlace } from './short.ts';
export { signalsOfKind } from './signals.ts';
export { type CustomerTicket, newestFirst, OPEN_TICKET_STATUSES, tagTickets } from './tickets.ts';
export type { ArReport, FillRateReport, SignalGroup };
export {
  computeAr,
  computeFillRate,
  groupSignals,
  parseTicketNumber,
  resolveCustomerFrom,
  SHORTFALL_KINDS,
  ticketStatusLabel,
};
