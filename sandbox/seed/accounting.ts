/**
 * Billing: weekly or monthly invoices built from the billed amounts of delivered manifests, hidden draft, void
 * and written-off invoices, purchase orders that invoices draw down, and (in payments.ts) how they were paid.
 *
 * Billing periods follow the calendar (weeks from Monday, months from the 1st) and each invoice draws from the
 * stream of its customer, department group and period, so an invoice keeps its id, number and amounts from one
 * day to the next; only its status, balance and payments move on.
 */
import type { Invoice, LocalDate, Manifest, Payment, PurchaseOrder } from '../model.ts';
import { monthIndex, weekIndex } from './calendar.ts';
import { numberByDay } from './numbers.ts';
import { type CustomerRt, cmp, customerByCode, type Org } from './org.ts';
import { type Billed, settleInvoices } from './payments.ts';
import { pad, type Rng } from './prng.ts';
import { addDays, type Clock, daysBetween, isoOf } from './time.ts';

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

/** The provider's invoice numbers per day, across all its customers. */
export const INVOICES_PER_DAY = 23.6;
/** Invoices issued this many days before the first day are drawn too: the group's payments may include them. */
const PAYMENT_LEAD_DAYS = 80;
/** A draft stays unsent this long after it is issued (the newest Mercy West invoice). */
const DRAFT_DAYS = 14;

/** Periods whose invoice is issued from `from` to `to`. */
function periodsIssued(cadence: 'weekly' | 'monthly', from: LocalDate, to: LocalDate): Period[] {
  const out: Period[] = [];
  if (cadence === 'weekly') {
    let issue = from;
    while (new Date(`${issue}T00:00:00Z`).getUTCDay() !== 1) issue = addDays(issue, 1);
    for (; issue <= to; issue = addDays(issue, 7))
      out.push({ start: addDays(issue, -7), end: addDays(issue, -1), issue });
    return out;
  }
  for (let issue = from.endsWith('-01') ? from : nextMonth(from); issue <= to; issue = nextMonth(issue))
    out.push({ start: previousMonth(issue), end: addDays(issue, -1), issue });
  return out;
}

function nextMonth(day: LocalDate): LocalDate {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1, 2)}-01`;
}

function previousMonth(first: LocalDate): LocalDate {
  const [y, m] = first.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12-01` : `${y}-${pad(m - 1, 2)}-01`;
}

