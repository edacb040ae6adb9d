/**
 * Purchase-order budgets: how much of each is left, how much is spent, and the days until it expires
 * (org-local days from today to the expiry day; 0 on the day it expires, negative once expired).
 */
import { dayInZone, daysInclusive } from '../dates.ts';
import type { PurchaseOrder } from '../schemas/accounting.ts';

export type PoStatus = PurchaseOrder & {
  /** remaining / total (0.2 is 20 % left); null for a zero budget. */
  remainingShare: number | null;
  spentShare: number | null;
  daysToExpiry: number;
};

export function daysToExpiry(po: PurchaseOrder, today: string, timeZone: string): number {
  return daysInclusive(today, dayInZone(new Date(po.expires_at), timeZone)) - 1;
}

/** Every order with its shares and days to expiry, the least budget left first. */
export function computePoStatus(pos: readonly PurchaseOrder[], today: string, timeZone: string): PoStatus[] {
  return pos
    .map((po) => ({
      ...po,
      remainingShare: po.total_cents > 0 ? po.remaining_cents / po.total_cents : null,
      spentShare: po.total_cents > 0 ? po.spent_cents / po.total_cents : null,
      daysToExpiry: daysToExpiry(po, today, timeZone),
    }))
    .sort(
      (a, b) =>
        (a.remainingShare ?? 2) - (b.remainingShare ?? 2) ||
        a.daysToExpiry - b.daysToExpiry ||
        a.po_number.localeCompare(b.po_number),
    );
}
