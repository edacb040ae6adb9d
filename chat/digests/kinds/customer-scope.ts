/** Whose records a subscription's digest shows (a group customer stands for itself and its locations). */
import { type Customer, groupLocations } from '../../../shared/index.ts';
import type { Subscription } from '../storage/types.ts';

/**
 * Whether a customer's records belong to a subscription: every customer when it names none; otherwise the ones it
 * names, and with a group the locations its name suggests (each record is shown under its own customer).
 */
export function customerScope(
  sub: Pick<Subscription, 'customerIds'>,
  customers: readonly Customer[],
): (customerId: string | null) => boolean {
  if (sub.customerIds.length === 0) return () => true;
  const ids = new Set(sub.customerIds);
  for (const c of customers) if (ids.has(c.id)) for (const l of groupLocations(c, customers)) ids.add(l.id);
  return (customerId) => customerId !== null && ids.has(customerId);
}
