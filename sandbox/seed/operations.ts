/**
 * Plant operations over the seeded history: one manifest per department on each delivery day, customer-wide
 * runs (scrub machines, pool towels), occasional new-linen injections, held rewash and the rewash manifests that
 * return it. Manifest numbers are assigned last, in creation order, per calendar year.
 */
import type { LocalDate, Manifest, ManifestRef, RewashBatch, Weekday } from '../model.ts';
import { assemble, type BinContext, drawVariance, type ManifestPlan, type Piece, type Stamps } from './bins.ts';
import { numberByYear } from './numbers.ts';
import { type CustomerRt, customerByCode, type DeptRt, type Org } from './org.ts';
import { pad, type Rng } from './prng.ts';
import { buildRewash, type HeldRewash } from './rewash.ts';
import { addDays, type Clock, daysBetween, weekdayOf } from './time.ts';

export interface Operations {
  manifests: Manifest[];
  rewash_batches: RewashBatch[];
}

function contentOf(org: Org, itemId: string): string {
  return org.itemSpecById.get(itemId)?.content ?? 'mixed_linen';
}

/** What a department receives on one delivery; `recent` counts delivery days back from today (-1 = future). */
function dailyPieces(rng: Rng, org: Org, dept: DeptRt, recent: number, forceHold: boolean): Piece[] {
  const pieces: Piece[] = [];
  const eligible: Piece[] = [];
  for (const line of dept.lines) {
    const spec = line.spec;
    let factor: number;
    if (spec.shortDays !== undefined && recent >= 0 && recent < spec.shortDays) factor = rng.float(0.56, 0.72);
    else if (spec.overDays !== undefined && recent >= 0 && recent < spec.overDays) factor = rng.float(1.2, 1.42);
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
    if (spec.shortDays === undefined) eligible.push(piece);
  }
  if (eligible.length > 0 && (rng.chance(0.035) || forceHold)) {
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

/** Collected the morning before, washed that evening, staged overnight, delivered in the morning. */
function deliveryStamps(rng: Rng, clock: Clock, day: LocalDate, lag: 'none' | 'staged' | 'cleaned' = 'none'): Stamps {
  const t = (d: LocalDate, fromMin: number, spanMin: number): number =>
    clock.ms(d, fromMin + rng.int(0, spanMin * 60) / 60);
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
  // Part of today's run is still at the plant at the generation instant (noon).
  if (lag === 'staged') {
    stamps.staged = t(day, 540, 120);
    stamps.delivered = t(day, 780, 180);
  } else if (lag === 'cleaned') {
    stamps.staged = t(day, 750, 60);
    stamps.delivered = stamps.staged + 3 * 3_600_000;
  }
  return stamps;
}

export function buildOperations(rng: Rng, clock: Clock, org: Org, firstDay: LocalDate): Operations {
  let ticket = rng.int(2_100_000, 2_900_000);
  const ctx: BinContext = { rng, clock, org, nextTicket: () => `BT-${pad(ticket++, 7)}` };
  const manifests: Manifest[] = [];
  const held: HeldRewash[] = [];
  const span = daysBetween(firstDay, addDays(clock.today, 1));

  const add = (plan: ManifestPlan): Manifest | null => {
    const m = assemble(ctx, plan);
    if (!m) return null;
    manifests.push(m);
    const heldPieces = plan.pieces.filter((p) => p.disposition === 'rewash_hold');
    if (heldPieces.length > 0 && m.cleaned_at !== null) held.push({ parent: m, plan, held: heldPieces });
    return m;
  };

  let todays = 0;
  for (const customer of org.customers) {
    if (customer.spec.isGroup) continue;
    const runs: { dept: DeptRt; days: readonly Weekday[] }[] = customer.depts.map((dept) => ({
      dept,
      days: customer.spec.deliveryDays,
    }));
    if (customer.wide && customer.spec.wide) runs.push({ dept: customer.wide, days: customer.spec.wide.days });
    const recentCounters = new Map<DeptRt, number>();
    for (let i = span; i >= 0; i--) {
      const day = addDays(firstDay, i);
      const weekday = weekdayOf(day);
      for (const { dept, days } of runs) {
        if (!days.includes(weekday)) continue;
        if (dept.id !== null && rng.chance(0.03)) continue;
        let recent = -1;
        if (day <= clock.today) {
          recent = recentCounters.get(dept) ?? 0;
          recentCounters.set(dept, recent + 1);
        }
        // About a third of today's deliveries are still staged, a few only cleaned.
        const lag =
          day !== clock.today ? 'none' : todays++ % 5 === 1 ? 'cleaned' : todays % 3 === 0 ? 'staged' : 'none';
        // The newest delivery of each customer's first department holds some rewash, so pending batches exist.
        const forceHold = recent === 0 && dept === customer.depts[0];
        add({
          type: 'normal',
          customer,
          departmentId: dept.id,
          departmentName: dept.name,
          stamps: deliveryStamps(rng, clock, day, lag),
          pieces: dailyPieces(rng, org, dept, recent, forceHold),
          variance: drawVariance(rng),
          soilContent: 'mixed_linen',
        });
      }
    }
  }

  addNewLinen(rng, clock, org, firstDay, add);

  // Its own stream: how much rewash is held depends on the hour, and the numbers drawn after it must not.
  const rewash = buildRewash({ ...ctx, rng: rng.fork('rewash') }, held);
  manifests.push(...rewash.children);
  number(rng, clock, manifests);
  link(manifests, rewash.batches);

  manifests.sort(manifestOrder);
  rewash.batches.sort((a, b) =>
    a.discovered_at === b.discovered_at ? (a.id < b.id ? -1 : 1) : a.discovered_at < b.discovered_at ? 1 : -1,
  );
  return { manifests, rewash_batches: rewash.batches };
}

/** New linen put into circulation every few weeks, plus one received today and not yet washed. */
function addNewLinen(
  rng: Rng,
  clock: Clock,
  org: Org,
  firstDay: LocalDate,
  add: (plan: ManifestPlan) => Manifest | null,
): void {
  const plan = (customer: CustomerRt, dept: DeptRt, stamps: Stamps): ManifestPlan => {
    const lines = rng.sample(
      dept.lines.filter((l) => l.spec.shortDays === undefined),
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
  for (const code of ['MGH', 'SLMC', 'HH', 'LRC']) {
    const customer = customerByCode(org, code);
    let day = addDays(firstDay, rng.int(4, 14));
    while (day < clock.today) {
      while (!customer.spec.deliveryDays.includes(weekdayOf(day))) day = addDays(day, 1);
      const dept = customer.wide && rng.chance(0.2) ? customer.wide : rng.pick(customer.depts);
      add(plan(customer, dept, deliveryStamps(rng, clock, day)));
      day = addDays(day, rng.int(16, 30));
    }
  }
  // Received at the plant this morning: weighed on the soil side, not yet cleaned.
  const hotel = customerByCode(org, 'HH');
  const created = clock.ms(clock.today, 480 + rng.int(0, 1800) / 60);
  const picked = created + rng.int(20, 30) * 60_000;
  const received = picked + rng.int(40, 60) * 60_000;
  const tomorrow = addDays(clock.today, 1);
  add(
    plan(hotel, hotel.depts[0] as DeptRt, {
      created,
      picked_up: picked,
      received,
      cleaned: clock.ms(clock.today, 1260),
      staged: clock.ms(tomorrow, 240),
      delivered: clock.ms(tomorrow, 420),
    }),
  );
}

/** `MAN-YY-######` in creation order; the counter restarts each calendar year. */
function number(rng: Rng, clock: Clock, manifests: Manifest[]): void {
  manifests.sort((a, b) =>
    a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
  );
  numberByYear(manifests, {
    prefix: 'MAN',
    digits: 6,
    day: (m) => clock.localDay(m.created_at),
    start: (_year, earliest) => (earliest ? rng.int(21_000, 38_000) : 1),
    assign: (m, number) => (m.manifest_number = number),
  });
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
