/**
 * Accounts receivable: balance and aging per customer (from /balance) and in total per currency (customers
 * may bill in different currencies, so totals are never summed across them), plus the open invoices. Every row
 * is the API's own; totals are the sum of the rows, whichever they are.
 */
import { getOrInsert } from '../collections.ts';
import type { BalanceRow, Invoice } from '../schemas/accounting.ts';

export interface Aging {
  current: number;
  d1_30: number;
  d31_60: number;
  d61_plus: number;
}

export interface ArCustomer {
  customerId: string;
  customerName: string;
  currency: string;
  balanceCents: number;
  aging: Aging;
  openInvoices: number;
  /** A location's row added to an answer about its group (which had no balance of its own); null otherwise. */
  locationOf: { customerId: string; customerName: string } | null;
}

export interface ArTotal {
  currency: string;
  balanceCents: number;
  aging: Aging;
  customers: number;
}

export interface ArReport {
  customers: ArCustomer[];
  totals: ArTotal[];
  /** Sent and partially paid invoices with a balance, oldest due first (no due date last). */
  openInvoices: Invoice[];
  /**
   * Asked for a group with no open balance of its own: the locations its name suggests, whose rows (labelled
   * with `locationOf`) were added. Null otherwise.
   */
  groupWithoutOwn: { customerId: string; customerName: string; locations: string[] } | null;
}

function totalsOf(rows: readonly { currency: string; balanceCents: number; aging: Aging }[]): ArTotal[] {
  const totals = new Map<string, ArTotal>();
  for (const c of rows) {
    const t = getOrInsert(totals, c.currency, () => ({
      currency: c.currency,
      balanceCents: 0,
      aging: { current: 0, d1_30: 0, d31_60: 0, d61_plus: 0 },
      customers: 0,
    }));
    t.balanceCents += c.balanceCents;
    t.customers++;
    for (const k of ['current', 'd1_30', 'd31_60', 'd61_plus'] as const) t.aging[k] += c.aging[k];
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * Balance and aging per customer and in total per currency, without the open invoices (what a Sheets cell
 * shows). `openInvoices` counts each customer's open invoices (none when absent); `locationOf` labels the rows
 * added for a group that has none of its own.
 */
export function computeBalances(
  balances: readonly BalanceRow[],
  openInvoices?: ReadonlyMap<string, number>,
  locationOf?: ArCustomer['locationOf'],
): Omit<ArReport, 'openInvoices' | 'groupWithoutOwn'> {
  const rows: ArCustomer[] = balances
    .map((b) => ({
      customerId: b.customer_id,
      customerName: b.customer_name,
      currency: b.currency,
      balanceCents: b.balance_cents,
      aging: { ...b.aging },
      openInvoices: openInvoices?.get(b.customer_id) ?? 0,
      locationOf: locationOf && b.customer_id !== locationOf.customerId ? locationOf : null,
    }))
    // The customers' own rows first (the group asked for), then any locations added for it; most owed first.
    .sort(
      (a, b) =>
        Number(a.locationOf !== null) - Number(b.locationOf !== null) ||
        b.balanceCents - a.balanceCents ||
        a.customerName.localeCompare(b.customerName),
    );
  return { customers: rows, totals: totalsOf(rows) };
}

/** Whether rows of /balance and open invoices hold anything owed: a $0 row with no open invoice does not. */
export function owesAnything(balances: readonly BalanceRow[], openInvoices: readonly Invoice[]): boolean {
  return balances.some((b) => b.balance_cents !== 0) || openInvoices.some(isOpen);
}

const isOpen = (i: Invoice) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0;

/** The balances (see computeBalances) with the open invoices: sent or partially paid, with a balance. */
export function computeAr(
  balances: readonly BalanceRow[],
  openInvoices: readonly Invoice[],
  group: { customerId: string; customerName: string; locations: string[] } | null = null,
): ArReport {
  const counts = new Map<string, number>();
  const open = openInvoices.filter(isOpen);
  for (const i of open) counts.set(i.customer_id, (counts.get(i.customer_id) ?? 0) + 1);
  const due = (i: Invoice) => i.due_at ?? '\uffff';
  return {
    ...computeBalances(balances, counts, group && { customerId: group.customerId, customerName: group.customerName }),
    groupWithoutOwn: group,
    openInvoices: [...open].sort((a, b) =>
      due(a) < due(b) ? -1 : due(a) > due(b) ? 1 : a.invoice_number.localeCompare(b.invoice_number),
    ),
  };
}
