/**
 * Billing: weekly or monthly invoices built from the billed amounts of delivered manifests, hidden draft, void
 * and written-off invoices, purchase orders that invoices draw down, and (in payments.ts) how they were paid.
 */
import type { Invoice, LocalDate, Manifest, Payment, PurchaseOrder } from '../model.ts';
import { numberByYear } from './numbers.ts';
import { type CustomerRt, cmp, customerByCode, type Org } from './org.ts';
import { settleInvoices } from './payments.ts';
import { pad, type Rng } from './prng.ts';
import { addDays, type Clock, isoOf } from './time.ts';

export interface Accounting {
  invoices: Invoice[];
  payments: Payment[];
  purchase_orders: PurchaseOrder[];
}

interface Period {
  start: LocalDate;
  end: LocalDate;
  issue: LocalDate;
}

function periods(cadence: 'weekly' | 'monthly', firstDay: LocalDate, today: LocalDate): Period[] {
  const out: Period[] = [];
  if (cadence === 'weekly') {
    let start = firstDay;
    while (new Date(`${start}T00:00:00Z`).getUTCDay() !== 1) start = addDays(start, 1);
    while (addDays(start, 7) <= today) {
      out.push({ start, end: addDays(start, 6), issue: addDays(start, 7) });
      start = addDays(start, 7);
    }
    return out;
  }
  let start = firstDay.endsWith('-01') ? firstDay : nextMonth(firstDay);
  while (nextMonth(start) <= today) {
    const next = nextMonth(start);
    out.push({ start, end: addDays(next, -1), issue: next });
    start = next;
  }
  return out;
}

function nextMonth(day: LocalDate): LocalDate {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1, 2)}-01`;
}

export function buildAccounting(
  rng: Rng,
  clock: Clock,
  org: Org,
  firstDay: LocalDate,
  manifests: readonly Manifest[],
): Accounting {
  // Billed amounts by customer, department and org-local delivery day.
  const billed = new Map<string, number>();
  for (const m of manifests) {
    if (m.type !== 'normal' || m.amount_cents === null || m.delivered_at === null) continue;
    const key = `${m.customer_id}|${m.department_id ?? ''}|${clock.localDay(m.delivered_at)}`;
    billed.set(key, (billed.get(key) ?? 0) + m.amount_cents);
  }
  const amountFor = (c: CustomerRt, deptIds: (string | null)[], p: Period): number => {
    let total = 0;
    for (let day = p.start; day <= p.end; day = addDays(day, 1)) {
      for (const d of deptIds) total += billed.get(`${c.id}|${d ?? ''}|${day}`) ?? 0;
    }
    return total;
  };

  const invoices: Invoice[] = [];
  const customerOf = new Map<Invoice, CustomerRt>();
  for (const c of org.customers) {
    const billing = c.spec.billing;
    if (!billing) continue;
    const allDepts: (string | null)[] = [...c.depts.map((d) => d.id), ...(c.wide ? [null] : [])];
    const groups: (string | null)[][] = billing.mode === 'consolidated' ? [allDepts] : allDepts.map((d) => [d]);
    for (const p of periods(billing.cadence, firstDay, clock.today)) {
      for (const deptIds of groups) {
        const subtotal = amountFor(c, deptIds, p);
        if (subtotal <= 0) continue;
        const minute = 360 + rng.int(0, 3600) / 60;
        const issuedMs = clock.ms(p.issue, minute);
        let sentMs = issuedMs + rng.int(10, 2880) * 60_000;
        // Drawn whatever the hour, so later invoices do not depend on it.
        const sentSoon = issuedMs + rng.int(5, 60) * 60_000;
        if (sentMs > clock.nowMs) sentMs = sentSoon;
        const surcharges = Math.round(subtotal * billing.surchargeRate);
        const tax = Math.round((subtotal + surcharges) * billing.taxRate);
        const invoice: Invoice = {
          id: rng.id(),
          invoice_number: '',
          status: 'sent',
          customer_id: c.id,
          department_id: billing.mode === 'consolidated' ? null : (deptIds[0] ?? null),
          issued_at: isoOf(issuedMs),
          due_at: billing.termsDays === null ? null : clock.iso(addDays(p.issue, billing.termsDays), minute),
          sent_at: isoOf(sentMs),
          paid_at: null,
          subtotal_cents: subtotal,
          surcharges_cents: surcharges,
          tax_cents: tax,
          total_cents: subtotal + surcharges + tax,
          balance_cents: subtotal + surcharges + tax,
          currency: c.currency,
          purchase_order_id: null,
        };
        invoices.push(invoice);
        customerOf.set(invoice, c);
      }
    }
  }

  numberInvoices(rng, clock, invoices);
  hideSome(org, invoices);
  const payments = settleInvoices(rng, clock, org, invoices, customerOf);
  const purchase_orders = buildPurchaseOrders(rng, clock, org, firstDay, invoices);

  const newestFirst =
    <T extends { id: string }>(field: (x: T) => string) =>
    (a: T, b: T): number =>
      cmp(field(b), field(a)) || cmp(a.id, b.id);
  return {
    invoices: invoices.sort(newestFirst((i) => i.issued_at)),
    payments: payments.sort(newestFirst((p) => p.received_at)),
    purchase_orders: purchase_orders.sort(newestFirst((p) => p.started_at)),
  };
}

/** `PLS-YY-######` in issue order, one sequence per calendar year. */
function numberInvoices(rng: Rng, clock: Clock, invoices: Invoice[]): void {
  const ordered = invoices.slice().sort((a, b) => cmp(a.issued_at, b.issued_at) || cmp(a.id, b.id));
  numberByYear(ordered, {
    prefix: 'PLS',
    digits: 6,
    day: (inv) => clock.localDay(inv.issued_at),
    start: (_year, earliest) => (earliest ? rng.int(4_000, 9_000) : 1),
    assign: (inv, number) => (inv.invoice_number = number),
  });
}

