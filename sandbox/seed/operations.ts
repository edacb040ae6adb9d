/**
 * Plant operations over the seeded history: one manifest per department on each delivery day, customer-wide
 * runs (scrub machines, pool towels), new-linen injections, held rewash and the rewash manifests that return it.
 *
 * Each delivery day of each run (a department or a customer-wide delivery) is drawn from its own stream, and
 * manifest numbers come from the block of the day the manifest was created (numbers.ts), so a past day's
 * manifests are the same whichever day the data is generated for; only their progress through today differs.
 */
import type { LocalDate, Manifest, ManifestRef, RewashBatch, Weekday } from '../model.ts';
import {
  type Assembled,
  assemble,
  type BinContext,
  drawVariance,
  type ManifestPlan,
  type Piece,
  type Stamps,
} from './bins.ts';
import { cycleOf, cycleStart, dayIndex, dayStream, inPhase, weekIndex } from './calendar.ts';
import { numberByDay } from './numbers.ts';
import { type CustomerRt, cmp, customerByCode, type DeptRt, type Org } from './org.ts';
import { pad, type Rng } from './prng.ts';
import { buildRewash, type HeldRewash } from './rewash.ts';
import { addDays, type Clock, weekdayOf } from './time.ts';

export interface Operations {
  manifests: Manifest[];
  rewash_batches: RewashBatch[];
}

/** The plant's manifest numbers per day, across all its customers (the sandbox shows a fifth of them). */
const MANIFESTS_PER_DAY = 90.06;
/** Days planned before the first day shown: the manifests created on the first days are then all there to rank. */
const LEAD_DAYS = 2;
/** The cycle of the chronic lines: short (or over par) every day but the first few of their turn. */
const CHRONIC_CYCLE = 28;
const RECOVERY_DAYS = 4;
/** Bin tickets: each creation day owns a block, each manifest slot of the day eight tickets. */
const TICKETS_PER_DAY = 800;
const TICKETS_PER_SLOT = 8;
/** Slots of the manifests that are not a run's delivery. */
const NEW_LINEN_SLOT = 30;
const STOCK_RECEIPT_SLOT = 40;
const REWASH_SLOT = 44;
/** New linen goes into circulation about once per cycle of this many days, per customer. */
const NEW_LINEN_CYCLE = 23;
/** The hotel's new stock arrives on the Tuesday of this week of every four (weeks counted from the origin). */
const STOCK_RECEIPT_WEEK = 2;

interface Run {
  customer: CustomerRt;
  dept: DeptRt;
  days: readonly Weekday[];
  label: string;
  slot: number;
}

/** A planned manifest and whether it is shown (plans of the lead days only fill the numbering). */
interface Planned {
  assembled: Assembled;
  shown: boolean;
}

function contentOf(org: Org, itemId: string): string {
  return org.itemSpecById.get(itemId)?.content ?? 'mixed_linen';
}

/** Whether a chronic line recovers on `day`: the first days of its turn in the cycle. */
function recovering(day: LocalDate, week: number): boolean {
  return inPhase(day, CHRONIC_CYCLE, -7 * week, 0, RECOVERY_DAYS);
}

/** What a department receives on one delivery day. */
function dailyPieces(rng: Rng, org: Org, dept: DeptRt, day: LocalDate, holdChance: number): Piece[] {
  const pieces: Piece[] = [];
  const eligible: Piece[] = [];
  for (const line of dept.lines) {
    const spec = line.spec;
    let factor: number;
    if (spec.shortWeek !== undefined && !recovering(day, spec.shortWeek)) factor = rng.float(0.56, 0.72);
    else if (spec.overDays !== undefined && !recovering(day, 2)) factor = rng.float(1.2, 1.42);
    else factor = 0.7 + 0.4 * ((rng.next() + rng.next()) / 2);
    const count = Math.max(1, Math.round(line.target * factor));
    const piece: Piece = {
      itemId: line.itemId,
      itemName: line.itemName,
      count,
      disposition: 'clean',
      content: contentOf(org, line.itemId),
    };
    pieces.push(piece);
    if (spec.shortWeek === undefined) eligible.push(piece);
  }
  if (eligible.length > 0 && rng.chance(holdChance)) {
    for (const p of rng.sample(eligible, rng.int(1, 2))) {
      const heldCount = Math.max(2, Math.round(p.count * rng.float(0.04, 0.12)));
      pieces.push({ ...p, count: heldCount, disposition: 'rewash_hold' });
    }
  }
  if (eligible.length > 0 && rng.chance(0.06)) {
    const p = rng.pick(eligible);
    pieces.push({ ...p, count: rng.int(1, 4), disposition: 'damaged' });
  }
  return pieces;
}

/**
 * Collected the morning before, washed that evening, staged overnight, delivered in the morning; a third of the
 * runs are staged late and delivered in the afternoon, a few cleaned only around noon.
 */
