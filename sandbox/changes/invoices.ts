/**
 * Invoices, their payments and purchase orders, kept as the seed keeps them: an invoice's balance is its total
 * less its settled payments (status `sent`, `partially_paid` or `paid`, `paid_at` once paid in full), a sent
 * invoice draws down its customer's active purchase order when it is sent (`spent_cents` is the total of the
 * invoices drawn from it), and `/balance` is read off the invoices, so each A/R row still equals its invoices.
 */
import { formatInTimeZone } from 'date-fns-tz';
import type { Invoice, LocalDate, Payment, PurchaseOrder, SandboxData, Timestamp } from '../model.ts';
import { type AgingRow, balanceRowOf, currencyOf } from '../routes/accounting.ts';
import { INVOICES_PER_DAY } from '../seed/accounting.ts';
import { firstFreeNumber } from '../seed/numbers.ts';
import { addDays, daysBetween, localDay } from '../server/dates.ts';
import { invalidParams, notFound } from '../server/errors.ts';
import {
  type ChangeContext,
  customerOf,
  departmentOf,
  inserted,
  isoAtLocal,
  isoOf,
  newestFirst,
  notAfterToday,
  type Outcome,
  replaced,
} from './context.ts';
import type { AddInvoice, AddPurchaseOrder, ChangeInvoice, PayInvoice, SpendPurchaseOrder } from './input.ts';

/** An invoice as `/v1/invoices` lists it, but for `pdf_url`, which is signed for the key that lists it. */
export type InvoiceRow = Omit<Invoice, 'purchase_order_id'>;

export interface InvoiceChange {
  invoice: InvoiceRow;
  /** The payment the change recorded, if any, as `/v1/payments` lists it to a key that sees every customer. */
  payment: Payment | null;
  /** The purchase order the invoice drew down, if any. */
  purchase_order: PurchaseOrder | null;
  /** The customer's row of `/v1/balance` after the change. */
  balance: AgingRow;
}

const PUBLIC: ReadonlySet<string> = new Set(['sent', 'partially_paid', 'paid']);
const byIssued = newestFirst<Invoice>((i) => i.issued_at);
const byReceived = newestFirst<Payment>((p) => p.received_at);
const byStarted = newestFirst<PurchaseOrder>((p) => p.started_at);

function invoiceRow(invoice: Invoice): InvoiceRow {
  const { purchase_order_id: _po, ...row } = invoice;
  return row;
}

function publicInvoiceOf(data: SandboxData, id: string): Invoice {
  const invoice = data.invoices.find((i) => i.id === id && PUBLIC.has(i.status));
  if (!invoice) throw notFound(`Invoice "${id}" was not found.`);
  return invoice;
}

/** `HH:mm:ss.SSS` of an instant, org-local: a due date keeps the time of day of its issue, as the seed does. */
function localTime(at: Timestamp, timeZone: string): string {
  return formatInTimeZone(new Date(at), timeZone, 'HH:mm:ss.SSS');
}

/** The due day of an invoice issued on `issuedOn`: the customer's payment terms, as most of its invoices show them. */
function termsDue(data: SandboxData, customerId: string, issuedOn: LocalDate, timeZone: string): LocalDate | null {
  const terms = new Map<number | null, number>();
  for (const i of data.invoices) {
    if (i.customer_id !== customerId) continue;
    const days = i.due_at === null ? null : daysBetween(localDay(i.issued_at, timeZone), localDay(i.due_at, timeZone));
    terms.set(days, (terms.get(days) ?? 0) + 1);
  }
  let usual: number | null = null;
  let seen = 0;
  for (const [days, n] of terms) if (n > seen) [usual, seen] = [days, n];
  return usual === null ? null : addDays(issuedOn, usual);
}

/** A settled payment of one invoice by its customer, and the invoice with its balance brought down. */
function settle(
  ctx: ChangeContext,
  invoice: Invoice,
  amount: number,
  kind: Payment['kind'],
): { invoice: Invoice; payment: Payment } {
  const receivedAt = isoOf(ctx.at());
  const payment: Payment = {
    id: ctx.newId(),
    customer_id: invoice.customer_id,
    kind,
    status: 'settled',
    amount_cents: amount,
    currency: invoice.currency,
    received_at: receivedAt,
    returned_at: null,
    allocations: [{ invoice_id: invoice.id, invoice_number: invoice.invoice_number, amount_cents: amount }],
  };
  const balance = invoice.balance_cents - amount;
  return {
    payment,
    invoice: {
      ...invoice,
      balance_cents: balance,
      status: balance === 0 ? 'paid' : 'partially_paid',
      paid_at: balance === 0 ? receivedAt : null,
    },
  };
}

/** The active order an invoice sent at `sentAt` draws down: its customer's, with `sentAt` in its term. */
function activeOrderAt(data: SandboxData, customerId: string, sentAt: Timestamp): PurchaseOrder | undefined {
  const at = Date.parse(sentAt);
  return data.purchase_orders.find(
    (po) =>
      po.customer_id === customerId &&
      po.status === 'active' &&
      Date.parse(po.started_at) <= at &&
      at < Date.parse(po.expires_at),
  );
}

