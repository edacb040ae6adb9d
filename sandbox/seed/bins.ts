/**
 * Turns a planned manifest (what was collected and cleaned, and when each step happens) into a wire-shaped
 * Manifest: its status at the generation instant, soil and clean bins with one-decimal weights, totals,
 * variance, billed amount and delivery signature.
 */
import type { Bin, BinItem, Manifest, ManifestStatus, ManifestType } from '../model.ts';
import { type CustomerRt, type Org, pieceWeight } from './org.ts';
import { lb, type Rng } from './prng.ts';
import { type Clock, isoOf } from './time.ts';

/** Planned instants (ms) of each lifecycle step. */
export interface Stamps {
  created: number;
  picked_up: number;
  received: number;
  cleaned: number;
  staged: number;
  delivered: number;
}

export type Disposition = 'clean' | 'rewash_hold' | 'damaged';

export interface Piece {
  itemId: string;
  itemName: string;
  count: number;
  disposition: Disposition;
  content: string;
}

export interface ManifestPlan {
  type: ManifestType;
  customer: CustomerRt;
  departmentId: string | null;
  departmentName: string | null;
  stamps: Stamps;
  pieces: Piece[];
  /** Target wash-loss fraction; the published variance is recomputed from the rounded weights. */
  variance: number;
  /** Soil-side content of the bins. */
  soilContent: string;
  /** A fixed soil-side net weight in tenths of a pound (rewash children weigh exactly what was held). */
  soilTenths?: number;
}

export interface BinContext {
  rng: Rng;
  clock: Clock;
  org: Org;
  nextTicket: () => string;
}

/** Tenths of a pound of some pieces at the customer's piece weights. */
export function piecesTenths(org: Org, customerId: string, pieces: readonly Piece[]): number {
  let lbs = 0;
  for (const p of pieces) lbs += p.count * pieceWeight(org, customerId, p.itemId);
  return Math.round(lbs * 10);
}

function statusAt(stamps: Stamps, now: number): ManifestStatus {
  if (stamps.delivered <= now) return 'delivered';
  if (stamps.staged <= now) return 'staged';
  if (stamps.cleaned <= now) return 'cleaned';
  if (stamps.received <= now) return 'received';
  return 'collected';
}

function makeBin(ctx: BinContext, side: 'soil' | 'clean', content: string, netTenths: number, items: BinItem[]): Bin {
  const tare = ctx.rng.int(380, 620);
  return {
    id: ctx.rng.id(),
    side,
    content,
    bin_ticket_number: ctx.nextTicket(),
    gross_lb: lb(tare + netTenths),
    tare_lb: lb(tare),
    net_lb: lb(netTenths),
    items,
  };
}

/** Splits a soil weight over as many carts as it needs (about 320 lb each). */
function soilBins(ctx: BinContext, content: string, soilTenths: number): Bin[] {
  const count = Math.max(1, Math.ceil(soilTenths / 3200));
  const shares = Array.from({ length: count }, () => ctx.rng.float(0.8, 1.2));
  const shareTotal = shares.reduce((a, b) => a + b, 0);
  const bins: Bin[] = [];
  let left = soilTenths;
  for (let i = 0; i < count; i++) {
    const net = i === count - 1 ? left : Math.max(1, Math.round((soilTenths * (shares[i] ?? 1)) / shareTotal));
    left -= net;
    bins.push(makeBin(ctx, 'soil', content, net, []));
  }
  return bins;
}

function cleanBins(ctx: BinContext, customerId: string, pieces: readonly Piece[]): Bin[] {
  const groups = new Map<string, Piece[]>();
  for (const p of pieces) {
    if (p.count <= 0) continue;
    const group = groups.get(p.content);
    if (group) group.push(p);
    else groups.set(p.content, [p]);
  }
  const bins: Bin[] = [];
  for (const [content, group] of groups) {
    const net = Math.max(1, Math.round(piecesTenths(ctx.org, customerId, group) * ctx.rng.float(0.985, 1.015)));
    const items: BinItem[] = group.map((p) => ({
      item_id: p.itemId,
      item_name: p.itemName,
      piece_count: p.count,
      disposition: p.disposition,
    }));
    bins.push(makeBin(ctx, 'clean', content, net, items));
  }
  return bins;
}

