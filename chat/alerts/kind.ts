/**
 * An alert kind: what a person can be told about the moment it happens (a cart count closing short, a signal
 * appearing, a ticket changing status, an invoice crossing NN days overdue, a purchase order running low, a day's par
 * met below NN%). Each kind is one module (`kinds/<name>.ts`) declaring its words, options, access class and help,
 * the listings it reads, what is true now as *occurrences*, and the one message that tells a check's new ones.
 *
 * Occurrences, not states: an occurrence's `id` names the thing and the state that made it true (`count:<id>`,
 * `ticket:<id>:resolved`, `day:2026-11-26`). The engine remembers which ids each alert saw true at its last check and
 * tells only the ones that were not: an id that stays true is never told twice; one that clears and comes back (a
 * signal resolved and reopened) is told again.
 */
import type {
  CartCount,
  Customer,
  DailyDeliveryRow,
  Department,
  InventorySignal,
  Invoice,
  PurchaseOrder,
  QualityTicket,
  Unit,
} from '../../shared/index.ts';
import type { AccessClass } from '../access-class.ts';
import type { Content } from '../content/document.ts';
import type { Rich } from '../content/rich.ts';

/** A word of the command after the kind's word, as typed (a quoted name kept whole). */
export interface Token {
  text: string;
  quoted: boolean;
}

/**
 * The listings a check reads, each fetched once per key per check and shared by every alert on the key (whatever
 * their number, channels or people). Each listing is the API's, unfiltered by any one alert.
 */
export interface AlertReads {
  /** The customers the key sees (with their departments). */
  customers(): Promise<Customer[]>;
  /** Cart counts of an org-local day (`/inventory/counts?from=day&to=day`). */
  cartCounts(day: string): Promise<CartCount[]>;
  /** The units of every customer (a department stands for the units that serve it). */
  units(): Promise<Unit[]>;
  /**
   * One customer's departments with their cost centers (a unit serves the department of its cost center; the
   * customers' listing names departments without them). Read when an alert naming a department is set.
   */
  departments(customerId: string): Promise<Department[]>;
  /** Open and acknowledged signals (the API's default listing). */
  signals(): Promise<InventorySignal[]>;
  /** One customer's quality tickets opened in the last year (a ticket does not say whose it is). */
  ticketsOf(customerId: string): Promise<QualityTicket[]>;
  /** Invoices with something still open (`sent` and `partially_paid`). */
  openInvoices(): Promise<Invoice[]>;
  /** Purchase orders with status `active`. */
  activePurchaseOrders(): Promise<PurchaseOrder[]>;
  /** Daily delivery rows of an org-local day. */
  deliveries(day: string): Promise<DailyDeliveryRow[]>;
}

export type ReadName = keyof AlertReads;

/** What an alert of a kind watches, as stored. */
export interface AlertScope<Options> {
  options: Options;
  /** Empty: every customer the key sees (a group stands for itself and its locations). */
  customerIds: readonly string[];
  timeZone: string;
}

/** The instant of a check, in the alert's time zone. */
export interface CheckTime {
  now: Date;
  /** Org-local today and yesterday (`YYYY-MM-DD`). */
  today: string;
  yesterday: string;
}

/** One thing true now. */
export interface Occurrence<Detail = unknown> {
  /** Stable identity: the thing and the state that made it true. */
  id: string;
  /** When the API says it became true (counted_at, generated_at, a ticket's status time…), or null: the delay metric. */
  at: string | null;
  /** Larger is worse: a message lists its occurrences worst first. */
  weight: number;
  /** What the message says of it; JSON, stored with the post, so the message is built from what the check saw. */
  detail: Detail;
}

/** Options read from the words after the kind's word, with the customer (and place) still as typed. */
export interface ParsedAlert<Options> {
  options: Options;
  /** A customer name or id as typed, to resolve against what the key sees. */
  customer?: string | undefined;
  /** A department or unit as typed (the kinds that take one). */
  place?: string | undefined;
}

/** What a kind's message needs beside its occurrences. */
export interface MessageContext {
  customerNames: ReadonlyMap<string, string>;
  timeZone: string;
  /** `alert test`: what it would say now, said as a test. */
  test?: boolean | undefined;
}

export interface AlertKind<Name extends string = string, Options = unknown, Detail = unknown> {
  name: Name;
  /** The words that name it after `alert` (`short`, `shortage`). */
  words: readonly string[];
  /** Who may see it where: accounting alerts follow the access rules of accounting digests. */
  access: AccessClass;
  help: { usage: string; description: string; examples: readonly string[] };
  /** Its options from the words after its word (no channel or `dm`: those are taken out first), or one sentence. */
  parse(tokens: readonly Token[]): ParsedAlert<Options> | { problem: string };
  /**
   * Checks what needs the API (a department or unit by name), in the alert's scope; returns the options to store or
   * the sentence refusing them.
   */
  resolve?(
    parsed: ParsedAlert<Options>,
    customer: Customer | undefined,
    reads: Pick<AlertReads, 'customers' | 'units' | 'departments'>,
  ): Promise<Options | { problem: string }>;
  /** What it watches, in a few words (`carts closing at least 5 pieces short at Mercy General Hospital ICU`). */
  describe(scope: AlertScope<Options>, customerNames: ReadonlyMap<string, string>): string;
  /** The listings it reads at a check (each fetched once per key, whatever the number of alerts). */
  reads: readonly ReadName[];
  /**
   * `every-check` (default) or `daily`: read only once a day, at the first check after the alert's day is over
   * (par met of the last whole day).
   */
  cadence?: 'every-check' | 'daily' | undefined;
  /**
   * What is true now for an alert of this kind. `previous`: the ids it saw true at its last check (a ticket's
   * message names its old status from them).
   */
  occurrences(
    scope: AlertScope<Options>,
    reads: AlertReads,
    time: CheckTime,
    previous: ReadonlySet<string>,
  ): Promise<Occurrence<Detail>[]>;
  /** One message telling a check's new occurrences (never empty), worst first, within the content limits. */
  message(scope: AlertScope<Options>, occurrences: readonly Occurrence<Detail>[], ctx: MessageContext): Content;
  /** The confirmation's line about what is true right now: `3 carts are short right now: /linen short lists them.` */
  nowLine(scope: AlertScope<Options>, count: number, customerNames: ReadonlyMap<string, string>): Rich;
}

/** Declares a kind: the identity function that checks every field (leaving one out fails the typecheck). */
export function defineAlertKind<Name extends string, Options, Detail>(
  kind: AlertKind<Name, Options, Detail>,
): AlertKind<Name, Options, Detail> {
  return kind;
}
