/**
 * Rewash rate: rewash pounds as a share of the soil pounds processed over a window, split by fault. Soil
 * fault is the customer's (heavily soiled linen); processing-error fault is the laundry's own, and so the basis
 * of a credit claim. Some organizations hide the split from customers: the batches then carry no fault weights.
 *
 * - rewash pounds: the held weight of the rewash batches discovered in the window, voided batches left out;
 * - soil pounds: the soil weight of the customer's `normal` manifests delivered in the window (rewash and new-linen
 *   manifests are not soiled linen coming in).
 */
import type { DayWindow } from '../dates.ts';
import type { Manifest, RewashBatch } from '../schemas/processing.ts';

export interface RewashRate {
  window: DayWindow;
  /** Soil pounds of the normal manifests delivered in the window, and how many there were. */
  soilLb: number;
  manifests: number;
  /** Held pounds of the batches counted (not voided), and how many. */
  rewashLb: number;
  batches: number;
  voided: number;
  /** rewashLb / soilLb; null without soil pounds. */
  rate: number | null;
  /** Fault pounds over the batches that show the split; null when none does. */
  soilFaultLb: number | null;
  errorFaultLb: number | null;
  soilFaultRate: number | null;
  errorFaultRate: number | null;
  /** Counted batches without the fault split (the organization hides it). */
  batchesWithoutSplit: number;
  /** Every counted batch hides the split. */
  splitHidden: boolean;
}

const lb = (x: number) => Math.round(x * 10) / 10;

/** Pure: the rate from the window's rewash batches and the customer's normal manifests delivered in it. */
export function computeRewashRate(
  batches: readonly RewashBatch[],
  manifests: readonly Manifest[],
  window: DayWindow,
): RewashRate {
  const counted = batches.filter((b) => b.status !== 'voided');
  const withSplit = counted.filter((b) => b.soil_rewash_lb !== null || b.error_rewash_lb !== null);
  const normal = manifests.filter((m) => m.type === 'normal');
  const soilLb = lb(normal.reduce((s, m) => s + (m.soil_weight_lb ?? 0), 0));
  const rewashLb = lb(counted.reduce((s, b) => s + (b.held_weight_lb ?? 0), 0));
  const soilFaultLb = withSplit.length ? lb(withSplit.reduce((s, b) => s + (b.soil_rewash_lb ?? 0), 0)) : null;
  const errorFaultLb = withSplit.length ? lb(withSplit.reduce((s, b) => s + (b.error_rewash_lb ?? 0), 0)) : null;
  const share = (x: number | null) => (x === null || soilLb <= 0 ? null : x / soilLb);
  return {
    window,
    soilLb,
    manifests: normal.length,
    rewashLb,
    batches: counted.length,
    voided: batches.length - counted.length,
    rate: share(rewashLb),
    soilFaultLb,
    errorFaultLb,
    soilFaultRate: share(soilFaultLb),
    errorFaultRate: share(errorFaultLb),
    batchesWithoutSplit: counted.length - withSplit.length,
    splitHidden: counted.length > 0 && withSplit.length === 0,
  };
}
