import * as z from 'zod/mini';
import { bool, id, int, nullable, openEnum, text, timestamp } from './common.ts';

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
  ticket_number: text,
  kind: openEnum(TICKET_KINDS),
  kind_label: text,
  status: openEnum(TICKET_STATUSES),
  status_label: text,
  subject: text,
  created_at: timestamp,
  acknowledged_at: nullable(timestamp),
  resolved_at: nullable(timestamp),
  last_correspondence_at: nullable(timestamp),
  resolution_note: nullable(text),
  customer_visible_events: z.array(
    z.object({ event_type: text, actor_kind: text, body: nullable(text), created_at: timestamp }),
  ),
});
export type QualityTicket = z.infer<typeof QualityTicketSchema>;

export const RatingSchema = z.object({
  id,
  customer_id: id,
  manifest_id: id,
  manifest_number: nullable(text),
  on_time: nullable(bool),
  quality_rating: int,
  note: nullable(text),
  created_at: timestamp,
});
export type Rating = z.infer<typeof RatingSchema>;
