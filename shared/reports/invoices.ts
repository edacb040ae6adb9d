/**
 * Invoices by how overdue they are. Days overdue are org-local days from the due day to today for an invoice
 * with an open balance: 0 until the due day has passed (an invoice due today is not yet overdue), null without
 * payment terms. The buckets are the API's aging buckets (`d1_30` is 1 to 30 days overdue).
 */
import { dayInZone, daysInclusive } from '../dates.ts';
import type { Invoice } from '../schemas/accounting.ts';

export type AgingBucket = 'current' | 'd1_30' | 'd31_60' | 'd61_plus';
export const AGING_BUCKETS: readonly AgingBucket[] = ['current', 'd1_30', 'd31_60', 'd61_plus'];
export const AGING_LABELS: Record<AgingBucket, string> = {
  current: 'current',
  d1_30: '1–30 days',
  d31_60: '31–60 days',
  d61_plus: '61+ days',
};

export type AgedInvoice = Invoice & { daysOverdue: number | null; bucket: AgingBucket };

export function daysOverdue(inv: Invoice, today: string, timeZone: string): number | null {
  if (inv.due_at === null) return null;
  if (inv.balance_cents <= 0) return 0;
  return Math.max(0, daysInclusive(dayInZone(new Date(inv.due_at), timeZone), today) - 1);
}

export function agingBucket(days: number | null): AgingBucket {
  if (days === null || days <= 0) return 'current';
  return days <= 30 ? 'd1_30' : days <= 60 ? 'd31_60' : 'd61_plus';
}

/** Each invoice with its days overdue and bucket, most overdue first (then oldest due, then number). */
export function ageInvoices(invoices: readonly Invoice[], today: string, timeZone: string): AgedInvoice[] {
  return invoices
    .map((inv) => {
      const days = daysOverdue(inv, today, timeZone);
      return { ...inv, daysOverdue: days, bucket: agingBucket(days) };
    })
    .sort(
      (a, b) =>
        (b.daysOverdue ?? -1) - (a.daysOverdue ?? -1) ||
        (a.due_at ?? '\uffff').localeCompare(b.due_at ?? '\uffff') ||
        a.invoice_number.localeCompare(b.invoice_number),
    );
}