function deliveryStamps(rng: Rng, clock: Clock, day: LocalDate): Stamps {
  const t = (d: LocalDate, fromMin: number, spanMin: number): number =>
    clock.ms(d, fromMin + rng.int(0, spanMin * 60) / 60);
  const lag = rng.next();
  const prev = addDays(day, -1);
  const created = t(prev, 480, 360);
  const picked = created + rng.int(20, 120) * 60_000;
  const received = picked + rng.int(40, 150) * 60_000;
  const stamps: Stamps = {
    created,
    picked_up: picked,
    received,
    cleaned: t(prev, 1200, 210),
    staged: t(day, 180, 120),
    delivered: t(day, 360, 270),
  };
  if (lag < 0.12) {
    stamps.staged = t(day, 750, 60);
    stamps.delivered = stamps.staged + 3 * 3_600_000;
  } else if (lag < 0.45) {
    stamps.staged = t(day, 540, 120);
    stamps.delivered = t(day, 780, 180);
  }
  return stamps;
}

function runsOf(org: Org): Run[] {
  const runs: Run[] = [];
  for (const customer of org.customers) {
    if (customer.spec.isGroup) continue;
    customer.depts.forEach((dept, i) => {
      const label = `${customer.spec.code}/${i}`;
      runs.push({ customer, dept, days: customer.spec.deliveryDays, label, slot: runs.length });
    });
    if (customer.wide && customer.spec.wide) {
      const label = `${customer.spec.code}/wide`;
      runs.push({ customer, dept: customer.wide, days: customer.spec.wide.days, label, slot: runs.length });
    }
  }
  if (runs.length > NEW_LINEN_SLOT) throw new Error('more runs than manifest slots');
  return runs;
}

export function buildOperations(root: Rng, clock: Clock, org: Org, firstDay: LocalDate): Operations {
  const planStart = addDays(firstDay, -LEAD_DAYS);
  const lastDay = addDays(clock.today, 1);
  const context = (rng: Rng, createdMs: number, slot: number): BinContext => {
    const day = clock.localDay(createdMs);
    let ticket = 2_000_000 + dayIndex(day) * TICKETS_PER_DAY + slot * TICKETS_PER_SLOT;
    return { rng, clock, org, nextTicket: () => `BT-${pad(ticket++, 7)}` };
  };
  const planned: Planned[] = [];
  const held: HeldRewash[] = [];
  const runs = runsOf(org);

  for (let day = planStart; day <= lastDay; day = addDays(day, 1)) {
    const weekday = weekdayOf(day);
    for (const run of runs) {
      if (!run.days.includes(weekday)) continue;
      const rng = dayStream(root, run.label, day);
      if (run.dept.id !== null && rng.chance(0.03)) continue;
      // The first department of each customer holds rewash more often, so a batch is usually pending.
      const holdChance = run.dept === run.customer.depts[0] ? 0.08 : 0.035;
      const stamps = deliveryStamps(rng, clock, day);
      const plan: ManifestPlan = {
        type: 'normal',
        customer: run.customer,
        departmentId: run.dept.id,
        departmentName: run.dept.name,
        stamps,
        pieces: dailyPieces(rng, org, run.dept, day, holdChance),
        variance: drawVariance(rng),
        soilContent: 'mixed_linen',
      };
      const assembled = assemble(context(rng, stamps.created, run.slot), plan);
      const shown = day >= firstDay;
      planned.push({ assembled, shown });
      const heldPieces = plan.pieces.filter((p) => p.disposition === 'rewash_hold');
      if (heldPieces.length > 0)
        held.push({ parent: assembled, plan, held: heldPieces, rng: rng.fork('rewash'), slot: run.slot, shown });
    }
  }
  planned.push(...planNewLinen(root, clock, org, planStart, lastDay, firstDay, context));

  const rewash = buildRewash(clock, org, held, (rng, createdMs, parentSlot) =>
    context(rng, createdMs, REWASH_SLOT + parentSlot),
  );
  numberByDay([...planned.map((p) => p.assembled), ...rewash.planned], {
    prefix: 'MAN',
    digits: 6,
    perDay: MANIFESTS_PER_DAY,
    day: (a) => clock.localDay(a.created),
    order: (a, b) => a.created - b.created || cmp(a.id, b.id),
    assign: (a, number) => {
      if (a.manifest) a.manifest.manifest_number = number;
    },
  });

  const manifests: Manifest[] = [];
  for (const { assembled, shown } of planned) if (shown && assembled.manifest) manifests.push(assembled.manifest);
  manifests.push(...rewash.children);
  link(manifests, rewash.batches);

  manifests.sort(manifestOrder);
  rewash.batches.sort((a, b) =>
    a.discovered_at === b.discovered_at ? (a.id < b.id ? -1 : 1) : a.discovered_at < b.discovered_at ? 1 : -1,
  );
  return { manifests, rewash_batches: rewash.batches };
}

