import * as z from 'zod/mini';
import { cents, day, id, nullable, ref, timestamp } from './common.ts';

export const MANIFEST_TYPES = ['normal', 'rewash', 'new_linen'] as const;
export const MANIFEST_STATUSES = ['collected', 'received', 'cleaned', 'staged', 'delivered'] as const;

const manifestFields = {
  id,
  manifest_number: z.string(),
  type: z.enum(MANIFEST_TYPES),
  status: z.enum(MANIFEST_STATUSES),
  customer_id: id,
  department_id: nullable(id),
  department_name: nullable(z.string()),
  created_at: timestamp,
  picked_up_at: nullable(timestamp),
  received_at: nullable(timestamp),
  cleaned_at: nullable(timestamp),
  staged_at: nullable(timestamp),
  delivered_at: nullable(timestamp),
  soil_weight_lb: nullable(z.number()),
  clean_weight_lb: nullable(z.number()),
  clean_piece_count: nullable(z.int()),
  variance_pct: nullable(z.number()),
  variance_within_tolerance: nullable(z.boolean()),
  parent_manifest_id: nullable(id),
  amount_cents: nullable(cents),
  currency: z.string(),
};

export const ManifestSchema = z.object(manifestFields);
export type Manifest = z.infer<typeof ManifestSchema>;

export const BinSchema = z.object({
  id,
  side: z.enum(['soil', 'clean']),
  content: z.string(),
  bin_ticket_number: z.string(),
  gross_lb: z.number(),
  tare_lb: z.number(),
  net_lb: z.number(),
  items: z.array(z.object({ item_id: id, item_name: z.string(), piece_count: z.int(), disposition: z.string() })),
});
export type Bin = z.infer<typeof BinSchema>;

export const ManifestDetailSchema = z.object({
  ...manifestFields,
  bins: z.array(BinSchema),
  held_rewash: nullable(
    z.object({
      held_weight_lb: nullable(z.number()),
      status: z.string(),
      soil_rewash_lb: nullable(z.number()),
      error_rewash_lb: nullable(z.number()),
    }),
  ),
  rewash_links: z.object({ parent_manifest: nullable(ref), rewash_children: z.array(ref) }),
  signature: z.object({
    signed_by_name: nullable(z.string()),
    signed_by_title: nullable(z.string()),
    delivered_at: nullable(timestamp),
  }),
});
export type ManifestDetail = z.infer<typeof ManifestDetailSchema>;

export const DailyDeliveryRowSchema = z.object({
  date: day,
  customer_id: id,
  customer_name: z.string(),
  department_id: nullable(id),
  department_name: nullable(z.string()),
  item_id: id,
  item_name: z.string(),
  delivered_count: z.int(),
  daily_par: nullable(z.int()),
  fill_rate: nullable(z.number()),
});
export type DailyDeliveryRow = z.infer<typeof DailyDeliveryRowSchema>;

export const NewLinenInjectionSchema = z.object({
  id,
  manifest_number: z.string(),
  date: nullable(day),
  customer_id: id,
  department_id: nullable(id),
  direction: z.string(),
  soil_weight_lb: nullable(z.number()),
  injected_weight_lb: nullable(z.number()),
  items: z.array(z.object({ item_id: id, item_name: z.string(), piece_count: z.int() })),
});
export type NewLinenInjection = z.infer<typeof NewLinenInjectionSchema>;

export const REWASH_STATUSES = ['pending', 'consumed', 'voided'] as const;

export const RewashBatchSchema = z.object({
  id,
  customer_id: id,
  department_id: nullable(id),
  discovered_at: timestamp,
  status: z.enum(REWASH_STATUSES),
  held_weight_lb: nullable(z.number()),
  soil_rewash_lb: nullable(z.number()),
  error_rewash_lb: nullable(z.number()),
  parent_manifest: ref,
  consumed_by_manifest: nullable(z.object({ id, manifest_number: z.string(), delivered_at: nullable(timestamp) })),
  outcomes: z.array(z.object({ fault_class: z.string(), good_lb: z.number(), damage_lb: z.number() })),
});
export type RewashBatch = z.infer<typeof RewashBatchSchema>;
