/**
 * Quality tickets (with their customer-visible history) and delivery ratings.
 *
 * A ticket is raised in every cycle of a week from the fixed origin, the subjects taking turns; each ticket's
 * history is drawn from its cycle's stream and its status is how far that history has got at the generation
 * instant (a ticket only goes as far as its subject's usual outcome). A rating belongs to the delivery it rates.
 */
import type { LocalDate, Manifest, QualityTicket, Rating, TicketStatus } from '../model.ts';
import { cycleOf, cycleStart } from './calendar.ts';
import { numberByDay } from './numbers.ts';
import { cmp, customerByCode, type Org } from './org.ts';
import type { Rng } from './prng.ts';
import { addDays, type Clock, daysBetween, isoOf } from './time.ts';

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

/** [kind, customer code, subject, the furthest status a ticket about it gets to, resolution note] */
type TicketSpec = [string, string, string, TicketStatus, string | null];
const TICKETS: TicketSpec[] = [
  [
    'stain',
    'MGH',
    'Blood stains on ICU flat sheets after wash',
    'verified',
    'Re-run through the stain program; sheets replaced from stock.',
  ],
  [
    'rip_damage',
    'SLMC',
    'Torn bath blankets in Emergency delivery',
    'resolved',
    'Eleven blankets retired and credited.',
  ],
  ['shortage', 'MGH', 'Bath towels short at ICU again', 'in_progress', null],
  [
    'wrong_item',
    'HH',
    'Received patient gowns instead of spa robes',
    'resolved',
    'Cart mislabeled at staging; robes delivered the same afternoon.',
  ],
  ['late_delivery', 'SLMC', 'Saturday delivery arrived after 11:00', 'acknowledged', null],
  ['billing_dispute', 'SLMC', 'Fuel surcharge on invoice higher than contract', 'in_progress', null],
  ['other', 'LRC', 'Please update delivery contact for Hydrotherapy', 'new', null],
  [
    'complaint',
    'MGH',
    'Driver blocked the ambulance bay during drop-off',
    'verified',
    'Route changed to use Dock B; driver briefed.',
  ],
  [
    'missing_linen',
    'MWSC',
    'Missing bath blankets from PACU order',
    'resolved',
    'Two carts found at the plant and delivered.',
  ],
  [
    'damage_claim',
    'HH',
    'Damage claim: tablecloths returned with burn holes',
    'verified',
    'Claim accepted for 14 tablecloths.',
  ],
  ['stain', 'HH', 'Makeup stains on pillowcases (Housekeeping)', 'new', null],
  ['shortage', 'HH', 'Napkins short for Saturday banquet', 'acknowledged', null],
  ['stain', 'LRC', 'Rust spots on fitted sheets', 'in_progress', null],
  ['late_delivery', 'MGH', 'Towels & washcloths late <ICU> again, @channel please escalate', 'new', null],
  ['rip_damage', 'MGH', 'Patient gowns with broken snaps', 'resolved', 'Snap supplier changed; 40 gowns repaired.'],
  ['wrong_item', 'MWSC', 'Scrub pants sizes mixed in OR delivery', 'acknowledged', null],
  ['shortage', 'SLMC', 'Flat sheets under par in ICU', 'new', null],
  [
    'billing_dispute',
    'HH',
    'Invoice charged for spa slippers we did not receive',
    'verified',
    'Charge reversed on the next invoice.',
  ],
  [
    'other',
    'MGH',
    'Request: extra cart for Maternity on weekends',
    'resolved',
    'Weekend cart added from the next cycle.',
  ],
  ['late_delivery', 'LRC', 'Holiday schedule delivery missed', 'verified', 'Holiday calendar corrected for the year.'],
  ['stain', 'SLMC', 'Yellowed pillowcases in Pediatrics', 'acknowledged', null],
  [
    'complaint',
    'SLMC',
    'Driver courtesy at the Tower A dock',
    'resolved',
    'Spoke with the driver and the route supervisor.',
  ],
  ['other', 'MH', 'Quarterly business review for all Mercy sites', 'in_progress', null],
  ['rip_damage', 'HH', 'Bathrobe belts missing or torn', 'new', null],
];

const COMMENTS = [
  "Photos attached from this morning's carts.",
  'Our route supervisor will check the next delivery.',
  'Still seeing this on the weekend carts.',
  'Plant quality team has pulled samples.',
];

