import * as z from 'zod/mini';
import { cents, id, nullable, openEnum, text, timestamp } from './common.ts';

export const INVOICE_STATUSES = ['sent', 'partially_paid', 'paid'] as const;

export const InvoiceSchema = z.object({
  id,
  invoice_number: text,
  status: openEnum(INVOICE_STATUSES),
  customer_id: id,
  department_id: nullable(id),
  issued_at: timestamp,
  due_at: nullable(timestamp),
  sent_at: timestamp,
  paid_at: nullable(timestamp),
  subtotal_cents: cents,
  surcharges_cents: cents,
  tax_cents: cents,
  total_cents: cents,
  balance_cents: cents,
  currency: text,
  pdf_url: text,
});
export type Invoice = z.infer<typeof InvoiceSchema>;

export const PAYMENT_KINDS = ['card', 'ach', 'check', 'cash', 'credit_memo', 'write_off'] as const;

export const PaymentSchema = z.object({
  id,
  customer_id: id,
  kind: openEnum(PAYMENT_KINDS),
  status: openEnum(['settled', 'returned', 'failed']),
  amount_cents: cents,
  currency: text,
  received_at: timestamp,
  returned_at: nullable(timestamp),
  allocations: z.array(z.object({ invoice_id: nullable(id), invoice_number: nullable(text), amount_cents: cents })),
});
export type Payment = z.infer<typeof PaymentSchema>;

export const BalanceRowSchema = z.object({
  customer_id: id,
  customer_name: text,
  balance_cents: cents,
  currency: text,
  aging: z.object({ current: cents, d1_30: cents, d31_60: cents, d61_plus: cents }),
});
export type BalanceRow = z.infer<typeof BalanceRowSchema>;

export const PO_STATUSES = ['pending', 'active', 'closed', 'cancelled'] as const;

export const PurchaseOrderSchema = z.object({
  id,
  customer_id: id,
  po_number: text,
  status: openEnum(PO_STATUSES),
  total_cents: cents,
  spent_cents: cents,
  remaining_cents: cents,
  currency: text,
  started_at: timestamp,
  expires_at: timestamp,
});
export type PurchaseOrder = z.infer<typeof PurchaseOrderSchema>;
