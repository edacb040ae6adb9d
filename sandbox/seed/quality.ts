/**
 * Quality tickets (with their customer-visible history) and delivery ratings.
 */
import type { Manifest, QualityTicket, Rating, TicketStatus } from '../model.ts';
import { numberByYear } from './numbers.ts';
import { cmp, customerByCode, type Org } from './org.ts';
import { pad, type Rng } from './prng.ts';
import { addDays, type Clock, daysBetween, isoOf, yy } from './time.ts';

export const KIND_LABELS: Record<string, string> = {
  stain: 'Stain',
  rip_damage: 'Rip / damage',
  shortage: 'Shortage',
  wrong_item: 'Wrong item',
  late_delivery: 'Late delivery',
  billing_dispute: 'Billing dispute',
  other: 'Other',
  complaint: 'Complaint',
  missing_linen: 'Missing linen',
  damage_claim: 'Damage claim',
};
export const STATUS_LABELS: Record<TicketStatus, QualityTicket['status_label']> = {
  new: 'Submitted',
  acknowledged: 'Acknowledged',
  in_progress: 'In progress',
  resolved: 'Resolved',
  verified: 'Resolved',
};
const RANK: Record<TicketStatus, number> = { new: 0, acknowledged: 1, in_progress: 2, resolved: 3, verified: 4 };

/** [kind, customer code, subject, status, age in days (`prev` = last calendar year), resolution note] */
type TicketSpec = [string, string, string, TicketStatus, number | 'prev', string | null];
const TICKETS: TicketSpec[] = [
  [
    'stain',
    'MGH',
    'Blood stains on ICU flat sheets after wash',
    'verified',
    150,
    'Re-run through the stain program; sheets replaced from stock.',
  ],
  [
    'rip_damage',
    'SLMC',
    'Torn bath blankets in Emergency delivery',
    'resolved',
    40,
    'Eleven blankets retired and credited.',
  ],
  ['shortage', 'MGH', 'Bath towels short at ICU again', 'in_progress', 5, null],
  [
    'wrong_item',
    'HH',
    'Received patient gowns instead of spa robes',
    'resolved',
    70,
    'Cart mislabeled at staging; robes delivered the same afternoon.',
  ],
  ['late_delivery', 'SLMC', 'Saturday delivery arrived after 11:00', 'acknowledged', 3, null],
  ['billing_dispute', 'SLMC', 'Fuel surcharge on invoice higher than contract', 'in_progress', 12, null],
  ['other', 'LRC', 'Please update delivery contact for Hydrotherapy', 'new', 1, null],
  [
    'complaint',
    'MGH',
    'Driver blocked the ambulance bay during drop-off',
    'verified',
    'prev',
    'Route changed to use Dock B; driver briefed.',
  ],
  [
    'missing_linen',
    'MWSC',
    'Missing bath blankets from PACU order',
    'resolved',
    100,
    'Two carts found at the plant and delivered.',
  ],
  [
    'damage_claim',
    'HH',
    'Damage claim: tablecloths returned with burn holes',
    'verified',
    130,
    'Claim accepted for 14 tablecloths.',
  ],
  ['stain', 'HH', 'Makeup stains on pillowcases (Housekeeping)', 'new', 0, null],
  ['shortage', 'HH', 'Napkins short for Saturday banquet', 'acknowledged', 2, null],
  ['stain', 'LRC', 'Rust spots on fitted sheets', 'in_progress', 9, null],
  ['late_delivery', 'MGH', 'Towels & washcloths late <ICU> again, @channel please escalate', 'new', 0, null],
  ['rip_damage', 'MGH', 'Patient gowns with broken snaps', 'resolved', 25, 'Snap supplier changed; 40 gowns repaired.'],
  ['wrong_item', 'MWSC', 'Scrub pants sizes mixed in OR delivery', 'acknowledged', 6, null],
  ['shortage', 'SLMC', 'Flat sheets under par in ICU', 'new', 1, null],
  [
    'billing_dispute',
    'HH',
    'Invoice charged for spa slippers we did not receive',
    'verified',
    55,
    'Charge reversed on the next invoice.',
  ],
  [
    'other',
    'MGH',
    'Request: extra cart for Maternity on weekends',
    'resolved',
    80,
    'Weekend cart added from the next cycle.',
  ],
  [
    'late_delivery',
    'LRC',
    'Holiday schedule delivery missed',
    'verified',
    120,
    'Holiday calendar corrected for the year.',
  ],
  ['stain', 'SLMC', 'Yellowed pillowcases in Pediatrics', 'acknowledged', 15, null],
  [
    'complaint',
    'SLMC',
    'Driver courtesy at the Tower A dock',
    'resolved',
    160,
    'Spoke with the driver and the route supervisor.',
  ],
  ['other', 'MH', 'Quarterly business review for all Mercy sites', 'in_progress', 20, null],
  ['rip_damage', 'HH', 'Bathrobe belts missing or torn', 'new', 3, null],
];

const COMMENTS = [
  "Photos attached from this morning's carts.",
  'Our route supervisor will check the next delivery.',
  'Still seeing this on the weekend carts.',
  'Plant quality team has pulled samples.',
];

