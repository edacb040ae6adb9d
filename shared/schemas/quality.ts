import * as z from 'zod/mini';
import { id, nullable, openEnum, timestamp } from './common.ts';

export const TICKET_KINDS = [
  'stain',
  'rip_damage',
  'shortage',
  'wrong_item',
  'late_delivery',
  'billing_dispute',
  'other',
  // legacy
  'complaint',
  'missing_linen',
  'damage_claim',
] as const;
export type TicketKind = (typeof TICKET_KINDS)[number] | (string & {});
export const TICKET_STATUSES = ['new', 'acknowledged', 'in_progress', 'resolved', 'verified'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** The label the spec defines for each status (`verified` also shows `Resolved`). */
export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  new: 'Submitted',
  acknowledged: 'Acknowledged',
  in_progress: 'In progress',
  resolved: 'Resolved',
  verified: 'Resolved',
};

export const QualityTicketSchema = z.object({
  id,
  ticket_number: z.string(),
  kind: openEnum(TICKET_KINDS),
  kind_label: z.string(),
  status: z.enum(TICKET_STATUSES),
  status_label: z.string(),
  subject: z.string(),
  created_at: timestamp,
  acknowledged_at: nullable(timestamp),
  resolved_at: nullable(timestamp),
  last_correspondence_at: nullable(timestamp),
  resolution_note: nullable(z.string()),
  customer_visible_events: z.array(
    z.object({ event_type: z.string(), actor_kind: z.string(), body: nullable(z.string()), created_at: timestamp }),
  ),
});
export type QualityTicket = z.infer<typeof QualityTicketSchema>;

export const RatingSchema = z.object({
  id,
  customer_id: id,
  manifest_id: id,
  manifest_number: nullable(z.string()),
  on_time: nullable(z.boolean()),
  quality_rating: z.int(),
  note: nullable(z.string()),
  created_at: timestamp,
});
export type Rating = z.infer<typeof RatingSchema>;
