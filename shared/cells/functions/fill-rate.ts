/**
 * Fill rate, par met and the daily deliveries they are computed from: all three read the customer's one cached
 * listing of the window (deliveries.ts), so a grid of cells over a customer and window shares its pages.
 */

import { fillRateTotals } from '../../reports/fill-rate.ts';
import { choice } from '../args.ts';
import * as col from '../columns.ts';
import { grid } from '../columns.ts';
import type { CellContext } from '../context.ts';
import { deliveryRows } from '../deliveries.ts';
import type { Args, Impl } from './common.ts';

/** The fill rate or par met of a customer's window (and department and item). */
function* fillMeasure(ctx: CellContext, a: Args, measure: 'fill' | 'par_met') {
  const r = fillRateTotals(yield* deliveryRows(ctx, a));
  return (measure === 'par_met' ? r.parMet : r.fillRate) ?? '';
}

export const FILL_RATE_IMPLS: Record<string, Impl> = {
  *LINEN_FILLRATE(ctx, a) {
    return yield* fillMeasure(ctx, a, choice(a.measure, 'measure', ['fill', 'par_met'] as const) ?? 'fill');
  },

  LINEN_PARMET: (ctx, a) => fillMeasure(ctx, a, 'par_met'),

  *LINEN_DELIVERIES(ctx, a) {
    return yield* grid(ctx, yield* deliveryRows(ctx, a), [
      col.day('date'),
      'customer_name',
      'department_name',
      'item_name',
      'delivered_count',
      'daily_par',
      'fill_rate',
    ]);
  },
};
