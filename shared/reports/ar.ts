/**
 * Accounts receivable: balance and aging per customer (from /balance) and in total per currency (customers
 * may bill in different currencies, so totals are never summed across them), plus the open invoices. A group
 * customer is billed per location: its row carries its locations' totals (groups.ts says which they are).
 */
import { getOrInsert } from '../collections.ts';
import type { BalanceRow, Invoice } from '../schemas/accounting.ts';
import type { Customer } from '../schemas/customers.ts';
import { groupLocations } from './groups.ts';

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
  /** A group: billed through its locations, listed here with their totals per currency. Null otherwise. */
  billedPerLocation: { locations: { customerId: string; customerName: string }[]; totals: ArTotal[] } | null;
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
 * shows). `customers` (the key's, with `is_group`) marks the groups; without them no row is read as a group.
 * `openInvoices` counts each customer's open invoices (none when absent).
 */
export function computeBalances(
  balances: readonly BalanceRow[],
  customers: readonly Customer[] = [],
  openInvoices?: ReadonlyMap<string, number>,
): Omit<ArReport, 'openInvoices'> {
  const rows: ArCustomer[] = balances
    .map((b) => ({
      customerId: b.customer_id,
      customerName: b.customer_name,
      currency: b.currency,
      balanceCents: b.balance_cents,
      aging: { ...b.aging },
      openInvoices: openInvoices?.get(b.customer_id) ?? 0,
      billedPerLocation: null as ArCustomer['billedPerLocation'],
    }))
    .sort((a, b) => b.balanceCents - a.balanceCents || a.customerName.localeCompare(b.customerName));
  for (const row of rows) {
    const group = customers.find((c) => c.id === row.customerId && c.is_group);
    if (!group) continue;
    const ids = new Set(groupLocations(group, customers).map((l) => l.id));
    const locations = rows.filter((r) => ids.has(r.customerId));
    row.billedPerLocation = {
      locations: locations.map((l) => ({ customerId: l.customerId, customerName: l.customerName })),
      totals: totalsOf(locations),
    };
  }
  return { customers: rows, totals: totalsOf(rows) };
}

/** The balances (see computeBalances) with the open invoices: sent or partially paid, with a balance. */
export function computeAr(
  balances: readonly BalanceRow[],
  openInvoices: readonly Invoice[],
  customers: readonly Customer[] = [],
): ArReport {
  const counts = new Map<string, number>();
  const open = openInvoices.filter(
    (i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
  );
  for (const i of open) counts.set(i.customer_id, (counts.get(i.customer_id) ?? 0) + 1);
  const due = (i: Invoice) => i.due_at ?? '\uffff';
  return {
    ...computeBalances(balances, customers, counts),
    openInvoices: [...open].sort((a, b) =>
      due(a) < due(b) ? -1 : due(a) > due(b) ? 1 : a.invoice_number.localeCompare(b.invoice_number),
    ),
  };
}
