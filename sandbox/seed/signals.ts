/**
 * Nightly inventory signals, read off the generated data: shortfall streaks and over-fills from the daily
 * deliveries, injection dependency and unmatched injections from new linen, dormant stock and circulation
 * breaches from inventory positions, plus erosion and par-drift advisories.
 */
import type {
  DailyDeliveryRow,
  InventoryPosition,
  InventorySignal,
  LocalDate,
  NewLinenInjection,
  SignalStatus,
} from '../model.ts';
import { cmp, customerByCode, type Org } from './org.ts';
import type { Rng } from './prng.ts';
import { addDays, type Clock, daysBetween, isoOf } from './time.ts';

type Draft = Omit<InventorySignal, 'id' | 'status' | 'generated_at'> & { status?: SignalStatus; nightsAgo?: number };
const SEVERITY_RANK = { high: 0, medium: 1, low: 2 } as const;

export function buildSignals(
  rng: Rng,
  clock: Clock,
  org: Org,
  daily: readonly DailyDeliveryRow[],
  positions: readonly InventoryPosition[],
  injections: readonly NewLinenInjection[],
): InventorySignal[] {
  const drafts: Draft[] = [];
  const today = clock.today;
  const yesterday = addDays(today, -1);
  const byLine = new Map<string, DailyDeliveryRow[]>();
  for (const r of daily) {
    const key = `${r.customer_id}|${r.department_id ?? ''}|${r.item_id}`;
    const list = byLine.get(key);
    if (list) list.push(r);
    else byLine.set(key, [r]);
  }
  /** A department's rows for one item, newest first (the order of `daily`). */
  const rowsFor = (customerId: string, departmentId: string | null, itemId: string): DailyDeliveryRow[] =>
    byLine.get(`${customerId}|${departmentId ?? ''}|${itemId}`) ?? [];

  for (const c of org.customers) {
    for (const d of c.depts) {
      for (const line of d.lines) {
        const rows = rowsFor(c.id, d.id, line.itemId);
        if (line.spec.shortWeek !== undefined) {
          let n = 0;
          while (n < rows.length && rows[n]?.fill_rate !== null && (rows[n]?.fill_rate ?? 1) < 0.8) n++;
          const newest = rows[0];
          const oldest = rows[n - 1];
          if (n >= 3 && newest && oldest) {
            drafts.push({
              kind: 'shortfall_streak',
              severity: n >= 10 ? 'high' : n >= 6 ? 'medium' : 'low',
              customer_id: c.id,
              department_id: d.id,
              item_id: line.itemId,
              item_name: line.itemName,
              summary: `${line.itemName} at ${d.name} under 80% of par for ${n} straight days`,
              suggested_order_qty: null,
              window_start: oldest.date,
              window_end: newest.date,
              status: drafts.length === 1 ? 'acknowledged' : 'open',
            });
          }
        }
        if (line.spec.overDays !== undefined) {
          const window = rows.slice(0, line.spec.overDays).filter((r) => r.fill_rate !== null);
          const newest = window[0];
          const oldest = window[window.length - 1];
          if (newest && oldest) {
            const mean = window.reduce((t, r) => t + (r.fill_rate ?? 0), 0) / window.length;
            drafts.push({
              kind: 'over_fill',
              severity: mean > 1.3 ? 'medium' : 'low',
              customer_id: c.id,
              department_id: d.id,
              item_id: line.itemId,
              item_name: line.itemName,
              summary: `${line.itemName} at ${d.name} filled to ${Math.round(mean * 100)}% of par over the last ${window.length} deliveries`,
              suggested_order_qty: null,
              window_start: oldest.date,
              window_end: newest.date,
            });
          }
        }
      }
    }
  }

  const position = (code: string, item: string): InventoryPosition | undefined => {
    const cid = customerByCode(org, code).id;
    return positions.find((p) => p.customer_id === cid && p.item_name === item);
  };
  const dept = (code: string, name: string): string | null =>
    customerByCode(org, code).depts.find((d) => d.name === name)?.id ?? null;
  const itemId = (name: string): string => org.itemByName.get(name)?.id ?? '';

  // Circulation below target: suggest an order rounded up to the pack size.
  const breaches: [string, string, 'low' | 'medium' | 'high', number][] = [
    ['MGH', 'Pillowcase', 'high', 2.1],
    ['SLMC', 'Flat Sheet', 'medium', 2.4],
    ['HH', 'Napkin', 'high', 1.9],
    ['LRC', 'Underpad', 'low', 2.7],
  ];
  for (const [code, item, severity, turns] of breaches) {
    const p = position(code, item);
    if (!p) continue;
    const pack = org.itemSpecById.get(p.item_id)?.pack ?? 12;
    const shortBy = Math.max(pack, Math.round(p.at_customer * rng.float(0.12, 0.3)));
    drafts.push({
      kind: 'circulation_breach',
      severity,
      customer_id: p.customer_id,
      department_id: null,
      item_id: p.item_id,
      item_name: item,
      summary: `${item} circulation at ${customerByCode(org, code).name} down to ${turns}x daily par`,
      suggested_order_qty: Math.ceil(shortBy / pack) * pack,
      window_start: addDays(today, -28),
      window_end: yesterday,
      status: code === 'LRC' ? 'resolved' : undefined,
      nightsAgo: code === 'LRC' ? 9 : undefined,
    });
  }

  // Stock sitting in reserve.
  for (const [code, item, days, status] of [
    ['HH', 'Tablecloth 90x132', 45, 'open'],
    ['LRC', 'Pool Towel', 60, 'dismissed'],
    ['MGH', 'Underpad', 38, 'open'],
  ] as const) {
    const p = position(code, item);
    if (!p) continue;
    drafts.push({
      kind: 'dormant_stock',
      severity: 'low',
      customer_id: p.customer_id,
      department_id: null,
      item_id: p.item_id,
      item_name: item,
      summary: `${item}: ${Math.max(p.in_reserve, 12)} pieces in reserve unused for ${days} days`,
      suggested_order_qty: null,
      window_start: addDays(today, -days),
      window_end: yesterday,
      status,
      nightsAgo: status === 'dismissed' ? 4 : undefined,
    });
  }

  // New linen: items that keep needing injections, and injections nobody ordered.
  const since = addDays(today, -90);
  const injected = new Map<
    string,
    { customer: string; item: string; name: string; count: number; pieces: number; department: string | null }
  >();
  for (const inj of injections) {
    if (inj.date === null || inj.date < since) continue;
    for (const it of inj.items) {
      const key = `${inj.customer_id}|${it.item_id}`;
      const row = injected.get(key) ?? {
        customer: inj.customer_id,
        item: it.item_id,
        name: it.item_name,
        count: 0,
        pieces: 0,
        department: inj.department_id,
      };
      row.count += 1;
      row.pieces += it.piece_count;
      injected.set(key, row);
    }
  }
  const heavy = [...injected.values()]
    .sort((a, b) => b.count - a.count || b.pieces - a.pieces || cmp(a.customer + a.item, b.customer + b.item))
    .slice(0, 2);
  for (const [i, h] of heavy.entries()) {
    drafts.push({
      kind: 'injection_dependency',
      severity: i === 0 ? 'medium' : 'low',
      customer_id: h.customer,
      department_id: null,
      item_id: h.item,
      item_name: h.name,
      summary: `${h.name} at ${org.byId.get(h.customer)?.name ?? ''} needed ${h.count} new-linen injection${h.count === 1 ? '' : 's'} (${h.pieces} pcs) in 90 days`,
      suggested_order_qty: null,
      window_start: since,
      window_end: yesterday,
      status: i === 1 ? 'acknowledged' : undefined,
    });
  }
  const dated = injections.filter((inj) => inj.date !== null && inj.date >= since); // newest first
  const lately = dated.filter((inj) => (inj.date as LocalDate) >= addDays(today, -45));
  for (const inj of lately.length >= 2 ? rng.sample(lately, 2) : dated.slice(0, 2)) {
    const first = inj.items[0];
    drafts.push({
      kind: 'unmatched_injection',
      severity: 'medium',
      customer_id: inj.customer_id,
      department_id: inj.department_id,
      item_id: first?.item_id ?? null,
      item_name: first?.item_name ?? null,
      summary: `New-linen injection ${inj.manifest_number} has no matching order`,
      suggested_order_qty: null,
      window_start: inj.date as LocalDate,
      window_end: inj.date as LocalDate,
    });
  }

  // Circulation eroding over four weeks (one across all items), and pars out of line with use.
  const erosion: [string, string | null, number, 'low' | 'medium' | 'high'][] = [
    ['MGH', 'Washcloth', 11, 'medium'],
    ['SLMC', 'Bath Towel', 8, 'low'],
    ['LRC', null, 6, 'low'],
  ];
  for (const [code, item, pct, severity] of erosion) {
    const c = customerByCode(org, code);
    drafts.push({
      kind: 'rolling_erosion',
      severity,
      customer_id: c.id,
      department_id: null,
      item_id: item ? itemId(item) : null,
      item_name: item,
      summary: `${item ?? 'All linen'} in circulation at ${c.name} down ${pct}% over 28 days`,
      suggested_order_qty: null,
      window_start: addDays(today, -28),
      window_end: yesterday,
      status: item === 'Bath Towel' ? 'resolved' : undefined,
      nightsAgo: item === 'Bath Towel' ? 3 : undefined,
    });
  }
  const drift: [string, string, string, number, 'low' | 'medium' | 'high'][] = [
    ['MGH', 'Emergency', 'Patient Gown', 18, 'medium'],
    ['SLMC', 'Pediatrics', 'Washcloth', -22, 'low'],
    ['HH', 'Housekeeping', 'Pillowcase', 15, 'high'],
  ];
  for (const [code, deptName, item, pct, severity] of drift) {
    drafts.push({
      kind: 'par_drift',
      severity,
      customer_id: customerByCode(org, code).id,
      department_id: dept(code, deptName),
      item_id: itemId(item),
      item_name: item,
      summary: `${item} par at ${deptName} is ${Math.abs(pct)}% ${pct > 0 ? 'above' : 'below'} 30-day average use`,
      suggested_order_qty: null,
      window_start: addDays(today, -30),
      window_end: yesterday,
      status: pct < 0 ? 'dismissed' : undefined,
      nightsAgo: pct < 0 ? 6 : undefined,
    });
  }

  const signals: InventorySignal[] = drafts.map(({ status, nightsAgo, ...rest }) => {
    const night = addDays(today, -(nightsAgo ?? 0));
    const generated = clock.ms(night, 150 + rng.int(0, 1200) / 60);
    return {
      id: rng.id(),
      kind: rest.kind,
      severity: rest.severity,
      status: status ?? 'open',
      customer_id: rest.customer_id,
      department_id: rest.department_id,
      item_id: rest.item_id,
      item_name: rest.item_name,
      summary: rest.summary,
      suggested_order_qty: rest.suggested_order_qty,
      window_start: rest.window_start,
      window_end: rest.window_end > night ? night : rest.window_end,
      generated_at: isoOf(Math.min(generated, clock.nowMs)),
    };
  });
  for (const s of signals) if (daysBetween(s.window_start, s.window_end) < 0) s.window_start = s.window_end;
  return signals.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || cmp(b.generated_at, a.generated_at) || cmp(a.id, b.id),
  );
}
