import * as z from 'zod/mini';
import { cents, id, int, nullable, num, openEnum, text, timestamp } from './common.ts';

export const ORDER_STAGES = ['draft', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled'] as const;

const orderFields = {
  id,
  order_number: text,
  stage: openEnum(ORDER_STAGES),
  customer_id: id,
  placed_at: nullable(timestamp),
  requested_delivery_date: nullable(timestamp),
  confirmed_delivery_date: nullable(timestamp),
  delivered_at: nullable(timestamp),
  subtotal_cents: cents,
  total_cents: cents,
  currency: text,
  orderer_name: nullable(text),
  wearer_name: nullable(text),
  wearer_department: nullable(text),
  delivery_location: nullable(text),
  po_number: nullable(text),
  line_count: int,
};

export const OrderSchema = z.object(orderFields);
export type Order = z.infer<typeof OrderSchema>;

/** The spec leaves the detail shape open; these fields are the sandbox's reading of it (sandbox/README.md). */
export const OrderChargeSchema = z.object({
  id,
  kind: text,
  description: text,
  quantity: num,
  /** 1/1000 of a dollar. */
  unit_price_mills: int,
  amount_cents: cents,
});
export type OrderCharge = z.infer<typeof OrderChargeSchema>;

export const OrderLineSchema = z.object({
  id,
  line_number: int,
  sku: text,
  description: text,
  size: nullable(text),
  color: nullable(text),
  quantity: num,
  unit_price_cents: cents,
  charges: z.array(OrderChargeSchema),
  subtotal_cents: cents,
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

export const OrderDetailSchema = z.object({
  ...orderFields,
  lines: z.array(OrderLineSchema),
  charges: z.array(OrderChargeSchema),
});
export type OrderDetail = z.infer<typeof OrderDetailSchema>;
