import * as z from 'zod/mini';
import { bool, cents, day, id, int, nullable, num, openEnum, ref, text, timestamp } from './common.ts';

export const MANIFEST_TYPES = ['normal', 'rewash', 'new_linen'] as const;
export const MANIFEST_STATUSES = ['collected', 'received', 'cleaned', 'staged', 'delivered'] as const;

const manifestFields = {
  id,
  manifest_number: text,
  type: openEnum(MANIFEST_TYPES),
  status: openEnum(MANIFEST_STATUSES),
  customer_id: id,
  department_id: nullable(id),
  department_name: nullable(text),
  created_at: timestamp,
  picked_up_at: nullable(timestamp),
  received_at: nullable(timestamp),
  cleaned_at: nullable(timestamp),
  staged_at: nullable(timestamp),
  delivered_at: nullable(timestamp),
  soil_weight_lb: nullable(num),
  clean_weight_lb: nullable(num),
  clean_piece_count: nullable(int),
  variance_pct: nullable(num),
  variance_within_tolerance: nullable(bool),
  parent_manifest_id: nullable(id),
  amount_cents: nullable(cents),
  currency: text,
};

export const ManifestSchema = z.object(manifestFields);
export type Manifest = z.infer<typeof ManifestSchema>;

export const BinSchema = z.object({
  id,
  side: openEnum(['soil', 'clean']),
  content: text,
  bin_ticket_number: text,
  gross_lb: num,
  tare_lb: num,
  net_lb: num,
  items: z.array(z.object({ item_id: id, item_name: text, piece_count: int, disposition: text })),
});
export type Bin = z.infer<typeof BinSchema>;

export const ManifestDetailSchema = z.object({
  ...manifestFields,
  bins: z.array(BinSchema),
  held_rewash: nullable(
    z.object({
      held_weight_lb: nullable(num),
      status: text,
      soil_rewash_lb: nullable(num),
      error_rewash_lb: nullable(num),
    }),
  ),
  rewash_links: z.object({ parent_manifest: nullable(ref), rewash_children: z.array(ref) }),
  signature: z.object({
    signed_by_name: nullable(text),
    signed_by_title: nullable(text),
    delivered_at: nullable(timestamp),
  }),
});
export type ManifestDetail = z.infer<typeof ManifestDetailSchema>;

export const DailyDeliveryRowSchema = z.object({
  date: day,
  customer_id: id,
  customer_name: text,
  department_id: nullable(id),
  department_name: nullable(text),
  item_id: id,
  item_name: text,
  delivered_count: int,
  daily_par: nullable(int),
  fill_rate: nullable(num),
});
export type DailyDeliveryRow = z.infer<typeof DailyDeliveryRowSchema>;

export const NewLinenInjectionSchema = z.object({
  id,
  manifest_number: text,
  date: nullable(day),
  customer_id: id,
  department_id: nullable(id),
  direction: text,
  soil_weight_lb: nullable(num),
  injected_weight_lb: nullable(num),
  items: z.array(z.object({ item_id: id, item_name: text, piece_count: int })),
});
export type NewLinenInjection = z.infer<typeof NewLinenInjectionSchema>;

export const REWASH_STATUSES = ['pending', 'consumed', 'voided'] as const;

export const RewashBatchSchema = z.object({
  id,
  customer_id: id,
  department_id: nullable(id),
  discovered_at: timestamp,
  status: openEnum(REWASH_STATUSES),
  held_weight_lb: nullable(num),
  soil_rewash_lb: nullable(num),
  error_rewash_lb: nullable(num),
  parent_manifest: ref,
  consumed_by_manifest: nullable(z.object({ id, manifest_number: text, delivered_at: nullable(timestamp) })),
  outcomes: z.array(z.object({ fault_class: text, good_lb: num, damage_lb: num })),
});
export type RewashBatch = z.infer<typeof RewashBatchSchema>;