/** A draft not yet sent, a voided invoice and a written-off one: kept, never served. */
function hideSome(org: Org, invoices: Invoice[]): void {
  const of = (code: string): Invoice[] => {
    const id = customerByCode(org, code).id;
    return invoices.filter((i) => i.customer_id === id).sort((a, b) => cmp(a.issued_at, b.issued_at));
  };
  const westSide = of('MWSC');
  const draft = westSide[westSide.length - 1];
  if (draft) {
    draft.status = 'draft';
    draft.sent_at = draft.issued_at;
  }
  const stLukes = of('SLMC');
  const voided = stLukes[Math.max(0, stLukes.length - 10)];
  if (voided) {
    voided.status = 'void';
    voided.balance_cents = 0;
  }
  const hotel = of('HH');
  const writtenOff = hotel[0];
  if (writtenOff) {
    writtenOff.status = 'written_off';
    writtenOff.balance_cents = 0;
  }
}

function buildPurchaseOrders(
  rng: Rng,
  clock: Clock,
  org: Org,
  firstDay: LocalDate,
  invoices: Invoice[],
): PurchaseOrder[] {
  const orders: PurchaseOrder[] = [];
  const publicOf = (c: CustomerRt): Invoice[] =>
    invoices.filter(
      (i) => i.customer_id === c.id && (i.status === 'sent' || i.status === 'partially_paid' || i.status === 'paid'),
    );
  const add = (
    c: CustomerRt,
    poNumber: string,
    status: PurchaseOrder['status'],
    start: LocalDate,
    months: number,
    headroom: (spent: number) => number,
    draws: boolean,
  ): void => {
    const startedMs = clock.ms(start, 0);
    const expiresMs = clock.ms(addDays(start, Math.round(months * 30.5)), 0) - 1000;
    const po: PurchaseOrder = {
      id: rng.id(),
      customer_id: c.id,
      po_number: poNumber,
      status,
      total_cents: 0,
      spent_cents: 0,
      remaining_cents: 0,
      currency: c.currency,
      started_at: isoOf(startedMs),
      expires_at: isoOf(expiresMs),
    };
    let spent = 0;
    if (draws) {
      for (const inv of publicOf(c)) {
        const at = Date.parse(inv.sent_at);
        if (at >= startedMs && at < expiresMs && inv.purchase_order_id === null) {
          inv.purchase_order_id = po.id;
          spent += inv.total_cents;
        }
      }
    }
    po.spent_cents = spent;
    po.total_cents = spent + headroom(spent);
    po.remaining_cents = po.total_cents - spent;
    orders.push(po);
  };
  const roundUp = (cents: number, step: number): number => Math.ceil(cents / step) * step;
  const mgh = customerByCode(org, 'MGH');
  const hh = customerByCode(org, 'HH');
  const year = clock.today.slice(0, 4);
  const closedStart = addDays(firstDay, -20);
  add(
    mgh,
    `PO-MGH-${Number(year) - 1}-0${rng.int(100, 999)}`,
    'closed',
    closedStart,
    3,
    (s) => roundUp(s, 500_000) - s + 250_000,
    true,
  );
  add(
    mgh,
    `PO-MGH-${year}-0${rng.int(100, 999)}`,
    'active',
    addDays(closedStart, Math.round(3 * 30.5)),
    12,
    (s) => roundUp(s * 2.4, 1_000_000) - s,
    true,
  );
  add(hh, `45000${rng.digits(5)}`, 'active', addDays(firstDay, 35), 12, (s) => roundUp(s * 1.8, 500_000) - s, true);
  add(
    customerByCode(org, 'LRC'),
    `LRC-PO-${rng.int(2000, 2999)}`,
    'pending',
    addDays(clock.today, 12),
    12,
    () => 2_500_000,
    false,
  );
  add(
    customerByCode(org, 'SLMC'),
    `SL-${rng.digits(6)}`,
    'cancelled',
    addDays(firstDay, 60),
    6,
    () => 4_000_000,
    false,
  );
  return orders;
}