/**
 * New linen put into circulation about once every few weeks per customer (a day drawn in each cycle), and the
 * hotel's new stock, received every fourth Tuesday morning and washed that night.
 */
function planNewLinen(
  root: Rng,
  clock: Clock,
  org: Org,
  planStart: LocalDate,
  lastDay: LocalDate,
  firstDay: LocalDate,
  context: (rng: Rng, createdMs: number, slot: number) => BinContext,
): Planned[] {
  const out: Planned[] = [];
  const plan = (rng: Rng, customer: CustomerRt, dept: DeptRt, stamps: Stamps): ManifestPlan => {
    const lines = rng.sample(
      dept.lines.filter((l) => l.spec.shortWeek === undefined),
      rng.int(1, 3),
    );
    const pieces: Piece[] = lines.map((l) => {
      const pack = org.itemSpecById.get(l.itemId)?.pack ?? 12;
      return {
        itemId: l.itemId,
        itemName: l.itemName,
        count: pack * rng.int(2, 10),
        disposition: 'clean',
        content: 'new_linen',
      };
    });
    return {
      type: 'new_linen',
      customer,
      departmentId: dept.id,
      departmentName: dept.name,
      stamps,
      pieces,
      variance: rng.float(0.005, 0.03),
      soilContent: 'new_linen',
    };
  };
  ['MGH', 'SLMC', 'HH', 'LRC'].forEach((code, index) => {
    const customer = customerByCode(org, code);
    for (let c = cycleOf(NEW_LINEN_CYCLE, planStart) - 1; c <= cycleOf(NEW_LINEN_CYCLE, lastDay); c++) {
      const rng = root.fork(`new-linen/${code}#${c}`);
      let day = addDays(cycleStart(NEW_LINEN_CYCLE, c), rng.int(0, NEW_LINEN_CYCLE - 1));
      while (!customer.spec.deliveryDays.includes(weekdayOf(day))) day = addDays(day, 1);
      if (day < planStart || day > lastDay) continue;
      const dept = customer.wide && rng.chance(0.2) ? customer.wide : rng.pick(customer.depts);
      const stamps = deliveryStamps(rng, clock, day);
      const slot = NEW_LINEN_SLOT + 2 * index + (c % 2);
      const assembled = assemble(context(rng, stamps.created, slot), plan(rng, customer, dept, stamps));
      out.push({ assembled, shown: day >= firstDay });
    }
  });
  // The hotel's new stock: weighed on the soil side in the morning, cleaned at night.
  const hotel = customerByCode(org, 'HH');
  for (let day = planStart; day <= lastDay; day = addDays(day, 1)) {
    if (weekdayOf(day) !== 'tue' || weekIndex(day) % 4 !== STOCK_RECEIPT_WEEK) continue;
    const rng = dayStream(root, 'hotel-stock', day);
    const created = clock.ms(day, 480 + rng.int(0, 1800) / 60);
    const picked = created + rng.int(20, 30) * 60_000;
    const received = picked + rng.int(40, 60) * 60_000;
    const stamps: Stamps = {
      created,
      picked_up: picked,
      received,
      cleaned: clock.ms(day, 1260),
      staged: clock.ms(addDays(day, 1), 240),
      delivered: clock.ms(addDays(day, 1), 420),
    };
    const assembled = assemble(
      context(rng, created, STOCK_RECEIPT_SLOT),
      plan(rng, hotel, hotel.depts[0] as DeptRt, stamps),
    );
    out.push({ assembled, shown: day >= firstDay });
  }
  return out;
}

function link(manifests: Manifest[], batches: RewashBatch[]): void {
  const byId = new Map(manifests.map((m) => [m.id, m]));
  const ref = (id: string): ManifestRef => {
    const m = byId.get(id);
    if (!m) throw new Error(`missing manifest ${id}`);
    return { id: m.id, manifest_number: m.manifest_number };
  };
  for (const m of manifests) {
    if (m.parent_manifest_id === null) continue;
    const parent = byId.get(m.parent_manifest_id);
    m.rewash_links.parent_manifest = ref(m.parent_manifest_id);
    parent?.rewash_links.rewash_children.push(ref(m.id));
  }
  for (const batch of batches) {
    batch.parent_manifest = ref(batch.parent_manifest.id);
    if (batch.consumed_by_manifest) {
      batch.consumed_by_manifest = {
        ...ref(batch.consumed_by_manifest.id),
        delivered_at: batch.consumed_by_manifest.delivered_at,
      };
    }
  }
}

/** Delivered newest first (ties by id), then undelivered newest created first. */
export function manifestOrder(a: Manifest, b: Manifest): number {
  if (a.delivered_at !== null && b.delivered_at !== null) {
    if (a.delivered_at !== b.delivered_at) return a.delivered_at < b.delivered_at ? 1 : -1;
    return a.id < b.id ? -1 : 1;
  }
  if (a.delivered_at !== null) return -1;
  if (b.delivered_at !== null) return 1;
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return a.id < b.id ? -1 : 1;
}
