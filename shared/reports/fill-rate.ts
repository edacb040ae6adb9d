/**
 * Fill rate: delivered pieces against the daily pieces par, over the rows that have a usable par.
 * One walk of /deliveries/daily (200 rows a page, filtered server-side) feeds the total, the per-day series
 * and the per-item breakdown.
 */
import { getOrInsert } from '../collections.ts';
import type { DayWindow } from '../dates.ts';
import type { DailyDeliveryRow } from '../schemas/processing.ts';

export interface FillRateBucket {
  /** Pieces delivered on rows with a usable pieces par. */
  delivered: number;
  /** Sum of the daily pars of those rows. */
  par: number;
  /** delivered / par; null when no row had a usable par. */
  fillRate: number | null;
  /** Pieces delivered on all rows, with or without a par. */
  deliveredAll: number;
}

export interface FillRateReport extends FillRateBucket {
  customerId: string;
  departmentId: string | null;
  itemId: string | null;
  window: DayWindow;
  /** Rows counted / rows without a usable par (left out of the rate). */
  rows: number;
  rowsWithoutPar: number;
  /** Per delivery day, newest first (days without deliveries have no row). */
  byDay: (FillRateBucket & { date: string })[];
  /** Per item, by item name. */
  byItem: (FillRateBucket & { itemId: string; itemName: string })[];
}

const empty = (): FillRateBucket => ({ delivered: 0, par: 0, fillRate: null, deliveredAll: 0 });

function add(b: FillRateBucket, row: DailyDeliveryRow): void {
  b.deliveredAll += row.delivered_count;
  if (row.daily_par !== null && row.daily_par > 0) {
    b.delivered += row.delivered_count;
    b.par += row.daily_par;
  }
}

function finish<B extends FillRateBucket>(b: B): B {
  b.fillRate = b.par > 0 ? b.delivered / b.par : null;
  return b;
}

/** Pure: the report from the daily rows. */
export function computeFillRate(
  rows: readonly DailyDeliveryRow[],
  scope: {
    customerId: string;
    departmentId?: string | null | undefined;
    itemId?: string | null | undefined;
    window: DayWindow;
  },
): FillRateReport {
  const total = empty();
  const days = new Map<string, FillRateBucket & { date: string }>();
  const items = new Map<string, FillRateBucket & { itemId: string; itemName: string }>();
  let withoutPar = 0;
  for (const row of rows) {
    add(total, row);
    if (row.daily_par === null || row.daily_par <= 0) withoutPar++;
    add(
      getOrInsert(days, row.date, () => ({ date: row.date, ...empty() })),
      row,
    );
    add(
      getOrInsert(items, row.item_id, () => ({ itemId: row.item_id, itemName: row.item_name, ...empty() })),
      row,
    );
  }
  return {
    ...finish(total),
    customerId: scope.customerId,
    departmentId: scope.departmentId ?? null,
    itemId: scope.itemId ?? null,
    window: scope.window,
    rows: rows.length,
    rowsWithoutPar: withoutPar,
    byDay: [...days.values()].map(finish).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
    byItem: [...items.values()]
      .map(finish)
      .sort((a, b) => a.itemName.localeCompare(b.itemName) || a.itemId.localeCompare(b.itemId)),
  };
}
