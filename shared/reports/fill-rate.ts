/**
 * Fill rate and par met: delivered pieces against the daily pieces par, over the rows that have a usable par.
 * One walk of /deliveries/daily (200 rows a page, filtered server-side) feeds the total, the per-day series
 * and the per-item breakdown.
 *
 * - fill rate = Σ delivered ÷ Σ par (the API's per-row definition, summed): one day's over-fill makes up for
 *   another day's shortage, so it can read 98 % while an item ran at 62 %.
 * - par met = Σ min(delivered, par) ÷ Σ par: over-fill earns nothing, so every shortage shows.
 * - a short day is a day on which some row of the scope (a department's item) was delivered below its par.
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
  /** Σ min(delivered, par) over the rows with a usable par: the pieces that counted toward par. */
  met: number;
  /** met / par; null when no row had a usable par. */
  parMet: number | null;
  /** Days with at least one row below its par. */
  shortDays: number;
  /** Days with at least one row with a usable par. */
  daysWithPar: number;
  /** Rows with a usable par delivered below it. */
  shortRows: number;
  /** Pieces delivered on all rows, with or without a par. */
  deliveredAll: number;
}

export interface FillRateReport extends FillRateBucket {
  customerId: string;
  departmentId: string | null;
  itemId: string | null;
  window: DayWindow;
  /** Whether the window includes today, which is only partly delivered. */
  includesToday: boolean;
  /** Rows counted / rows without a usable par (left out of the rate). */
  rows: number;
  rowsWithoutPar: number;
  /** Per delivery day, newest first (days without deliveries have no row). */
  byDay: (FillRateBucket & { date: string })[];
  /** Per item, by item name. */
  byItem: (FillRateBucket & { itemId: string; itemName: string })[];
}

const hasPar = (row: DailyDeliveryRow): row is DailyDeliveryRow & { daily_par: number } =>
  row.daily_par !== null && row.daily_par > 0;

interface Tally {
  add(row: DailyDeliveryRow): void;
  finish(): FillRateBucket;
}

/** A bucket while rows are added; the days it saw are kept aside until `finish`. */
function tally(): Tally {
  const b: FillRateBucket = {
    delivered: 0,
    par: 0,
    fillRate: null,
    met: 0,
    parMet: null,
    shortDays: 0,
    daysWithPar: 0,
    shortRows: 0,
    deliveredAll: 0,
  };
  const days = new Set<string>();
  const short = new Set<string>();
  return {
    add(row) {
      b.deliveredAll += row.delivered_count;
      if (!hasPar(row)) return;
      b.delivered += row.delivered_count;
      b.par += row.daily_par;
      b.met += Math.min(row.delivered_count, row.daily_par);
      days.add(row.date);
      if (row.delivered_count < row.daily_par) {
        b.shortRows++;
        short.add(row.date);
      }
    },
    finish() {
      b.fillRate = b.par > 0 ? b.delivered / b.par : null;
      b.parMet = b.par > 0 ? b.met / b.par : null;
      b.daysWithPar = days.size;
      b.shortDays = short.size;
      return b;
    },
  };
}

/**
 * Pure: the totals alone (fill rate, par met, short days...), without the per-day and per-item breakdowns:
 * what a Sheets cell shows.
 */
export function fillRateTotals(rows: readonly DailyDeliveryRow[]): FillRateBucket {
  const total = tally();
  for (const row of rows) total.add(row);
  return total.finish();
}

/** Pure: the report from the daily rows. `today` (org-local) marks a window that includes it. */
export function computeFillRate(
  rows: readonly DailyDeliveryRow[],
  scope: {
    customerId: string;
    departmentId?: string | null | undefined;
    itemId?: string | null | undefined;
    window: DayWindow;
    today?: string | undefined;
  },
): FillRateReport {
  const days = new Map<string, Tally>();
  const items = new Map<string, { itemName: string; t: Tally }>();
  let withoutPar = 0;
  for (const row of rows) {
    if (!hasPar(row)) withoutPar++;
    getOrInsert(days, row.date, () => tally()).add(row);
    getOrInsert(items, row.item_id, () => ({ itemName: row.item_name, t: tally() })).t.add(row);
  }
  const { today, window } = scope;
  return {
    ...fillRateTotals(rows),
    customerId: scope.customerId,
    departmentId: scope.departmentId ?? null,
    itemId: scope.itemId ?? null,
    window,
    includesToday: today !== undefined && window.from <= today && today <= window.to,
    rows: rows.length,
    rowsWithoutPar: withoutPar,
    byDay: [...days]
      .map(([date, t]) => ({ date, ...t.finish() }))
      .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0)),
    byItem: [...items]
      .map(([itemId, { itemName, t }]) => ({ itemId, itemName, ...t.finish() }))
      .sort((a, b) => a.itemName.localeCompare(b.itemName) || a.itemId.localeCompare(b.itemId)),
  };
}
