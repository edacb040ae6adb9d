/**
 * What the alert suites read of the sandbox themselves, from the raw `/v1` listings and without the product's code:
 * what is true now for each kind (the counts a confirmation must say), carts that can still close short today, a
 * customer by name. The sandbox is pinned to TODAY (Fri 20 Nov 2026, Chicago), as the harnesses pin it.
 */
import type { Sandbox } from '../../sandbox/index.ts';
import { expectedDaysOverdue } from './expected-figures.ts';
import { listAll } from './sandbox-http.ts';

export const TODAY = '2026-11-20';
export const TZ = 'America/Chicago';

export interface Customer {
  id: string;
  name: string;
  is_group: boolean;
}

export async function customerNamed(sandbox: Sandbox, name: string): Promise<Customer> {
  const found = (await listAll(sandbox, '/customers')).find((c) => c.name === name);
  if (!found) throw new Error(`no customer ${name}`);
  return found;
}

/** Pieces missing from a count: Σ max(0, required − delivered). */
const missingOf = (count: { lines: { required: number; delivered: number }[] }) =>
  count.lines.reduce((s, l) => s + Math.max(0, l.required - l.delivered), 0);

/** Today's counts no longer pending that miss at least `min` pieces (of a customer, if given). */
export async function shortCountsNow(sandbox: Sandbox, o: { customerId?: string; min?: number } = {}) {
  const counts = await listAll(sandbox, '/inventory/counts', { from: TODAY, to: TODAY });
  return counts.filter(
    (c) => c.status !== 'pending' && (!o.customerId || c.customer_id === o.customerId) && missingOf(c) >= (o.min ?? 1),
  );
}

export interface ClosableCart {
  id: string;
  name: string;
  unitName: string;
  customerId: string;
  /** The line closed short: the one that requires the most pieces (at par with nothing on hand for a new count). */
  itemId: string;
  itemName: string;
  required: number;
}

/**
 * Active carts whose count today is still pending, or not taken yet: each can close short now (a new count is at
 * par with nothing on hand). Those with the largest line first.
 */
export async function closableCarts(sandbox: Sandbox): Promise<ClosableCart[]> {
  const [carts, counts] = await Promise.all([
    listAll(sandbox, '/inventory/carts'),
    listAll(sandbox, '/inventory/counts', { from: TODAY, to: TODAY }),
  ]);
  const today = new Map(counts.map((c) => [c.cart_id, c]));
  const out: ClosableCart[] = [];
  for (const cart of carts) {
    const count = today.get(cart.id);
    if (!cart.is_active || (count && count.status !== 'pending')) continue;
    const lines: { item_id: string; item_name: string; required: number }[] = count
      ? count.lines
      : cart.par.map((p: any) => ({ item_id: p.item_id, item_name: p.item_name, required: p.par_quantity }));
    const line = [...lines].sort((a, b) => b.required - a.required)[0];
    if (!line) continue;
    out.push({
      id: cart.id,
      name: cart.name,
      unitName: cart.unit_name,
      customerId: cart.customer_id,
      itemId: line.item_id,
      itemName: line.item_name,
      required: line.required,
    });
  }
  return out.sort((a, b) => b.required - a.required || a.name.localeCompare(b.name));
}

const RANK: Record<string, number> = { low: 1, medium: 2, high: 3 };

/** Open and acknowledged signals (the default listing) at or above a severity. */
export async function signalsNow(sandbox: Sandbox, least: 'low' | 'medium' | 'high' = 'low') {
  return (await listAll(sandbox, '/inventory/signals')).filter((s) => RANK[s.severity]! >= RANK[least]!);
}

/** Open invoices (a balance left, payment terms) `days` or more overdue today. */
export async function overdueNow(sandbox: Sandbox, days: number) {
  const open = [
    ...(await listAll(sandbox, '/invoices', { status: 'sent' })),
    ...(await listAll(sandbox, '/invoices', { status: 'partially_paid' })),
  ];
  return open.filter(
    (i) => i.balance_cents > 0 && i.due_at !== null && expectedDaysOverdue(i.due_at, TODAY, TZ) >= days,
  );
}

/** Active purchase orders with less than `percent`% of their budget left. */
export async function lowBudgetsNow(sandbox: Sandbox, percent: number) {
  return (await listAll(sandbox, '/purchase-orders', { status: 'active' })).filter(
    (p) => p.total_cents > 0 && p.remaining_cents / p.total_cents < percent / 100,
  );
}

/** A customer's quality tickets opened in the last year. */
export async function ticketsOf(sandbox: Sandbox, customerId: string) {
  return listAll(sandbox, '/quality-tickets', { customer_id: customerId, from: '2025-11-20' });
}
