/**
 * How invoices were paid. Each customer pays on its own habit (Mercy Health pays for both of its locations in a
 * batch at each month's end); on a fixed calendar some invoices are paid by a check that comes back, partly paid
 * and settled late, credited, short-paid and written off, paid in cash or after a failed card. Balances and
 * statuses are then recomputed from the settled allocations, so they always agree with the payments.
 *
 * Every payment is drawn from its invoice's stream (a group batch from its month's), so it is the same on every
 * day it exists; a payment is shown once it has been received, a returned check once it has come back.
 */
import type { Invoice, LocalDate, Payment } from '../model.ts';
import { monthIndex, weekIndex } from './calendar.ts';
import { type CustomerRt, cmp, customerByCode, type Org } from './org.ts';
import type { Rng } from './prng.ts';
import { addDays, type Clock, isoOf } from './time.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** An invoice as drawn, shown or not, with the stream its payments draw from. */
export interface Billed {
  invoice: Invoice;
  customer: CustomerRt;
  rng: Rng;
  groupIndex: number;
  periodStart: LocalDate;
  /** When it is (or will be) sent, whatever the hour the data is generated at. */
  sentMs: number;
  shown: boolean;
}

interface Allocation {
  invoice: Invoice;
  amount: number;
}

/** The group's batch run of a month: the month's last day, late morning (drawn from the month's stream). */
function groupRun(root: Rng, clock: Clock, month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const lastDay = addDays(m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`, -1);
  return clock.ms(lastDay, 600 + root.fork(`group-payment@${month}`).int(0, 240));
}

function nextMonthOf(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

export function settleInvoices(root: Rng, clock: Clock, org: Org, drawn: readonly Billed[]): Payment[] {
  const now = clock.nowMs;
  const payments: Payment[] = [];
  const group = customerByCode(org, 'MH');
  const shown = new Set(drawn.filter((b) => b.shown).map((b) => b.invoice));

  const pay = (
    rng: Rng,
    payer: CustomerRt,
    kind: Payment['kind'],
    failed: boolean,
    receivedMs: number,
    allocations: Allocation[],
    returnedMs: number | null = null,
  ): void => {
    const id = rng.id();
    const visible = allocations.filter((a) => shown.has(a.invoice) && a.amount > 0);
    if (receivedMs > now - 10 * 60_000 || visible.length === 0) return;
    const returned = returnedMs !== null && returnedMs <= now - 5 * 60_000;
    payments.push({
      id,
      customer_id: payer.id,
      kind,
      status: failed ? 'failed' : returned ? 'returned' : 'settled',
      amount_cents: visible.reduce((t, a) => t + a.amount, 0),
      currency: payer.currency,
      received_at: isoOf(receivedMs),
      returned_at: returned && returnedMs !== null ? isoOf(returnedMs) : null,
      allocations: visible.map((a) => ({
        invoice_id: a.invoice.id,
        invoice_number: a.invoice.invoice_number,
        amount_cents: a.amount,
      })),
    });
  };

  const batches = new Map<string, Allocation[]>();
  const ordered = drawn
    .filter((b) => b.invoice.status === 'sent')
    .sort((a, b) => cmp(a.invoice.issued_at, b.invoice.issued_at) || cmp(a.invoice.id, b.invoice.id));
  for (const b of ordered) {
    const { invoice, customer } = b;
    const billing = customer.spec.billing;
    if (!billing) continue;
    const code = customer.spec.code;
    const rng = b.rng.fork('payment');
    const sent = b.sentMs;
    const total = invoice.total_cents;
    // Drawn in one order whatever the invoice's fate, so each fate is the same on every day.
    const habitAt = sent + rng.int(billing.payDays[0], billing.payDays[1]) * DAY + rng.int(-240, 240) * 60_000;
    const byGroupDraw = rng.chance(0.75);
    const habitKind = rng.pick(billing.payKinds);
    const part = Math.round(total * rng.float(0.4, 0.7));
    const writeOff = rng.int(300, 2500);
    const returnAt = sent + 25 * DAY + rng.int(0, 480) * 60_000;
    const payer = customer.spec.parent === 'MH' ? group : customer;
    const week = weekIndex(b.periodStart);
    const month = monthIndex(b.periodStart);
    const first = b.groupIndex === 0;

    const habit = (amount: number): void => {
      if (customer.spec.parent === 'MH' && (code === 'MWSC' || byGroupDraw)) {
        // Paid in the first month-end run at or after its habit: once a run is past, its batch is complete.
        let key = clock.localDay(habitAt).slice(0, 7);
        if (habitAt > groupRun(root, clock, key)) key = nextMonthOf(key);
        const list = batches.get(key) ?? [];
        list.push({ invoice, amount });
        batches.set(key, list);
      } else {
        pay(rng.fork('habit'), customer, habitKind, false, habitAt, [{ invoice, amount }]);
      }
    };

    if (code === 'SLMC' && week % 8 === 0) {
      // A check that came back: the invoice stays open and ages past 60 days.
      pay(rng.fork('returned'), customer, 'check', false, returnAt, [{ invoice, amount: total }], returnAt + 6 * DAY);
    } else if (code === 'SLMC' && week % 8 === 4) {
      // A disputed charge credited, the rest paid as usual.
      const credit = Math.round(total * 0.12);
      pay(rng.fork('credit'), customer, 'credit_memo', false, sent + 6 * DAY, [{ invoice, amount: credit }]);
      habit(total - credit);
    } else if (code === 'MGH' && week % 4 === 1) {
      // Partly paid by the group after four weeks, the rest three months later: it ages through 1-60 days.
      pay(rng.fork('part'), payer, 'ach', false, sent + 28 * DAY, [{ invoice, amount: part }]);
      pay(rng.fork('rest'), payer, 'ach', false, sent + 105 * DAY, [{ invoice, amount: total - part }]);
    } else if (code === 'LRC' && month % 3 === 0) {
      // A part payment by check, the rest five weeks later.
      const half = Math.round(total / 2);
      pay(rng.fork('part'), customer, 'check', false, sent + 15 * DAY, [{ invoice, amount: half }]);
      pay(rng.fork('rest'), customer, 'check', false, sent + 50 * DAY, [{ invoice, amount: total - half }]);
    } else if (code === 'HH' && first && month % 4 === 1) {
      // Short-paid by card, the difference written off a month later.
      pay(rng.fork('short'), customer, 'card', false, sent + 10 * DAY, [{ invoice, amount: total - writeOff }]);
      pay(rng.fork('write-off'), customer, 'write_off', false, sent + 40 * DAY, [{ invoice, amount: writeOff }]);
    } else if (code === 'HH' && first && month % 4 === 2) {
      pay(rng.fork('cash'), customer, 'cash', false, sent + 5 * DAY, [{ invoice, amount: total }]);
    } else if (code === 'HH' && first && month % 4 === 3) {
      // A declined card, then paid as usual.
      pay(rng.fork('declined'), customer, 'card', true, sent + 2 * HOUR, [{ invoice, amount: total }]);
      habit(total);
    } else {
      habit(total);
    }
  }
  for (const key of [...batches.keys()].sort()) {
    pay(
      root.fork(`group-payment@${key}/batch`),
      group,
      'ach',
      false,
      groupRun(root, clock, key),
      batches.get(key) ?? [],
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
  for (const { invoice: inv } of ordered) {
    const s = settled.get(inv.id);
    const paid = s?.amount ?? 0;
    inv.balance_cents = inv.total_cents - paid;
    inv.status = inv.balance_cents === 0 ? 'paid' : paid > 0 ? 'partially_paid' : 'sent';
    inv.paid_at = inv.balance_cents === 0 && s ? s.last : null;
  }
  return payments;
}