/** The seed's rule: the remaining budget never goes below zero, the total is what was spent plus what remains. */
function drawnDown(po: PurchaseOrder, amount: number): PurchaseOrder {
  const spent = po.spent_cents + amount;
  const remaining = Math.max(0, po.total_cents - spent);
  return { ...po, spent_cents: spent, remaining_cents: remaining, total_cents: spent + remaining };
}

export function addInvoice(ctx: ChangeContext, input: AddInvoice): Outcome<InvoiceChange> {
  const { data, timeZone } = ctx;
  const customer = customerOf(data, input.customer_id);
  const department = departmentOf(data, customer, input.department_id);
  const issuedOn = input.issued_on ?? ctx.today;
  notAfterToday(ctx, 'issued_on', issuedOn);
  const dueOn = input.due_on !== undefined ? input.due_on : termsDue(data, customer.id, issuedOn, timeZone);
  if (dueOn !== null && dueOn < issuedOn)
    throw invalidParams(`"due_on" (${dueOn}) is before "issued_on" (${issuedOn}).`);
  const total = input.subtotal_cents + (input.surcharges_cents ?? 0) + (input.tax_cents ?? 0);
  const status = input.status ?? 'sent';
  const paid = status === 'paid' ? (input.paid_cents ?? total) : status === 'partially_paid' ? input.paid_cents : 0;
  if (status === 'sent' && input.paid_cents !== undefined)
    throw invalidParams('"paid_cents" goes with status partially_paid or paid; a sent invoice has no payment.');
  if (status === 'partially_paid' && (paid === undefined || paid >= total))
    throw invalidParams(`A partially paid invoice needs "paid_cents" from 1 to ${total - 1} (its total less a cent).`);
  if (status === 'paid' && paid !== total)
    throw invalidParams(`A paid invoice is paid in full: "paid_cents" must be its total, ${total}.`);
  const numbers = data.invoices.map((i) => i.invoice_number);
  if (input.invoice_number !== undefined && numbers.includes(input.invoice_number))
    throw invalidParams(`Invoice number ${input.invoice_number} is taken; invoice numbers are unique.`);

  // Issued today at the instant of the change; on an earlier day in the morning, as the seeded invoices are.
  const issuedAt = issuedOn === ctx.today ? isoOf(ctx.at()) : isoAtLocal(issuedOn, '09:00:00.000', timeZone);
  const order = activeOrderAt(data, customer.id, issuedAt);
  let invoice: Invoice = {
    id: ctx.newId(),
    invoice_number:
      input.invoice_number ??
      firstFreeNumber(
        { prefix: data.organization.invoice_prefix, digits: 6, perDay: INVOICES_PER_DAY },
        issuedOn,
        numbers,
      ),
    status: 'sent',
    customer_id: customer.id,
    department_id: department?.id ?? null,
    issued_at: issuedAt,
    due_at: dueOn === null ? null : isoAtLocal(dueOn, localTime(issuedAt, timeZone), timeZone),
    sent_at: issuedAt,
    paid_at: null,
    subtotal_cents: input.subtotal_cents,
    surcharges_cents: input.surcharges_cents ?? 0,
    tax_cents: input.tax_cents ?? 0,
    total_cents: total,
    balance_cents: total,
    currency: currencyOf(data, customer.id),
    purchase_order_id: order?.id ?? null,
  };
  let payment: Payment | null = null;
  if (paid !== undefined && paid > 0) ({ invoice, payment } = settle(ctx, invoice, paid, 'ach'));
  const drawn = order ? drawnDown(order, total) : null;
  const next: SandboxData = {
    ...data,
    invoices: inserted(data.invoices, invoice, byIssued),
    payments: payment ? inserted(data.payments, payment, byReceived) : data.payments,
    purchase_orders: drawn ? replaced(data.purchase_orders, drawn) : data.purchase_orders,
  };
  return {
    next,
    answer: {
      invoice: invoiceRow(invoice),
      payment,
      purchase_order: drawn,
      balance: balanceRowOf(next, customer, timeZone, ctx.today),
    },
    ids: [invoice.id, ...(payment ? [payment.id] : []), ...(drawn ? [drawn.id] : [])],
  };
}

export function payInvoice(ctx: ChangeContext, id: string, input: PayInvoice): Outcome<InvoiceChange> {
  const { data } = ctx;
  const invoice = publicInvoiceOf(data, id);
  if (invoice.balance_cents === 0) throw invalidParams(`Invoice ${invoice.invoice_number} is paid in full.`);
  const amount = input.amount_cents ?? invoice.balance_cents;
  if (amount > invoice.balance_cents)
    throw invalidParams(
      `Invoice ${invoice.invoice_number} has a balance of ${invoice.balance_cents} cents; a payment of ${amount} cents is more than that.`,
    );
  const paid = settle(ctx, invoice, amount, input.kind ?? 'ach');
  const next: SandboxData = {
    ...data,
    invoices: replaced(data.invoices, paid.invoice),
    payments: inserted(data.payments, paid.payment, byReceived),
  };
  return {
    next,
    answer: {
      invoice: invoiceRow(paid.invoice),
      payment: paid.payment,
      purchase_order: null,
      balance: balanceRowOf(next, customerOf(next, invoice.customer_id), ctx.timeZone, ctx.today),
    },
    ids: [invoice.id, paid.payment.id],
  };
}

