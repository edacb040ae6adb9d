/**
 * How invoices were paid. Each customer pays on its own habit (Mercy Health pays for both of its locations in
 * monthly batches); a few invoices are made to be overdue in each aging bucket, partly paid, credited, short-paid
 * and written off, paid by a returned check or a failed card. Balances and statuses are then recomputed from the
 * settled allocations, so they always agree with the payments.
 */
import type { Invoice, Payment } from '../model.ts';
import { type CustomerRt, cmp, customerByCode, type Org } from './org.ts';
import type { Rng } from './prng.ts';
import { type Clock, daysBetween, isoOf } from './time.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

export function settleInvoices(
  rng: Rng,
  clock: Clock,
  org: Org,
  invoices: Invoice[],
  customerOf: Map<Invoice, CustomerRt>,
): Payment[] {
  const now = clock.nowMs;
  const open = invoices
    .filter((i) => i.status === 'sent')
    .sort((a, b) => cmp(a.issued_at, b.issued_at) || cmp(a.id, b.id));
  const used = new Set<Invoice>();
  const payments: Payment[] = [];
  const group = customerByCode(org, 'MH');
  const sentMs = (inv: Invoice): number => Date.parse(inv.sent_at);
  const ageOf = (inv: Invoice): number => daysBetween(clock.localDay(inv.issued_at), clock.today);
  const pastDue = (inv: Invoice): number | null =>
    inv.due_at === null ? null : daysBetween(clock.localDay(inv.due_at), clock.today);

  const pay = (
    payer: CustomerRt,
    kind: Payment['kind'],
    status: Payment['status'],
    receivedMs: number,
    allocations: { invoice: Invoice; amount: number }[],
    returnedMs: number | null = null,
  ): void => {
    const received = Math.min(receivedMs, now - 10 * 60_000);
    payments.push({
      id: rng.id(),
      customer_id: payer.id,
      kind,
      status,
      amount_cents: allocations.reduce((t, a) => t + a.amount, 0),
      currency: payer.currency,
      received_at: isoOf(received),
      returned_at: returnedMs === null ? null : isoOf(Math.min(returnedMs, now - 5 * 60_000)),
      allocations: allocations.map((a) => ({
        invoice_id: a.invoice.id,
        invoice_number: a.invoice.invoice_number,
        amount_cents: a.amount,
      })),
    });
  };

  const pick = (
    codes: string[],
    accept: (inv: Invoice) => boolean,
    prefer: (inv: Invoice) => number,
  ): Invoice | undefined => {
    for (const code of codes) {
      const id = customerByCode(org, code).id;
      const found = open
        .filter((i) => i.customer_id === id && !used.has(i) && accept(i))
        .sort((a, b) => prefer(a) - prefer(b))[0];
      if (found) {
        used.add(found);
        return found;
      }
    }
    return undefined;
  };
  const inRange =
    (lo: number, hi: number) =>
    (inv: Invoice): boolean => {
      const d = pastDue(inv);
      return d !== null && d >= lo && d <= hi;
    };
  const near =
    (target: number) =>
    (inv: Invoice): number =>
      Math.abs((pastDue(inv) ?? 0) - target);

  // 61+ days past due: a check that came back.
  const returned =
    pick(['SLMC', 'MGH'], inRange(70, 110), near(90)) ?? pick(['SLMC', 'MGH', 'LRC'], inRange(61, 170), near(80));
  if (returned) {
    const at = sentMs(returned) + 25 * DAY + rng.int(0, 480) * 60_000;
    pay(
      customerOf.get(returned) as CustomerRt,
      'check',
      'returned',
      at,
      [{ invoice: returned, amount: returned.total_cents }],
      at + 6 * DAY,
    );
  }
  // 31-60 days past due, partly paid by the group.
  const partial =
    pick(['MGH', 'SLMC'], inRange(35, 55), near(45)) ?? pick(['MGH', 'SLMC', 'LRC'], inRange(31, 60), near(45));
  if (partial) {
    const payer = customerOf.get(partial)?.spec.parent === 'MH' ? group : (customerOf.get(partial) as CustomerRt);
    pay(payer, 'ach', 'settled', sentMs(partial) + 28 * DAY, [
      { invoice: partial, amount: Math.round(partial.total_cents * rng.float(0.4, 0.7)) },
    ]);
  }
  // 1-30 days past due, unpaid (the Canadian customer when its calendar allows).
  pick(['LRC', 'SLMC', 'MGH'], inRange(5, 28), near(15)) ?? pick(['LRC', 'SLMC', 'MGH'], inRange(1, 30), near(15));
  // A disputed charge credited on a recent invoice.
  const credited = pick(
    ['SLMC'],
    (i) => ageOf(i) >= 8 && ageOf(i) <= 25,
    (i) => -ageOf(i),
  );
  if (credited) {
    pay(customerOf.get(credited) as CustomerRt, 'credit_memo', 'settled', sentMs(credited) + 6 * DAY, [
      { invoice: credited, amount: Math.round(credited.total_cents * 0.12) },
    ]);
  }
  // The hotel: a declined card on its newest invoice, one paid in cash, one short-paid and written off.
  const hotel = customerByCode(org, 'HH');
  const declined = pick(
    ['HH'],
    () => true,
    (i) => -Date.parse(i.issued_at),
  );
  if (declined)
    pay(hotel, 'card', 'failed', sentMs(declined) + 2 * HOUR, [{ invoice: declined, amount: declined.total_cents }]);
  const shortPaid = pick(
    ['HH'],
    (i) => ageOf(i) > 60,
    (i) => Date.parse(i.issued_at),
  );
  if (shortPaid) {
    const writeOff = rng.int(300, 2500);
    pay(hotel, 'card', 'settled', sentMs(shortPaid) + 10 * DAY, [
      { invoice: shortPaid, amount: shortPaid.total_cents - writeOff },
    ]);
    pay(hotel, 'write_off', 'settled', sentMs(shortPaid) + 40 * DAY, [{ invoice: shortPaid, amount: writeOff }]);
  }
  const cash = pick(
    ['HH'],
    (i) => ageOf(i) > 30,
    (i) => Date.parse(i.issued_at),
  );
  if (cash) pay(hotel, 'cash', 'settled', sentMs(cash) + 5 * DAY, [{ invoice: cash, amount: cash.total_cents }]);
  // A part payment by check at the rehabilitation centre.
  const halfPaid = pick(
    ['LRC'],
    (i) => ageOf(i) >= 20 && (pastDue(i) ?? 0) <= 0,
    (i) => ageOf(i),
  );
  if (halfPaid) {
    pay(customerOf.get(halfPaid) as CustomerRt, 'check', 'settled', sentMs(halfPaid) + 15 * DAY, [
      { invoice: halfPaid, amount: Math.round(halfPaid.total_cents / 2) },
    ]);
  }

  // Everything else follows the customer's habit; Mercy Health batches its locations' invoices by month.
  const batches = new Map<string, { at: number; invoices: Invoice[] }>();
  for (const inv of open) {
    if (used.has(inv)) continue;
    const c = customerOf.get(inv) as CustomerRt;
    const billing = c.spec.billing;
    if (!billing) continue;
    const settle = sentMs(inv) + rng.int(billing.payDays[0], billing.payDays[1]) * DAY + rng.int(-240, 240) * 60_000;
    if (settle > now - HOUR) continue;
    const byGroup = c.spec.parent === 'MH' && (c.spec.code === 'MWSC' || rng.chance(0.75));
    if (byGroup) {
      const month = clock.localDay(settle).slice(0, 7);
      const batch = batches.get(month) ?? { at: 0, invoices: [] };
      batch.at = Math.max(batch.at, settle);
      batch.invoices.push(inv);
      batches.set(month, batch);
    } else {
      pay(c, rng.pick(billing.payKinds), 'settled', settle, [{ invoice: inv, amount: inv.total_cents }]);
    }
  }
  for (const month of [...batches.keys()].sort()) {
    const batch = batches.get(month);
    if (batch)
      pay(
        group,
        'ach',
        'settled',
        batch.at,
        batch.invoices.map((invoice) => ({ invoice, amount: invoice.total_cents })),
      );
  }

  // Balances, statuses and paid dates follow from the settled allocations.
  const settled = new Map<string, { amount: number; last: string }>();
  for (const p of payments) {
    if (p.status !== 'settled') continue;
    for (const a of p.allocations) {
      const s = settled.get(a.invoice_id) ?? { amount: 0, last: '' };
      s.amount += a.amount_cents;
      if (p.received_at > s.last) s.last = p.received_at;
      settled.set(a.invoice_id, s);
    }
  }
  for (const inv of open) {
    const s = settled.get(inv.id);
    const paid = s?.amount ?? 0;
    inv.balance_cents = inv.total_cents - paid;
    inv.status = inv.balance_cents === 0 ? 'paid' : paid > 0 ? 'partially_paid' : 'sent';
    inv.paid_at = inv.balance_cents === 0 && s ? s.last : null;
  }
  return payments;
}