/** One ticket is raised in each cycle of this many days, on a day drawn in the cycle. */
const TICKET_CYCLE = 7;
/** The provider's ticket numbers per day, across all its customers. */
export const TICKETS_PER_DAY = 1.728;

export function buildTickets(root: Rng, clock: Clock, org: Org, firstDay: LocalDate): QualityTicket[] {
  const now = clock.nowMs;
  const tickets: QualityTicket[] = [];
  for (let cycle = cycleOf(TICKET_CYCLE, firstDay); cycle <= cycleOf(TICKET_CYCLE, clock.today); cycle++) {
    const [kind, code, subject, furthest, note] = TICKETS[cycle % TICKETS.length] as TicketSpec;
    const rng = root.fork(`ticket#${cycle}`);
    const day = addDays(cycleStart(TICKET_CYCLE, cycle), rng.int(0, TICKET_CYCLE - 1));
    const created = clock.ms(day, 420 + rng.int(0, 36000) / 60);
    // Hours from creation to each later step: acknowledged, in progress, resolved, verified.
    const steps: number[] = [rng.int(2, 96)];
    steps.push(steps[0]! + rng.int(12, 240));
    steps.push(steps[1]! + rng.int(48, 720));
    steps.push(steps[2]! + rng.int(24, 240));
    const commenter = rng.pick(['customer', 'provider'] as const);
    const comment = rng.pick(COMMENTS);
    const id = rng.id();
    if (day < firstDay || created > now - 30 * 60_000) continue;
    const at = (i: number): number => created + (steps[i] ?? 0) * 3_600_000;
    let rank = 0;
    while (rank < RANK[furthest] && at(rank) <= now) rank++;
    const status = (Object.keys(RANK) as TicketStatus[]).find((s) => RANK[s] === rank) as TicketStatus;

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
      events.push({ event_type: 'comment', actor_kind: commenter, body: comment, created_at: isoOf(t) });
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
    tickets.push({
      id,
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
    });
  }

  numberByDay(tickets, {
    prefix: 'TKT',
    digits: 5,
    perDay: TICKETS_PER_DAY,
    day: (t) => clock.localDay(t.created_at),
    order: (a, b) => cmp(a.created_at, b.created_at) || cmp(a.id, b.id),
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

/** About one delivery in fifty is rated by its customer; Mercy Health rates some of its locations' deliveries. */
const RATED = 0.02;
const RATED_BY_GROUP: Record<string, number> = { MWSC: 0.035, MGH: 0.002 };
/** Ratings of the deliveries of this many days are shown. */
const RATING_DAYS = 90;

export function buildRatings(root: Rng, clock: Clock, org: Org, manifests: readonly Manifest[]): Rating[] {
  const group = customerByCode(org, 'MH');
  const ratings: Rating[] = [];
  for (const m of manifests) {
    if (m.type !== 'normal' || m.delivered_at === null) continue;
    if (daysBetween(clock.localDay(m.delivered_at), clock.today) > RATING_DAYS) continue;
    const rng = root.fork(`rating/${m.id}`);
    const byGroup = rng.next() < (RATED_BY_GROUP[org.byId.get(m.customer_id)?.spec.code ?? ''] ?? 0);
    if (!byGroup && !rng.chance(RATED)) continue;
    const r = rng.next();
    const quality = r < 0.05 ? 1 : r < 0.13 ? 2 : r < 0.3 ? 3 : r < 0.65 ? 4 : 5;
    const createdMs = Date.parse(m.delivered_at) + rng.int(60, 1800) * 60_000;
    const onTime = rng.chance(0.2) ? null : rng.chance(quality >= 3 ? 0.9 : 0.4);
    const note = rng.chance(0.5) ? rng.pick(NOTES[quality] ?? ['']) : null;
    const id = rng.id();
    if (createdMs > clock.nowMs - 5 * 60_000) continue;
    ratings.push({
      id,
      customer_id: byGroup ? group.id : m.customer_id,
      manifest_id: m.id,
      manifest_number: m.manifest_number,
      on_time: onTime,
      quality_rating: quality,
      note,
      created_at: isoOf(createdMs),
    });
  }
  return ratings.sort((a, b) => cmp(b.created_at, a.created_at) || cmp(a.id, b.id));
}
