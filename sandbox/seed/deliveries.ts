/**
 * Views derived from the manifests: daily delivery rows (the sandbox README's rule) and the new-linen
 * injection list.
 */
import type { DailyDeliveryRow, Manifest, NewLinenInjection, ParLevel } from '../model.ts';
import { cmp, type Org } from './org.ts';
import { round3 } from './prng.ts';
import type { Clock } from './time.ts';

/** The usable pieces par of a department (falling back to the customer-wide row), or null. */
export function effectivePieceParFinder(
  pars: readonly ParLevel[],
): (customerId: string, departmentId: string | null, itemId: string) => number | null {
  const index = new Map<string, ParLevel>();
  for (const p of pars) index.set(`${p.customer_id}|${p.department_id ?? ''}|${p.item_id}`, p);
  return (customerId, departmentId, itemId) => {
    const row =
      (departmentId !== null ? index.get(`${customerId}|${departmentId}|${itemId}`) : undefined) ??
      index.get(`${customerId}||${itemId}`);
    return row && row.par_unit === 'pieces' ? row.par_quantity : null;
  };
}

/**
 * One row per delivery day (org-local), customer, department (or customer level) and item: the `clean` pieces
 * of the clean bins of every manifest delivered that day.
 */
export function deriveDailyDeliveries(org: Org, clock: Clock, manifests: readonly Manifest[]): DailyDeliveryRow[] {
  const parOf = effectivePieceParFinder(org.pars);
  const rows = new Map<string, DailyDeliveryRow>();
  for (const m of manifests) {
    if (m.status !== 'delivered' || m.delivered_at === null) continue;
    const date = clock.localDay(m.delivered_at);
    for (const bin of m.bins) {
      if (bin.side !== 'clean') continue;
      for (const item of bin.items) {
        if (item.disposition !== 'clean' || item.piece_count <= 0) continue;
        const key = `${date}|${m.customer_id}|${m.department_id ?? ''}|${item.item_id}`;
        const row = rows.get(key);
        if (row) {
          row.delivered_count += item.piece_count;
          continue;
        }
        rows.set(key, {
          date,
          customer_id: m.customer_id,
          customer_name: org.byId.get(m.customer_id)?.name ?? '',
          department_id: m.department_id,
          department_name: m.department_name,
          item_id: item.item_id,
          item_name: item.item_name,
          delivered_count: item.piece_count,
          daily_par: null,
          fill_rate: null,
        });
      }
    }
  }
  const out = [...rows.values()];
  for (const row of out) {
    row.daily_par = parOf(row.customer_id, row.department_id, row.item_id);
    row.fill_rate = row.daily_par !== null && row.daily_par > 0 ? round3(row.delivered_count / row.daily_par) : null;
  }
  return out.sort(dailyOrder);
}

export function dailyOrder(a: DailyDeliveryRow, b: DailyDeliveryRow): number {
  return (
    cmp(b.date, a.date) ||
    cmp(a.customer_name, b.customer_name) ||
    cmp(
      a.department_name === null ? '' : `~${a.department_name}`,
      b.department_name === null ? '' : `~${b.department_name}`,
    ) ||
    cmp(a.item_name, b.item_name)
  );
}

/** New-linen manifests as injections: dated by their org-local cleaned day, items from their clean bins. */
export function deriveNewLinen(clock: Clock, manifests: readonly Manifest[]): NewLinenInjection[] {
  const out: NewLinenInjection[] = [];
  for (const m of manifests) {
    if (m.type !== 'new_linen') continue;
    const items = new Map<string, { item_id: string; item_name: string; piece_count: number }>();
    for (const bin of m.bins) {
      if (bin.side !== 'clean') continue;
      for (const it of bin.items) {
        const row = items.get(it.item_id);
        if (row) row.piece_count += it.piece_count;
        else items.set(it.item_id, { item_id: it.item_id, item_name: it.item_name, piece_count: it.piece_count });
      }
    }
    out.push({
      id: m.id,
      manifest_number: m.manifest_number,
      date: m.cleaned_at ? clock.localDay(m.cleaned_at) : null,
      customer_id: m.customer_id,
      department_id: m.department_id,
      direction: 'in',
      soil_weight_lb: m.soil_weight_lb,
      injected_weight_lb: m.clean_weight_lb,
      items: [...items.values()],
    });
  }
  return out.sort((a, b) => {
    if (a.date !== b.date) {
      if (a.date === null) return 1;
      if (b.date === null) return -1;
      return a.date < b.date ? 1 : -1;
    }
    return cmp(a.id, b.id);
  });
}