export function buildAccounting(
  root: Rng,
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

  // Every invoice issued in the window (and a little before, for the payments) is drawn, shown or not: the
  // numbers of a day are ranked over all of its invoices.
  const drawn: Billed[] = [];
  for (const c of org.customers) {
    const billing = c.spec.billing;
    if (!billing) continue;
    const allDepts: (string | null)[] = [...c.depts.map((d) => d.id), ...(c.wide ? [null] : [])];
    const groups: (string | null)[][] = billing.mode === 'consolidated' ? [allDepts] : allDepts.map((d) => [d]);
    for (const p of periodsIssued(billing.cadence, addDays(firstDay, -PAYMENT_LEAD_DAYS), clock.today)) {
      groups.forEach((deptIds, groupIndex) => {
        const rng = root.fork(`invoice/${c.spec.code}/${groupIndex}@${p.start}`);
        const minute = 360 + rng.int(0, 3600) / 60;
        const issuedMs = clock.ms(p.issue, minute);
        const id = rng.id();
        const plannedSentMs = issuedMs + rng.int(10, 2880) * 60_000;
        const sentSoon = issuedMs + rng.int(5, 60) * 60_000;
        // Until it is sent as planned, an invoice shows as sent soon after issue.
        const sentMs = plannedSentMs > clock.nowMs ? sentSoon : plannedSentMs;
        const shown = p.start >= firstDay;
        const subtotal = shown ? amountFor(c, deptIds, p) : 0;
        const surcharges = Math.round(subtotal * billing.surchargeRate);
        const tax = Math.round((subtotal + surcharges) * billing.taxRate);
        const invoice: Invoice = {
          id,
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
        drawn.push({
          invoice,
          customer: c,
          rng,
          groupIndex,
          periodStart: p.start,
          sentMs: plannedSentMs,
          shown: shown && subtotal > 0,
        });
      });
    }
  }
  numberByDay(drawn, {
    prefix: 'PLS',
    digits: 6,
    perDay: INVOICES_PER_DAY,
    day: (b) => clock.localDay(b.invoice.issued_at),
    order: (a, b) => cmp(a.invoice.issued_at, b.invoice.issued_at) || cmp(a.invoice.id, b.invoice.id),
    assign: (b, number) => (b.invoice.invoice_number = number),
  });

  hideSome(clock, drawn);
  const payments = settleInvoices(root, clock, org, drawn);
  const invoices = drawn.filter((b) => b.shown).map((b) => b.invoice);
  const purchase_orders = buildPurchaseOrders(root, clock, org, invoices);

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

/**
 * Kept, never served: Mercy West's newest invoice while it is a draft (its first two weeks), one St. Luke's
 * invoice in 24 weeks voided and one Harborview invoice in four months written off.
 */
function hideSome(clock: Clock, drawn: Billed[]): void {
  const newestWestSide = drawn
    .filter((b) => b.shown && b.customer.spec.code === 'MWSC')
    .sort((a, b) => cmp(b.invoice.issued_at, a.invoice.issued_at) || cmp(a.invoice.id, b.invoice.id))[0];
  if (newestWestSide && daysBetween(clock.localDay(newestWestSide.invoice.issued_at), clock.today) < DRAFT_DAYS) {
    newestWestSide.invoice.status = 'draft';
    newestWestSide.invoice.sent_at = newestWestSide.invoice.issued_at;
  }
  for (const b of drawn) {
    const { code } = b.customer.spec;
    if (code === 'SLMC' && weekIndex(b.periodStart) % 24 === 5) {
      b.invoice.status = 'void';
      b.invoice.balance_cents = 0;
    } else if (code === 'HH' && b.groupIndex === 0 && monthIndex(b.periodStart) % 4 === 0) {
      b.invoice.status = 'written_off';
      b.invoice.balance_cents = 0;
    }
  }
}

/**
 * Purchase orders by fixed terms: Mercy General's half-year orders (the current one active, the last closed),
 * Harborview's yearly order from April, Lakeshore's order for the next quarter (pending) and St. Luke's order
 * for the current half-year (cancelled). Each term's order draws from its own stream.
 */
function buildPurchaseOrders(root: Rng, clock: Clock, org: Org, invoices: Invoice[]): PurchaseOrder[] {
  const orders: PurchaseOrder[] = [];
  const add = (
    c: CustomerRt,
    status: PurchaseOrder['status'],
    start: LocalDate,
    end: LocalDate,
    number: (rng: Rng) => string,
    total: number,
  ): void => {
    const rng = root.fork(`purchase-order/${c.spec.code}@${start}`);
    const startedMs = clock.ms(start, 0);
    const expiresMs = clock.ms(end, 0) - 1000;
    const po: PurchaseOrder = {
      id: rng.id(),
      customer_id: c.id,
      po_number: number(rng),
      status,
      total_cents: total,
      spent_cents: 0,
      remaining_cents: 0,
      currency: c.currency,
      started_at: isoOf(startedMs),
      expires_at: isoOf(expiresMs),
    };
    if (status === 'active' || status === 'closed') {
      for (const inv of invoices) {
        if (inv.customer_id !== c.id || inv.purchase_order_id !== null) continue;
        if (inv.status !== 'sent' && inv.status !== 'partially_paid' && inv.status !== 'paid') continue;
        const at = Date.parse(inv.sent_at);
        if (at >= startedMs && at < expiresMs) {
          inv.purchase_order_id = po.id;
          po.spent_cents += inv.total_cents;
        }
      }
    }
    po.remaining_cents = Math.max(0, po.total_cents - po.spent_cents);
    po.total_cents = po.spent_cents + po.remaining_cents;
    orders.push(po);
  };
  const today = clock.today;
  const year = Number(today.slice(0, 4));
  const half = (y: number, h: number): LocalDate => `${y + Math.floor(h / 2)}-${h % 2 === 0 ? '01' : '07'}-01`;
  const h = Number(today.slice(5, 7)) <= 6 ? 0 : 1;
  const mgh = customerByCode(org, 'MGH');
  const mghNumber = (start: LocalDate) => (rng: Rng) => `PO-MGH-${start.slice(0, 4)}-0${rng.int(100, 999)}`;
  add(mgh, 'closed', half(year, h - 1), half(year, h), mghNumber(half(year, h - 1)), 50_000_000);
  add(mgh, 'active', half(year, h), half(year, h + 1), mghNumber(half(year, h)), 50_000_000);
  const hotelYear = today.slice(5) >= '04-01' ? year : year - 1;
  add(
    customerByCode(org, 'HH'),
    'active',
    `${hotelYear}-04-01`,
    `${hotelYear + 1}-04-01`,
    (rng) => `45000${rng.digits(5)}`,
    45_000_000,
  );
  const quarter = Math.floor((Number(today.slice(5, 7)) - 1) / 3) + 1;
  const quarterStart = (q: number): LocalDate =>
    `${year + Math.floor((q - 1) / 4)}-${pad(((q - 1) % 4) * 3 + 1, 2)}-01`;
  add(
    customerByCode(org, 'LRC'),
    'pending',
    quarterStart(quarter + 1),
    quarterStart(quarter + 5),
    (rng) => `LRC-PO-${rng.int(2000, 2999)}`,
    2_500_000,
  );
  add(
    customerByCode(org, 'SLMC'),
    'cancelled',
    half(year, h),
    half(year, h + 1),
    (rng) => `SL-${rng.digits(6)}`,
    4_000_000,
  );
  return orders;
}
