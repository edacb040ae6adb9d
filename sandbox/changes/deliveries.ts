/**
 * The pieces of one item delivered to a department (or customer level) on one day: what `/deliveries/daily` shows
 * and par met is read from.
 *
 * A daily delivery row is the `clean` pieces of the clean bins of the manifests delivered that day (the README's
 * rule), so the change is made where the pieces are: in the clean bins of that day's normal manifests. Pieces
 * are added to the first manifest delivered that day and taken from the last ones first; a manifest's
 * `clean_piece_count` follows. Rewash and new-linen manifests keep their pieces (the row cannot go below them),
 * and weights, billed amounts and invoices stay as they were weighed and billed.
 */
import type { Bin, DailyDeliveryRow, Manifest } from '../model.ts';
import { manifestRow } from '../routes/processing.ts';
import { dailyOrder, effectivePieceParFinder } from '../seed/deliveries.ts';
import { round3 } from '../seed/prng.ts';
import { localDay } from '../server/dates.ts';
import { invalidParams } from '../server/errors.ts';
import {
  type ChangeContext,
  customerOf,
  departmentOf,
  inserted,
  itemOf,
  notAfterToday,
  type Outcome,
  replaced,
} from './context.ts';
import type { SetDailyDelivery } from './input.ts';

export interface DeliveryChange {
  /** The row as `/v1/deliveries/daily` lists it; null when none of the item was delivered that day any more. */
  row: DailyDeliveryRow | null;
  /** The manifests whose clean bins changed, as `/v1/manifests` lists them. */
  manifests: ReturnType<typeof manifestRow>[];
}

const cleanBins = (m: Manifest): Bin[] => m.bins.filter((b) => b.side === 'clean');

function cleanPiecesOf(m: Manifest, itemId: string): number {
  let n = 0;
  for (const bin of cleanBins(m))
    for (const it of bin.items) if (it.item_id === itemId && it.disposition === 'clean') n += it.piece_count;
  return n;
}

/** A manifest whose clean bins may be changed without touching the records it shares (the seeded ones). */
function editable(m: Manifest): Manifest {
  return {
    ...m,
    bins: m.bins.map((b) => (b.side === 'clean' ? { ...b, items: b.items.map((it) => ({ ...it })) } : b)),
  };
}

function recount(m: Manifest): void {
  if (m.clean_piece_count === null) return;
  let n = 0;
  for (const bin of cleanBins(m)) for (const it of bin.items) if (it.disposition === 'clean') n += it.piece_count;
  m.clean_piece_count = n;
}

export function setDailyDelivery(ctx: ChangeContext, input: SetDailyDelivery): Outcome<DeliveryChange> {
  const { data, timeZone } = ctx;
  const customer = customerOf(data, input.customer_id);
  const department = departmentOf(data, customer, input.department_id);
  const item = itemOf(data, input.item_id);
  const date = input.date ?? ctx.today;
  notAfterToday(ctx, 'date', date);
  const departmentId = department?.id ?? null;
  const where = department ? `${customer.name} / ${department.name}` : `${customer.name} (customer level)`;

  const ofDay = data.manifests
    .filter(
      (m) =>
        m.customer_id === customer.id &&
        m.department_id === departmentId &&
        m.delivered_at !== null &&
        localDay(m.delivered_at, timeZone) === date,
    )
    .sort((a, b) => ((a.delivered_at ?? '') < (b.delivered_at ?? '') ? -1 : 1));
  if (ofDay.length === 0)
    throw invalidParams(
      `No manifest of ${where} was delivered on ${date}; a daily delivery row only changes on a delivery day.`,
    );
  const adjustable = ofDay.filter((m) => m.type === 'normal' && cleanBins(m).length > 0);
  const fixed = ofDay.filter((m) => !adjustable.includes(m)).reduce((t, m) => t + cleanPiecesOf(m, item.id), 0);
  const target = input.delivered_count;
  if (target < fixed)
    throw invalidParams(
      `${fixed} ${item.name} came to ${where} on ${date} with rewash or new-linen manifests; "delivered_count" cannot be below that.`,
    );
  if (adjustable.length === 0 && target !== fixed)
    throw invalidParams(`Only rewash or new-linen manifests were delivered to ${where} on ${date}; their pieces stay.`);

  const changed: Manifest[] = [];
  let diff = target - fixed - adjustable.reduce((t, m) => t + cleanPiecesOf(m, item.id), 0);
  if (diff > 0) {
    const m = editable(adjustable[0] as Manifest);
    const bins = cleanBins(m);
    const entry = bins.flatMap((b) => b.items).find((it) => it.item_id === item.id && it.disposition === 'clean');
    if (entry) entry.piece_count += diff;
    else {
      // Into the bin that already holds this item (held or damaged pieces), else one of the same category.
      const category = (id: string) => data.items.find((i) => i.id === id)?.category ?? null;
      const bin =
        bins.find((b) => b.items.some((it) => it.item_id === item.id)) ??
        bins.find((b) => b.items.some((it) => category(it.item_id) === item.category)) ??
        (bins[0] as Bin);
      bin.items.push({ item_id: item.id, item_name: item.name, piece_count: diff, disposition: 'clean' });
    }
    changed.push(m);
  }
  for (let i = adjustable.length - 1; diff < 0 && i >= 0; i--) {
    const source = adjustable[i] as Manifest;
    if (cleanPiecesOf(source, item.id) === 0) continue;
    const m = editable(source);
    for (const bin of cleanBins(m)) {
      for (const it of bin.items) {
        if (it.item_id !== item.id || it.disposition !== 'clean') continue;
        const take = Math.min(it.piece_count, -diff);
        it.piece_count -= take;
        diff += take;
      }
      bin.items = bin.items.filter((it) => it.piece_count > 0);
    }
    changed.push(m);
  }
  let manifests = data.manifests;
  for (const m of changed) {
    recount(m);
    manifests = replaced(manifests, m);
  }

  const at = data.daily_deliveries.findIndex(
    (r) =>
      r.date === date && r.customer_id === customer.id && r.department_id === departmentId && r.item_id === item.id,
  );
  const rest = at < 0 ? data.daily_deliveries : data.daily_deliveries.filter((_, i) => i !== at);
  let row: DailyDeliveryRow | null = null;
  if (target > 0) {
    const dailyPar =
      at >= 0
        ? (data.daily_deliveries[at] as DailyDeliveryRow).daily_par
        : effectivePieceParFinder(data.pars)(customer.id, departmentId, item.id);
    row = {
      date,
      customer_id: customer.id,
      customer_name: customer.name,
      department_id: departmentId,
      department_name: department?.name ?? null,
      item_id: item.id,
      item_name: item.name,
      delivered_count: target,
      daily_par: dailyPar,
      fill_rate: dailyPar !== null && dailyPar > 0 ? round3(target / dailyPar) : null,
    };
  }
  const daily_deliveries = row ? inserted(rest, row, dailyOrder) : rest;
  return {
    next: { ...data, manifests, daily_deliveries },
    answer: { row, manifests: changed.map(manifestRow) },
    ids: changed.map((m) => m.id),
  };
}
