/**
 * Held rewash: pieces set aside at cleaning become a rewash batch. Batches discovered more than a day or two ago
 * are usually consumed by a `rewash` child manifest (same customer and department) that ships the rewashed
 * pieces back; a few are voided, the newest are still pending.
 */
import type { Manifest, RewashBatch } from '../model.ts';
import { assemble, type BinContext, type ManifestPlan, type Piece, piecesTenths } from './bins.ts';
import { lb } from './prng.ts';
import { addDays, daysBetween } from './time.ts';

export interface HeldRewash {
  parent: Manifest;
  plan: ManifestPlan;
  held: Piece[];
}

export interface RewashResult {
  children: Manifest[];
  batches: RewashBatch[];
}

export function buildRewash(ctx: BinContext, heldList: readonly HeldRewash[]): RewashResult {
  const { rng, clock, org } = ctx;
  const hides = org.organization.hides_rewash_fault_split;
  const children: Manifest[] = [];
  const batches: RewashBatch[] = [];

  // Oldest first: what the day adds comes last, so the batches before it do not change with the hour.
  const oldestFirst = [...heldList].sort(
    (a, b) => a.parent.created_at.localeCompare(b.parent.created_at) || a.parent.id.localeCompare(b.parent.id),
  );
  for (const { parent, plan, held } of oldestFirst) {
    const heldTenths = Math.max(1, piecesTenths(org, plan.customer.id, held));
    const soilTenths = Math.round(heldTenths * rng.float(0.45, 0.85));
    const errorTenths = heldTenths - soilTenths;
    const deliveredDay = parent.delivered_at ? clock.localDay(parent.delivered_at) : null;

    let status: RewashBatch['status'] = 'pending';
    if (deliveredDay !== null && daysBetween(deliveredDay, clock.today) > 1)
      status = rng.chance(0.12) ? 'voided' : 'consumed';

    let child: Manifest | null = null;
    let damagedTenths = 0;
    if (status === 'consumed' && deliveredDay !== null) {
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
      damagedTenths = Math.min(heldTenths, piecesTenths(org, plan.customer.id, damaged));
      child = assemble(ctx, {
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
      if (child) {
        child.parent_manifest_id = parent.id;
        children.push(child);
      } else {
        status = 'pending';
      }
    }

    parent.held_rewash = {
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
      id: rng.id(),
      customer_id: parent.customer_id,
      department_id: parent.department_id,
      discovered_at: parent.cleaned_at ?? parent.created_at,
      status,
      held_weight_lb: lb(heldTenths),
      soil_rewash_lb: hides ? null : lb(soilTenths),
      error_rewash_lb: hides ? null : lb(errorTenths),
      parent_manifest: { id: parent.id, manifest_number: '' },
      consumed_by_manifest: child ? { id: child.id, manifest_number: '', delivered_at: child.delivered_at } : null,
      outcomes,
    });
  }
  return { children, batches };
}