/** A planned manifest: its id and creation instant (which fix its number) and the manifest, once created. */
export interface Assembled {
  id: string;
  created: number;
  manifest: Manifest | null;
}

/** Builds the manifest as it stands at the generation instant (null when it has not been created yet). */
export function assemble(ctx: BinContext, plan: ManifestPlan): Assembled {
  const made = assembleManifest(ctx, plan);
  return { id: made.id, created: plan.stamps.created, manifest: made.manifest };
}

function assembleManifest(ctx: BinContext, plan: ManifestPlan): { id: string; manifest: Manifest | null } {
  const now = ctx.clock.nowMs;
  const s = plan.stamps;
  // Every draw is made whatever the generation instant, so the rest of the history never depends on the hour.
  const clean = cleanBins(ctx, plan.customer.id, plan.pieces);
  const cleanTenths = clean.reduce((t, b) => t + Math.round(b.net_lb * 10), 0);
  const soilTenths = plan.soilTenths ?? Math.max(1, Math.round(cleanTenths / (1 - plan.variance)));
  const soil = soilBins(ctx, plan.soilContent, soilTenths);
  const drawnSigner = ctx.rng.pick(plan.customer.spec.signers);
  const id = ctx.rng.id();
  if (s.created > now) return { id, manifest: null };
  const status = statusAt(s, now);
  const at = (ms: number): string | null => (ms <= now ? isoOf(ms) : null);

  const soilWeighed = status !== 'collected';
  const cleanWeighed = status === 'cleaned' || status === 'staged' || status === 'delivered';
  const delivered = status === 'delivered';
  const cleanPieces = plan.pieces.filter((p) => p.disposition === 'clean').reduce((t, p) => t + p.count, 0);
  const variance =
    soilWeighed && cleanWeighed ? Math.round(((soilTenths - cleanTenths) * 1000) / soilTenths) / 1000 : null;
  const signer = delivered ? drawnSigner : null;
  const deliveredAt = delivered ? isoOf(s.delivered) : null;
  const tolerance = ctx.org.organization.variance_tolerance;

  const manifest: Manifest = {
    id,
    manifest_number: '',
    type: plan.type,
    status,
    customer_id: plan.customer.id,
    department_id: plan.departmentId,
    department_name: plan.departmentName,
    created_at: isoOf(s.created),
    picked_up_at: at(s.picked_up),
    received_at: at(s.received),
    cleaned_at: at(s.cleaned),
    staged_at: at(s.staged),
    delivered_at: deliveredAt,
    soil_weight_lb: soilWeighed ? lb(soilTenths) : null,
    clean_weight_lb: cleanWeighed ? lb(cleanTenths) : null,
    clean_piece_count: cleanWeighed ? cleanPieces : null,
    variance_pct: variance,
    variance_within_tolerance: variance === null ? null : variance >= tolerance.min && variance <= tolerance.max,
    parent_manifest_id: null,
    amount_cents:
      delivered && plan.type === 'normal' ? Math.round((cleanTenths * plan.customer.spec.centsPerLb) / 10) : null,
    currency: 'usd',
    bins: [...(soilWeighed ? soil : []), ...(cleanWeighed ? clean : [])],
    held_rewash: null,
    rewash_links: { parent_manifest: null, rewash_children: [] },
    signature: {
      signed_by_name: signer ? signer.name : null,
      signed_by_title: signer ? signer.title : null,
      delivered_at: deliveredAt,
    },
  };
  return { id, manifest };
}

/** A normal wash-loss fraction, with a few weighings outside tolerance (high, and clean above soil). */
export function drawVariance(rng: Rng): number {
  const r = rng.next();
  if (r < 0.012) return rng.float(-0.06, -0.01);
  if (r < 0.03) return rng.float(0.16, 0.26);
  if (r < 0.08) return rng.float(0.12, 0.149);
  return rng.float(0.03, 0.12);
}
