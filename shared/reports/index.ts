/**
 * The reports both surfaces show. Each is one operation (so it runs on either client and shares one time
 * budget across its requests), built from as few list walks as the numbers need.
 */
import type { CallDef } from '../core/defs.ts';
import type { Operation } from '../core/effects.ts';
import type { Budget } from '../core/send.ts';
import { collect } from '../core/walk.ts';
import { type DateInput, type DayWindow, lastNDays, toIsoDay } from '../dates.ts';
import { InvalidParamsError } from '../errors.ts';
import { failedCall, type ResourceContext } from '../resources/define.ts';
import type { Api } from '../resources/index.ts';
import type { Customer } from '../schemas/customers.ts';
import type { QualityTicket } from '../schemas/quality.ts';
import { type ArReport, computeAr } from './ar.ts';
import { computeFillRate, type FillRateReport } from './fill-rate.ts';
import { parseTicketNumber, resolveCustomerFrom, ticketNotFound, ticketStatusLabel, ticketWindow } from './lookup.ts';
import { groupSignals, SHORTFALL_KINDS, type SignalGroup } from './signals.ts';

export interface FillRateParams {
  customerId: string;
  departmentId?: string | undefined;
  itemId?: string | undefined;
  /** Default: the last 7 org-local days, today included. */
  from?: DateInput | undefined;
  to?: DateInput | undefined;
}

export interface SignalReportParams {
  customerId?: string | undefined;
  /** Signal kinds that count as shortfall (default `shortfall_streak`). */
  kinds?: readonly string[] | undefined;
}

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

function windowOf(ctx: ResourceContext, from: DateInput | undefined, to: DateInput | undefined): DayWindow {
  const dflt = lastNDays(7, ctx.timeZone, ctx.clock());
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
        return computeFillRate(rows, { ...params, window });
      });
    }),

    /** Balance and aging per customer and per currency, with the open invoices. */
    accountsReceivable: guard(
      'accountsReceivable',
      (params: { customerId?: string | undefined } = {}): CallDef<ArReport> => {
        const balances = api.balance.list({ customerId: params.customerId });
        const sent = api.invoices.list({ customerId: params.customerId, status: 'sent' });
        const partial = api.invoices.list({ customerId: params.customerId, status: 'partially_paid' });
        return report('report accountsReceivable', function* (budget) {
          const b = yield* collect(balances, budget);
          const open = [...(yield* collect(sent, budget)), ...(yield* collect(partial, budget))];
          return computeAr(b, open);
        });
      },
    ),

    /** Standing (open and acknowledged) shortfall signals grouped by customer, department and item, most severe first. */
    shortfallSignals: guard('shortfallSignals', (params: SignalReportParams = {}): CallDef<SignalGroup[]> => {
      const kinds = params.kinds ?? SHORTFALL_KINDS;
      const lists = kinds.map((kind) => api.inventory.signals({ customerId: params.customerId, kind }));
      const customers = api.customers.list();
      return report('report shortfallSignals', function* (budget) {
        const signals = [];
        for (const l of lists) signals.push(...(yield* collect(l, budget)));
        const cs = yield* collect(customers, budget);
        return groupSignals(signals, cs);
      });
    }),

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
