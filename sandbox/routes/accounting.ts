/** Invoices, payments, A/R balance, purchase orders and invoice PDFs. Scope: accounting. */
import type { Customer, Invoice, Payment, PurchaseOrder, SandboxData } from '../model.ts';
import { PUBLIC_INVOICE_STATUSES } from '../model.ts';
import { renderInvoicePdf } from '../pdf.ts';
import { daysBetween, localDay } from '../server/dates.ts';
import { notFound } from '../server/errors.ts';
import { list, type RouteContext, type RouteDef } from '../server/router.ts';
import { canSeeCustomer, indexByCustomer, type KeyScope, memo, visibleRows } from '../server/scope.ts';
import { byId, byText, chain, newestFirst, sorted } from '../server/sort.ts';

const PUBLIC: ReadonlySet<string> = new Set(PUBLIC_INVOICE_STATUSES);
const PO_STATUSES = ['pending', 'active', 'closed', 'cancelled'] as const;

function publicInvoices(data: SandboxData) {
  return memo(data, 'invoices', () =>
    indexByCustomer(
      sorted(
        data.invoices.filter((i) => PUBLIC.has(i.status)),
        chain<Invoice>(
          newestFirst((i) => i.issued_at),
          byId,
        ),
      ),
      (i) => i.customer_id,
    ),
  );
}

function invoicesById(data: SandboxData): ReadonlyMap<string, Invoice> {
  return memo(data, 'invoices:byId', () => new Map(publicInvoices(data).all.map((i) => [i.id, i])));
}

/** The wire shape of an invoice, with a freshly signed `pdf_url`. */
function invoiceRow(ctx: RouteContext) {
  return (invoice: Invoice) => {
    const { purchase_order_id: _po, ...row } = invoice;
    return { ...row, pdf_url: ctx.links.invoicePdfUrl(ctx.origin, invoice.id, ctx.key.key_id, ctx.nowMs) };
  };
}

function paymentRow(data: SandboxData, scope: KeyScope) {
  const invoices = invoicesById(data);
  return (p: Payment) => ({
    ...p,
    allocations: p.allocations.map((a) => {
      const invoice = invoices.get(a.invoice_id);
      const visible = invoice !== undefined && canSeeCustomer(scope, invoice.customer_id);
      return {
        invoice_id: visible ? a.invoice_id : null,
        invoice_number: visible ? a.invoice_number : null,
        amount_cents: a.amount_cents,
      };
    }),
  });
}

export interface AgingRow {
  customer_id: string;
  customer_name: string;
  balance_cents: number;
  currency: string;
  aging: { current: number; d1_30: number; d31_60: number; d61_plus: number };
}

/** The currency a customer bills in: that of its served invoices (of any invoice without one), else usd. */
export function currencyOf(data: SandboxData, customerId: string): string {
  const currencies = memo(data, 'customers:currency', () => {
    const map = new Map<string, string>();
    for (const i of data.invoices)
      if (!map.has(i.customer_id) || PUBLIC.has(i.status)) map.set(i.customer_id, i.currency);
    return map;
  });
  return currencies.get(customerId) ?? 'usd';
}

/** A customer's A/R row: its `sent` and `partially_paid` balances, aged by their due day against `today`. */
export function balanceRowOf(data: SandboxData, customer: Customer, timeZone: string, today: string): AgingRow {
  const aging = { current: 0, d1_30: 0, d31_60: 0, d61_plus: 0 };
  let balance = 0;
  for (const inv of publicInvoices(data).byCustomer.get(customer.id) ?? []) {
    if (inv.status !== 'sent' && inv.status !== 'partially_paid') continue;
    balance += inv.balance_cents;
    const pastDue = inv.due_at === null ? 0 : daysBetween(localDay(inv.due_at, timeZone), today);
    if (pastDue <= 0) aging.current += inv.balance_cents;
    else if (pastDue <= 30) aging.d1_30 += inv.balance_cents;
    else if (pastDue <= 60) aging.d31_60 += inv.balance_cents;
    else aging.d61_plus += inv.balance_cents;
  }
  return {
    customer_id: customer.id,
    customer_name: customer.name,
    balance_cents: balance,
    currency: currencyOf(data, customer.id),
    aging,
  };
}