export function changeInvoice(ctx: ChangeContext, id: string, input: ChangeInvoice): Outcome<InvoiceChange> {
  const { data, timeZone } = ctx;
  const invoice = publicInvoiceOf(data, id);
  if (invoice.due_at === null)
    throw invalidParams(`Invoice ${invoice.invoice_number} has no due date: its customer has no payment terms.`);
  const issuedOn = localDay(invoice.issued_at, timeZone);
  if (input.due_on < issuedOn)
    throw invalidParams(`"due_on" (${input.due_on}) is before the invoice was issued (${issuedOn}).`);
  const changed: Invoice = {
    ...invoice,
    due_at: isoAtLocal(input.due_on, localTime(invoice.due_at, timeZone), timeZone),
  };
  const next: SandboxData = { ...data, invoices: replaced(data.invoices, changed) };
  return {
    next,
    answer: {
      invoice: invoiceRow(changed),
      payment: null,
      purchase_order: null,
      balance: balanceRowOf(next, customerOf(next, invoice.customer_id), timeZone, ctx.today),
    },
    ids: [id],
  };
}

/** The last day of a year-long term starting `day`. */
function yearAfter(day: LocalDate): LocalDate {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return addDays(new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10), -1);
}

export function addPurchaseOrder(ctx: ChangeContext, input: AddPurchaseOrder): Outcome<PurchaseOrder> {
  const { data, timeZone, today } = ctx;
  const customer = customerOf(data, input.customer_id);
  const status = input.status ?? 'active';
  const startsOn = input.starts_on ?? today;
  const expiresOn = input.expires_on ?? yearAfter(startsOn);
  if (expiresOn < startsOn) throw invalidParams(`"expires_on" (${expiresOn}) is before "starts_on" (${startsOn}).`);
  if (status === 'active' && !(startsOn <= today && today <= expiresOn))
    throw invalidParams(
      `An active purchase order's term includes today (${today}); this one runs ${startsOn} to ${expiresOn}.`,
    );
  if (status === 'pending' && startsOn <= today)
    throw invalidParams(`A pending purchase order starts after today (${today}); this one starts ${startsOn}.`);
  const startedAt = isoAtLocal(startsOn, '00:00:00.000', timeZone);
  const expiresAt = isoOf(Date.parse(isoAtLocal(addDays(expiresOn, 1), '00:00:00.000', timeZone)) - 1000);
  if (status === 'active') {
    const overlap = data.purchase_orders.find(
      (po) =>
        po.customer_id === customer.id &&
        po.status === 'active' &&
        po.started_at < expiresAt &&
        startedAt < po.expires_at,
    );
    if (overlap)
      throw invalidParams(
        `${customer.name} already has an active purchase order (${overlap.po_number}) over those days; invoices draw down one.`,
      );
  }
  const numbers = new Set(data.purchase_orders.map((po) => po.po_number));
  if (input.po_number !== undefined && numbers.has(input.po_number))
    throw invalidParams(`Purchase order number ${input.po_number} is taken.`);
  let poNumber = input.po_number;
  for (let n = 1; poNumber === undefined; n++) {
    const candidate = `PO-${startsOn.slice(0, 4)}-${String(n).padStart(4, '0')}`;
    if (!numbers.has(candidate)) poNumber = candidate;
  }
  const po: PurchaseOrder = {
    id: ctx.newId(),
    customer_id: customer.id,
    po_number: poNumber,
    status,
    total_cents: input.total_cents,
    spent_cents: 0,
    remaining_cents: input.total_cents,
    currency: currencyOf(data, customer.id),
    started_at: startedAt,
    expires_at: expiresAt,
  };
  return {
    next: { ...data, purchase_orders: inserted(data.purchase_orders, po, byStarted) },
    answer: po,
    ids: [po.id],
  };
}

/** Spending on an order is an invoice sent now that draws it down (a consolidated one, no surcharge or tax). */
export function spendPurchaseOrder(ctx: ChangeContext, id: string, input: SpendPurchaseOrder): Outcome<InvoiceChange> {
  const po = ctx.data.purchase_orders.find((p) => p.id === id);
  if (!po) throw notFound(`Purchase order "${id}" was not found.`);
  if (po.status !== 'active')
    throw invalidParams(`Purchase order ${po.po_number} is ${po.status}; only an active order is drawn down.`);
  if (input.amount_cents > po.remaining_cents)
    throw invalidParams(
      `Purchase order ${po.po_number} has ${po.remaining_cents} cents left; ${input.amount_cents} cents is more than that.`,
    );
  const outcome = addInvoice(ctx, { customer_id: po.customer_id, subtotal_cents: input.amount_cents });
  if (outcome.answer.purchase_order?.id !== po.id)
    throw invalidParams(`Purchase order ${po.po_number}'s term does not include today (${ctx.today}).`);
  return outcome;
}
