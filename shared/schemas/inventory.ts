import * as z from 'zod/mini';
import { bool, day, id, int, nullable, openEnum, text, timestamp } from './common.ts';

export const InventoryTotalSchema = z.object({
  item_id: id,
  item_name: text,
  total_owned: int,
  at_customer: int,
  at_facility: int,
  in_transit: int,
  retired: int,
});
export type InventoryTotal = z.infer<typeof InventoryTotalSchema>;

export const ParLevelSchema = z.object({
  customer_id: id,
  department_id: nullable(id),
  department_name: nullable(text),
  item_id: id,
  item_name: text,
  par_quantity: int,
  par_unit: openEnum(['pieces', 'cart_loads']),
  reorder_threshold: int,
});
export type ParLevel = z.infer<typeof ParLevelSchema>;

export const UnitSchema = z.object({
  id,
  customer_id: id,
  name: text,
  building: nullable(text),
  floor: nullable(text),
  unit_type: nullable(text),
  cost_center: nullable(text),
  cart_count: int,
  is_active: bool,
});
export type Unit = z.infer<typeof UnitSchema>;

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

export const CartSchema = z.object({
  id,
  customer_id: id,
  unit_id: id,
  name: text,
  unit_name: nullable(text),
  kind: openEnum(['cart', 'closet', 'linen_room', 'exchange_cart']),
  stocking_method: openEnum(['fixed', 'census']),
  count_days: z.array(openEnum(WEEKDAYS)),
  is_active: bool,
  par: z.array(z.object({ item_id: id, item_name: text, par_quantity: int })),
});
export type Cart = z.infer<typeof CartSchema>;

export const COUNT_STATUSES = ['pending', 'in_progress', 'counted', 'verified', 'assumed'] as const;

export const CartCountSchema = z.object({
  id,
  customer_id: id,
  cart_id: id,
  cart_name: nullable(text),
  unit_id: nullable(id),
  unit_name: nullable(text),
  date: day,
  status: openEnum(COUNT_STATUSES),
  unscheduled: bool,
  counted_at: nullable(timestamp),
  verified_at: nullable(timestamp),
  lines: z.array(
    z.object({
      item_id: id,
      item_name: text,
      par: int,
      on_hand: int,
      required: int,
      delivered: int,
      extra: int,
      returned: int,
    }),
  ),
});
export type CartCount = z.infer<typeof CartCountSchema>;

export type BalanceStatus = 'new' | 'in_reserve' | 'in_plant' | 'in_transit' | 'at_customer' | `retired_${string}`;
const BALANCE_STATUSES = new Set(['new', 'in_reserve', 'in_plant', 'in_transit', 'at_customer']);

export const BalanceByStatusSchema = z.object({
  item_id: id,
  item_name: text,
  status: z
    .string()
    .check(
      z.refine((s) => BALANCE_STATUSES.has(s) || s.startsWith('retired_'), 'expected a known status or retired_*'),
    ) as unknown as z.ZodMiniType<BalanceStatus>,
  quantity: int,
});
export type BalanceByStatus = z.infer<typeof BalanceByStatusSchema>;

export const SIGNAL_KINDS = [
  'shortfall_streak',
  'rolling_erosion',
  'injection_dependency',
  'over_fill',
  'dormant_stock',
  'circulation_breach',
  'unmatched_injection',
] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number] | (string & {});
export const SIGNAL_STATUSES = ['open', 'acknowledged', 'dismissed', 'resolved'] as const;
export const SEVERITIES = ['low', 'medium', 'high'] as const;

export const InventorySignalSchema = z.object({
  id,
  kind: openEnum(SIGNAL_KINDS),
  severity: openEnum(SEVERITIES),
  status: openEnum(SIGNAL_STATUSES),
  customer_id: nullable(id),
  department_id: nullable(id),
  item_id: nullable(id),
  item_name: nullable(text),
  summary: text,
  suggested_order_qty: nullable(int),
  window_start: day,
  window_end: day,
  generated_at: timestamp,
});
export type InventorySignal = z.infer<typeof InventorySignalSchema>;