function balanceRows(ctx: RouteContext): AgingRow[] {
  const { data, scope, query, timeZone, today } = ctx;
  const customers = memo(data, 'customers:byName', () =>
    sorted(data.customers, (a, b) => byText(a.name, b.name) || byText(a.id, b.id)),
  );
  const rows: AgingRow[] = [];
  for (const c of customers) {
    if (query.customerId !== null ? c.id !== query.customerId : !scope.customerIds.has(c.id)) continue;
    rows.push(balanceRowOf(data, c, timeZone, today));
  }
  return rows;
}

export const accountingRoutes: RouteDef[] = [
  {
    path: '/invoices',
    scope: 'accounting',
    query: { list: true, dates: 'open', params: { status: { type: 'enum', values: PUBLIC_INVOICE_STATUSES } } },
    handler: (ctx) => {
      const { data, scope, query, timeZone } = ctx;
      const rows = visibleRows(publicInvoices(data), scope, query.customerId, (i) => i.customer_id, {
        dayOf: (i) => localDay(i.issued_at, timeZone),
        from: query.from,
        to: query.to,
      });
      const { status } = query.values;
      return list(status ? rows.filter((i) => i.status === status) : rows, invoiceRow(ctx));
    },
  },
  {
    path: '/payments',
    scope: 'accounting',
    query: { list: true, dates: 'open' },
    handler: ({ data, scope, query, timeZone }) => {
      const index = memo(data, 'payments', () =>
        indexByCustomer(
          sorted(
            data.payments,
            chain<Payment>(
              newestFirst((p) => p.received_at),
              byId,
            ),
          ),
          (p) => p.customer_id,
        ),
      );
      const rows = visibleRows(index, scope, query.customerId, (p) => p.customer_id, {
        dayOf: (p) => localDay(p.received_at, timeZone),
        from: query.from,
        to: query.to,
      });
      return list(rows, paymentRow(data, scope));
    },
  },
  {
    path: '/balance',
    scope: 'accounting',
    query: { list: true },
    handler: (ctx) => list(balanceRows(ctx)),
  },
  {
    path: '/purchase-orders',
    scope: 'accounting',
    query: { list: true, dates: 'open', params: { status: { type: 'enum', values: PO_STATUSES } } },
    handler: ({ data, scope, query, timeZone }) => {
      const index = memo(data, 'purchase_orders', () =>
        indexByCustomer(
          sorted(
            data.purchase_orders,
            chain<PurchaseOrder>(
              newestFirst((p) => p.started_at),
              byId,
            ),
          ),
          (p) => p.customer_id,
        ),
      );
      const rows = visibleRows(index, scope, query.customerId, (p) => p.customer_id, {
        dayOf: (p) => localDay(p.started_at, timeZone),
        from: query.from,
        to: query.to,
      });
      const { status } = query.values;
      return list(status ? rows.filter((p) => p.status === status) : rows);
    },
  },
  {
    path: '/files/invoice/:id',
    scope: 'accounting',
    query: {
      list: false,
      params: {
        key_id: { type: 'id', required: true },
        expires: { type: 'int', min: 0, max: 99_999_999_999, required: true },
        signature: { type: 'text', required: true },
      },
    },
    handler: async ({ data, scope, query, path, key, links, nowMs }) => {
      const invoice = invoicesById(data).get(path.id!);
      if (!invoice || !canSeeCustomer(scope, invoice.customer_id))
        throw notFound(`Invoice "${path.id}" was not found.`);
      const { key_id, expires, signature } = query.values as { key_id: string; expires: string; signature: string };
      links.verify(invoice.id, key.key_id, { key_id, expires: Number(expires), signature }, nowMs);
      const customer = data.customers.find((c) => c.id === invoice.customer_id);
      const body = await renderInvoicePdf(invoice, data.organization, customer?.name ?? invoice.customer_id);
      return {
        type: 'binary',
        contentType: 'application/pdf',
        headers: {
          'Content-Disposition': `inline; filename="${invoice.invoice_number.replace(/["\\\r\n]/g, '_')}.pdf"`,
        },
        body,
      };
    },
  },
];
