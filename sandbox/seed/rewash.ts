/**
 * Held rewash: pieces set aside at cleaning become a rewash batch. Batches discovered more than a day or two ago
 * are usually consumed by a `rewash` child manifest (same customer and department) that ships the rewashed
 * pieces back; a few are voided, the newest are still pending.
 *
 * Each batch draws from its parent delivery's stream, whatever its status today, so a batch and its child
 * manifest are the same on every day they exist; only the status moves on (pending, then consumed or voided).
 */
import type { Manifest, RewashBatch } from '../model.ts';
import { type Assembled, assemble, type BinContext, type ManifestPlan, type Piece, piecesTenths } from './bins.ts';
import type { Org } from './org.ts';
import { lb, type Rng } from './prng.ts';
import { addDays, type Clock, daysBetween } from './time.ts';

export interface HeldRewash {
  parent: Assembled;
  plan: ManifestPlan;
  held: Piece[];
  /** The parent delivery's rewash stream. */
  rng: Rng;
  /** The parent's slot of its creation day. */
  slot: number;
  /** Whether the parent is shown (its batch and child are shown with it). */
  shown: boolean;
}

export interface RewashResult {
  /** Every planned child, shown or not yet created (their numbers are ranked with the other manifests). */
  planned: Assembled[];
  children: Manifest[];
  batches: RewashBatch[];
}

export function buildRewash(
  clock: Clock,
  org: Org,
  heldList: readonly HeldRewash[],
  contextFor: (rng: Rng, createdMs: number, parentSlot: number) => BinContext,
): RewashResult {
  const hides = org.organization.hides_rewash_fault_split;
  const planned: Assembled[] = [];
  const children: Manifest[] = [];
  const batches: RewashBatch[] = [];

  for (const { parent, plan, held, rng, slot, shown } of heldList) {
    const heldTenths = Math.max(1, piecesTenths(org, plan.customer.id, held));
    const soilTenths = Math.round(heldTenths * rng.float(0.45, 0.85));
    const errorTenths = heldTenths - soilTenths;
    const deliveredDay = clock.localDay(plan.stamps.delivered);
    const voided = rng.chance(0.12);

    const day1 = addDays(deliveredDay, 1);
    const day2 = addDays(deliveredDay, 2);
    const created = clock.ms(day1, 540 + rng.int(0, 7200) / 60);
    const picked = created + rng.int(5, 15) * 60_000;
    const received = picked + rng.int(10, 30) * 60_000;
    const stamps = {
      created,
      picked_up: picked,
      received,
      cleaned: clock.ms(day1, 1200 + rng.int(0, 10800) / 60),
      staged: clock.ms(day2, 180 + rng.int(0, 7200) / 60),
      delivered: clock.ms(day2, 360 + rng.int(0, 16200) / 60),
    };
    const pieces: Piece[] = [];
    const damaged: Piece[] = [];
    for (const p of held) {
      const lost = Math.floor(p.count * rng.float(0, 0.15));
      pieces.push({ ...p, count: p.count - lost, disposition: 'clean' });
      if (lost > 0) damaged.push({ ...p, count: lost, disposition: 'damaged' });
    }
    pieces.push(...damaged);
    const damagedTenths = Math.min(heldTenths, piecesTenths(org, plan.customer.id, damaged));
    const childRng = rng.fork('child');
    const child = voided
      ? null
      : assemble(contextFor(childRng, created, slot), {
          type: 'rewash',
          customer: plan.customer,
          departmentId: plan.departmentId,
          departmentName: plan.departmentName,
          stamps,
          pieces,
          variance: 0,
          soilContent: 'mixed_linen',
          soilTenths: heldTenths,
        });
    if (child) planned.push(child);
    const batchId = rng.id();

    // Nothing is held until the parent has been cleaned; the batch settles two days after its delivery.
    const manifest = parent.manifest;
    if (!shown || manifest === null || manifest.cleaned_at === null) continue;
    let status: RewashBatch['status'] = 'pending';
    if (daysBetween(deliveredDay, clock.today) > 1) status = voided ? 'voided' : 'consumed';
    const consumedBy = status === 'consumed' ? (child?.manifest ?? null) : null;
    if (status === 'consumed' && consumedBy === null) status = 'pending';
    if (consumedBy) {
      consumedBy.parent_manifest_id = manifest.id;
      children.push(consumedBy);
    }

    manifest.held_rewash = {
      held_weight_lb: lb(heldTenths),
      status,
      soil_rewash_lb: hides ? null : lb(soilTenths),
      error_rewash_lb: hides ? null : lb(errorTenths),
    };

    const outcomes: RewashBatch['outcomes'] = [];
    if (status === 'consumed') {
      const fraction = damagedTenths / heldTenths;
      const soilDamage = Math.round(soilTenths * fraction);
      const errorDamage = Math.round(errorTenths * fraction);
      outcomes.push({ fault_class: 'soil', good_lb: lb(soilTenths - soilDamage), damage_lb: lb(soilDamage) });
      if (errorTenths > 0)
        outcomes.push({
          fault_class: 'processing_error',
          good_lb: lb(errorTenths - errorDamage),
          damage_lb: lb(errorDamage),
        });
    }

    batches.push({
      id: batchId,
      customer_id: manifest.customer_id,
      department_id: manifest.department_id,
      discovered_at: manifest.cleaned_at,
      status,
      held_weight_lb: lb(heldTenths),
      soil_rewash_lb: hides ? null : lb(soilTenths),
      error_rewash_lb: hides ? null : lb(errorTenths),
      parent_manifest: { id: manifest.id, manifest_number: '' },
      consumed_by_manifest: consumedBy
        ? { id: consumedBy.id, manifest_number: '', delivered_at: consumedBy.delivered_at }
        : null,
      outcomes,
    });
  }
  return { planned, children, batches };
}