export function buildTickets(rng: Rng, clock: Clock, org: Org): QualityTicket[] {
  const now = clock.nowMs;
  const todayYear = Number(clock.today.slice(0, 4));
  const tickets: QualityTicket[] = TICKETS.map(([kind, code, subject, status, age, note]) => {
    const day = age === 'prev' ? `${todayYear - 1}-11-${pad(rng.int(3, 27), 2)}` : addDays(clock.today, -age);
    const created = Math.min(clock.ms(day, 420 + rng.int(0, 36000) / 60), now - rng.int(30, 90) * 60_000);
    // Offsets of each later step; compressed to fit before the generation instant.
    const steps: number[] = [rng.int(1, 20) * 3_600_000];
    steps.push(steps[0]! + rng.int(2, 30) * 3_600_000);
    steps.push(steps[1]! + rng.int(24, 120) * 3_600_000);
    steps.push(steps[2]! + rng.int(24, 72) * 3_600_000);
    const rank = RANK[status];
    const lastUsed = rank === 0 ? 0 : (steps[Math.min(rank, 4) - 1] ?? 0);
    const scale = lastUsed > 0 && created + lastUsed > now - 60_000 ? (now - 60_000 - created) / lastUsed : 1;
    const at = (i: number): number => created + Math.floor((steps[i] ?? 0) * scale);

    const events: QualityTicket['customer_visible_events'] = [
      { event_type: 'created', actor_kind: 'customer', body: subject, created_at: isoOf(created) },
    ];
    if (rank >= 1)
      events.push({
        event_type: 'acknowledged',
        actor_kind: 'provider',
        body: 'Thanks, we are looking into it.',
        created_at: isoOf(at(0)),
      });
    if (rank >= 2) {
      const t = at(1);
      events.push({
        event_type: 'comment',
        actor_kind: rng.pick(['customer', 'provider'] as const),
        body: rng.pick(COMMENTS),
        created_at: isoOf(t),
      });
      events.push({
        event_type: 'status_changed',
        actor_kind: 'system',
        body: 'Status changed to In progress',
        created_at: isoOf(t + 1000),
      });
    }
    if (rank >= 3)
      events.push({ event_type: 'resolved', actor_kind: 'provider', body: note, created_at: isoOf(at(2)) });
    if (rank >= 4)
      events.push({
        event_type: 'status_changed',
        actor_kind: 'customer',
        body: 'Resolution verified',
        created_at: isoOf(at(3)),
      });

    const last = events[events.length - 1];
    return {
      id: rng.id(),
      ticket_number: '',
      kind,
      kind_label: KIND_LABELS[kind] ?? 'Other',
      status,
      status_label: STATUS_LABELS[status],
      subject,
      created_at: isoOf(created),
      acknowledged_at: rank >= 1 ? isoOf(at(0)) : null,
      resolved_at: rank >= 3 ? isoOf(at(2)) : null,
      last_correspondence_at: events.length > 1 && last ? last.created_at : null,
      resolution_note: rank >= 3 ? note : null,
      customer_visible_events: events,
      customer_id: customerByCode(org, code).id,
    };
  });

  // One sequence per year; this year's newest ticket is number 417.
  const ordered = tickets.slice().sort((a, b) => cmp(a.created_at, b.created_at) || cmp(a.id, b.id));
  const thisYear = yy(clock.localDay(now));
  const inThisYear = ordered.filter((t) => yy(clock.localDay(t.created_at)) === thisYear).length;
  numberByYear(ordered, {
    prefix: 'TKT',
    digits: 5,
    day: (t) => clock.localDay(t.created_at),
    start: (year) => (year === thisYear ? Math.max(1, 418 - inThisYear) : rng.int(1100, 1400)),
    assign: (t, number) => (t.ticket_number = number),
  });
  return tickets.sort((a, b) => cmp(b.created_at, a.created_at) || cmp(a.id, b.id));
}

const NOTES: Record<number, string[]> = {
  1: ['Half the cart was damp.', 'Wrong department labels again.'],
  2: ['Several stained pieces.', 'Arrived late and short.'],
  3: ['OK, a few torn pillowcases.', 'Fine but late.'],
  4: ['Good delivery.', 'Driver was very helpful.'],
  5: ['Perfect, thank you!', 'Everything on par today.'],
};

export function buildRatings(rng: Rng, clock: Clock, org: Org, manifests: readonly Manifest[]): Rating[] {
  const recent = manifests.filter(
    (m) =>
      m.type === 'normal' && m.delivered_at !== null && daysBetween(clock.localDay(m.delivered_at), clock.today) <= 90,
  );
  const group = customerByCode(org, 'MH');
  const west = customerByCode(org, 'MWSC').id;
  const general = customerByCode(org, 'MGH').id;
  const chosen = new Set<Manifest>();
  const ratings: Rating[] = [];
  const rate = (m: Manifest, raterId: string): void => {
    chosen.add(m);
    const r = rng.next();
    const quality = r < 0.05 ? 1 : r < 0.13 ? 2 : r < 0.3 ? 3 : r < 0.65 ? 4 : 5;
    const createdMs = Math.min(
      Date.parse(m.delivered_at as string) + rng.int(60, 1800) * 60_000,
      clock.nowMs - 5 * 60_000,
    );
    ratings.push({
      id: rng.id(),
      customer_id: raterId,
      manifest_id: m.id,
      manifest_number: m.manifest_number,
      on_time: rng.chance(0.2) ? null : rng.chance(quality >= 3 ? 0.9 : 0.4),
      quality_rating: quality,
      note: rng.chance(0.5) ? rng.pick(NOTES[quality] ?? ['']) : null,
      created_at: isoOf(createdMs),
    });
  };
  const from = (customerId: string): Manifest[] => recent.filter((m) => m.customer_id === customerId && !chosen.has(m));
  for (const m of rng.sample(from(west), 6)) rate(m, group.id);
  for (const m of rng.sample(from(general), 2)) rate(m, group.id);
  const others = recent.filter((m) => !chosen.has(m));
  for (const m of rng.sample(others, 34)) rate(m, m.customer_id);
  return ratings.sort((a, b) => cmp(b.created_at, a.created_at) || cmp(a.id, b.id));
}
