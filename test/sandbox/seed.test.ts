import { formatInTimeZone } from 'date-fns-tz';
import { describe, expect, it } from 'vitest';
import type { Manifest, SandboxData } from '../../sandbox/model.ts';
import { DEMO_KEYS, generateSandboxData } from '../../sandbox/seed/index.ts';

const OPTIONS = { today: '2026-03-10', timeZone: 'America/Chicago', seed: 'linen' };
const data = generateSandboxData(OPTIONS);

const ID = /^c[0-9a-z]{24}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function customerId(d: SandboxData, name: string): string {
  const c = d.customers.find((x) => x.name === name);
  if (!c) throw new Error(`no customer ${name}`);
  return c.id;
}
const localDay = (d: SandboxData, iso: string): string =>
  formatInTimeZone(new Date(iso), d.organization.time_zone, 'yyyy-MM-dd');
const tenths = (lb: number): number => Math.round(lb * 10);
const isOneDecimal = (n: number): boolean => Math.abs(n * 10 - Math.round(n * 10)) < 1e-6;
const round3 = (x: number): number => Math.round(x * 1000) / 1000;
const daysBetween = (a: string, b: string): number =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
const isSorted = <T>(rows: readonly T[], compare: (a: T, b: T) => number): boolean =>
  rows.every((row, i) => i === 0 || compare(rows[i - 1] as T, row) <= 0);
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Public-invoice aging bucket at the seeded day. */
function bucket(d: SandboxData, dueAt: string | null): 'current' | 'd1_30' | 'd31_60' | 'd61_plus' {
  if (dueAt === null) return 'current';
  const late = daysBetween(localDay(d, dueAt), d.seeded.today);
  return late <= 0 ? 'current' : late <= 30 ? 'd1_30' : late <= 60 ? 'd31_60' : 'd61_plus';
}

/** Invariants that must hold for any seed, day and timezone. */
function checkCore(d: SandboxData): void {
  // Collected and asserted once at the end: these loops visit tens of thousands of records.
  const problems: string[] = [];
  const ok = (cond: boolean, what: string): void => {
    if (!cond && problems.length < 50) problems.push(what);
  };
  const same = (actual: unknown, wanted: unknown, what: string): void => {
    if (JSON.stringify(actual) !== JSON.stringify(wanted))
      ok(false, `${what}: ${JSON.stringify(actual)} != ${JSON.stringify(wanted)}`);
  };
  // Ids are cuid-like and unique across every record.
  const ids = [
    ...d.customers,
    ...d.departments,
    ...d.items,
    ...d.manifests,
    ...d.manifests.flatMap((m) => m.bins),
    ...d.units,
    ...d.carts,
    ...d.cart_counts,
    ...d.signals,
    ...d.rewash_batches,
    ...d.invoices,
    ...d.payments,
    ...d.purchase_orders,
    ...d.orders,
    ...d.orders.flatMap((o) => [...o.lines, ...o.charges, ...o.lines.flatMap((l) => l.charges)]),
    ...d.tickets,
    ...d.ratings,
  ].map((r) => r.id);
  same(
    ids.filter((id) => !ID.test(id)),
    [],
    'malformed ids',
  );
  same(new Set(ids).size, ids.length, 'distinct ids');

  // Manifests: lifecycle, weights, variance, numbers.
  const tol = d.organization.variance_tolerance;
  const order = ['created_at', 'picked_up_at', 'received_at', 'cleaned_at', 'staged_at', 'delivered_at'] as const;
  const stageOf: Record<Manifest['status'], number> = {
    collected: 0,
    received: 2,
    cleaned: 3,
    staged: 4,
    delivered: 5,
  };
  for (const m of d.manifests) {
    ok(/^MAN-\d{2}-\d{6}$/.test(m.manifest_number), `format ${m.manifest_number}`);
    same(m.manifest_number.slice(4, 6), m.created_at.slice(2, 4), `${m.id} number year`);
    const stamps = order.map((f) => m[f]);
    stamps.forEach((s, i) => {
      if (i === 0 || i === 1) return;
      same(s !== null, i <= stageOf[m.status], `${m.id} ${order[i]} vs ${m.status}`);
    });
    const present = stamps.filter((s): s is string => s !== null);
    for (const s of present) ok(ISO.test(s), `${m.id} timestamp ${s}`);
    same(present, present.slice().sort(), `${m.id} lifecycle order`);
    const soil = m.bins.filter((b) => b.side === 'soil');
    const clean = m.bins.filter((b) => b.side === 'clean');
    for (const b of m.bins) {
      same(tenths(b.gross_lb), tenths(b.tare_lb) + tenths(b.net_lb), `${b.id} gross = tare + net`);
      ok([b.gross_lb, b.tare_lb, b.net_lb].every(isOneDecimal), `${b.id} one-decimal weights`);
      if (b.side === 'soil') same(b.items, [], `${b.id} soil bin items`);
      for (const it of b.items)
        ok(['clean', 'rewash_hold', 'damaged'].includes(it.disposition), `disposition ${it.disposition}`);
      ok(['mixed_linen', 'towels', 'sheets', 'garments', 'new_linen'].includes(b.content), `content ${b.content}`);
    }
    if (m.status === 'collected') {
      same(m.bins, [], `${m.id} collected bins`);
      same(m.soil_weight_lb, null, `${m.id} collected soil weight`);
    } else {
      same(
        tenths(m.soil_weight_lb as number),
        soil.reduce((t, b) => t + tenths(b.net_lb), 0),
        `${m.id} soil weight = soil nets`,
      );
    }
    if (m.status === 'collected' || m.status === 'received') {
      same(clean, [], `${m.id} clean bins before cleaning`);
      same(
        [m.clean_weight_lb, m.clean_piece_count, m.variance_pct, m.variance_within_tolerance],
        [null, null, null, null],
        `${m.id} clean-side fields before cleaning`,
      );
    } else {
      const soilT = tenths(m.soil_weight_lb as number);
      const cleanT = tenths(m.clean_weight_lb as number);
      same(
        cleanT,
        clean.reduce((t, b) => t + tenths(b.net_lb), 0),
        `${m.id} clean weight = clean nets`,
      );
      same(
        m.clean_piece_count,
        clean
          .flatMap((b) => b.items)
          .filter((i) => i.disposition === 'clean')
          .reduce((t, i) => t + i.piece_count, 0),
        `${m.id} clean piece count`,
      );
      same(m.variance_pct, round3((soilT - cleanT) / soilT), `${m.id} variance`);
      same(
        m.variance_within_tolerance,
        (m.variance_pct as number) >= tol.min && (m.variance_pct as number) <= tol.max,
        `${m.id} tolerance`,
      );
    }
    const delivered = m.status === 'delivered';
    same(m.amount_cents !== null, delivered && m.type === 'normal', `${m.id} amount`);
    same(m.signature.delivered_at, m.delivered_at, `${m.id} signature date`);
    same(m.signature.signed_by_name !== null, delivered, `${m.id} signer`);
    if (!delivered) same(m.signature.signed_by_title, null, `${m.id} signer title`);
    if (!delivered) ok(daysBetween(localDay(d, m.created_at), d.seeded.today) <= 1, `${m.id} undelivered but old`);
    same(m.currency, 'usd', `${m.id} currency`);
    same(m.parent_manifest_id !== null, m.type === 'rewash', `${m.id} parent only on rewash`);
  }

  // Rewash batches and their manifests.
  const byId = new Map(d.manifests.map((m) => [m.id, m]));
  for (const b of d.rewash_batches) {
    const parent = byId.get(b.parent_manifest.id) as Manifest;
    same(parent.type, 'normal', `${b.id} parent type`);
    same(parent.manifest_number, b.parent_manifest.manifest_number, `${b.id} parent number`);
    same(parent.held_rewash?.status, b.status, `${b.id} held status`);
    same(tenths(parent.held_rewash?.held_weight_lb ?? 0), tenths(b.held_weight_lb ?? -1), `${b.id} held weight`);
    same(
      tenths(b.soil_rewash_lb ?? 0) + tenths(b.error_rewash_lb ?? 0),
      tenths(b.held_weight_lb ?? 0),
      `${b.id} fault split`,
    );
    same(b.discovered_at, parent.cleaned_at, `${b.id} discovered`);
    same(b.consumed_by_manifest !== null, b.status === 'consumed', `${b.id} consumed`);
    if (b.consumed_by_manifest) {
      const child = byId.get(b.consumed_by_manifest.id) as Manifest;
      same(child.type, 'rewash', `${b.id} child type`);
      same(child.parent_manifest_id, parent.id, `${b.id} child parent`);
      same(child.rewash_links.parent_manifest, b.parent_manifest, `${b.id} child link`);
      ok(
        parent.rewash_links.rewash_children.some(
          (x) => JSON.stringify(x) === JSON.stringify({ id: child.id, manifest_number: child.manifest_number }),
        ),
        `${b.id} parent lists child`,
      );
      same(b.consumed_by_manifest.delivered_at, child.delivered_at, `${b.id} consumed delivered_at`);
      for (const o of b.outcomes) ok(['soil', 'processing_error'].includes(o.fault_class), `${b.id} fault class`);
    } else {
      same(b.outcomes, [], `${b.id} outcomes`);
    }
  }
  same(d.manifests.filter((m) => m.held_rewash !== null).length, d.rewash_batches.length, 'one batch per held rewash');

  // Daily deliveries re-derived from the manifests with the README rule.
  const parIndex = new Map(d.pars.map((p) => [`${p.customer_id}|${p.department_id ?? ''}|${p.item_id}`, p]));
  const expected = new Map<string, number>();
  for (const m of d.manifests) {
    if (m.status !== 'delivered' || !m.delivered_at) continue;
    for (const b of m.bins) {
      if (b.side !== 'clean') continue;
      for (const it of b.items) {
        if (it.disposition !== 'clean') continue;
        const key = `${localDay(d, m.delivered_at)}|${m.customer_id}|${m.department_id ?? ''}|${it.item_id}`;
        expected.set(key, (expected.get(key) ?? 0) + it.piece_count);
      }
    }
  }
  same(d.daily_deliveries.length, expected.size, 'daily delivery rows');
  for (const r of d.daily_deliveries) {
    same(
      r.delivered_count,
      expected.get(`${r.date}|${r.customer_id}|${r.department_id ?? ''}|${r.item_id}`),
      `${r.date} ${r.department_name} ${r.item_name} delivered`,
    );
    const row =
      (r.department_id !== null ? parIndex.get(`${r.customer_id}|${r.department_id}|${r.item_id}`) : undefined) ??
      parIndex.get(`${r.customer_id}||${r.item_id}`);
    const par = row && row.par_unit === 'pieces' ? row.par_quantity : null;
    same(r.daily_par, par, `${r.date} ${r.department_name} ${r.item_name} par`);
    same(
      r.fill_rate,
      par === null ? null : round3(r.delivered_count / par),
      `${r.date} ${r.department_name} ${r.item_name} fill`,
    );
  }

  // Invoices and payments agree.
  const invoices = new Map(d.invoices.map((i) => [i.id, i]));
  const settled = new Map<string, number>();
  for (const p of d.payments) {
    same(
      p.allocations.reduce((t, a) => t + a.amount_cents, 0),
      p.amount_cents,
      `${p.id} allocations sum`,
    );
    same(p.returned_at !== null, p.status === 'returned', `${p.id} returned_at`);
    for (const a of p.allocations) {
      const inv = invoices.get(a.invoice_id);
      ok(
        inv !== undefined && ['sent', 'partially_paid', 'paid'].includes(inv.status),
        `${p.id} allocates to a public invoice`,
      );
      same(inv?.invoice_number, a.invoice_number, `${p.id} invoice number`);
      same(inv?.currency, p.currency, `${p.id} currency`);
      ok(Date.parse(p.received_at) >= Date.parse(inv?.sent_at ?? ''), `${p.id} received after sent`);
      if (p.status === 'settled') settled.set(a.invoice_id, (settled.get(a.invoice_id) ?? 0) + a.amount_cents);
    }
  }
  const numbers = new Set<string>();
  for (const inv of d.invoices) {
    ok(/^PLS-\d{2}-\d{6}$/.test(inv.invoice_number), `format ${inv.invoice_number}`);
    numbers.add(inv.invoice_number);
    same(inv.total_cents, inv.subtotal_cents + inv.surcharges_cents + inv.tax_cents, `${inv.invoice_number} total`);
    ok(Date.parse(inv.sent_at) >= Date.parse(inv.issued_at), `${inv.invoice_number} sent after issued`);
    const paid = settled.get(inv.id) ?? 0;
    if (inv.status === 'sent' || inv.status === 'partially_paid' || inv.status === 'paid') {
      same(inv.balance_cents, inv.total_cents - paid, `${inv.invoice_number} balance`);
      same(
        inv.status,
        inv.balance_cents === 0 ? 'paid' : paid > 0 ? 'partially_paid' : 'sent',
        `${inv.invoice_number} status`,
      );
      same(inv.paid_at !== null, inv.status === 'paid', `${inv.invoice_number} paid_at`);
    } else {
      same(paid, 0, `${inv.invoice_number} hidden but paid`);
    }
  }
  same(numbers.size, d.invoices.length, 'distinct invoice numbers');

  // Orders add up.
  for (const o of d.orders) {
    ok(/^DS-\d{2}-\d{5}$/.test(o.order_number), `format ${o.order_number}`);
    same(o.line_count, o.lines.length, `${o.order_number} line count`);
    for (const ch of [...o.charges, ...o.lines.flatMap((l) => l.charges)])
      same(ch.amount_cents, Math.round((ch.quantity * ch.unit_price_mills) / 10), `${o.order_number} charge amount`);
    for (const l of o.lines)
      same(
        l.subtotal_cents,
        l.quantity * l.unit_price_cents + l.charges.reduce((t, c) => t + c.amount_cents, 0),
        `${o.order_number} line subtotal`,
      );
    same(
      o.subtotal_cents,
      o.lines.reduce((t, l) => t + l.subtotal_cents, 0),
      `${o.order_number} subtotal`,
    );
    same(
      o.total_cents,
      o.subtotal_cents + o.charges.reduce((t, c) => t + c.amount_cents, 0),
      `${o.order_number} total`,
    );
    same(o.placed_at === null, o.stage === 'draft', `${o.order_number} placed_at`);
    same(o.delivered_at !== null, o.stage === 'delivered', `${o.order_number} delivered_at`);
  }

  // Tickets: timestamps follow the status and the events.
  for (const t of d.tickets) {
    ok(/^TKT-\d{2}-\d{5}$/.test(t.ticket_number), `format ${t.ticket_number}`);
    same(t.ticket_number.slice(4, 6), t.created_at.slice(2, 4), `${t.ticket_number} year`);
    const times = t.customer_visible_events.map((e) => e.created_at);
    same(times, times.slice().sort(), `${t.ticket_number} events oldest first`);
    same(times[0], t.created_at, `${t.ticket_number} created event`);
  }
  expect(problems).toEqual([]);
}

describe('seeded sandbox data', () => {
  it('is deterministic: the same options give byte-identical data', () => {
    const again = generateSandboxData(OPTIONS);
    expect(again).toEqual(data);
    expect(JSON.stringify(again)).toBe(JSON.stringify(data));
    const other = generateSandboxData({ ...OPTIONS, seed: 'other' });
    expect(other.customers[0]?.id).not.toBe(data.customers[0]?.id);
  });

  it('rejects a malformed day', () => {
    expect(() => generateSandboxData({ ...OPTIONS, today: '2026-02-30' })).toThrow();
  });

  it('holds its invariants', () => checkCore(data));

  it.each([
    { today: '2026-01-04', timeZone: 'America/Chicago', seed: 'new-year' },
    { today: '2025-11-02', timeZone: 'Europe/Berlin', seed: 'dst' },
    { today: '2026-07-15', timeZone: 'Asia/Kolkata', seed: 'linen' },
  ])('holds its invariants for $today in $timeZone', (options) => {
    const d = generateSandboxData(options);
    checkCore(d);
    expect(d.organization.time_zone).toBe(options.timeZone);
    // Ticket numbers carry the year of the ticket: a window across New Year may show both years.
    const years = [d.seeded.first_day, d.seeded.today].map((day) => day.slice(2, 4));
    expect(d.tickets.every((t) => years.includes(t.ticket_number.slice(4, 6)))).toBe(true);
    for (const b of ['d1_30', 'd31_60', 'd61_plus'] as const) {
      expect(
        d.invoices.some((i) => (i.status === 'sent' || i.status === 'partially_paid') && bucket(d, i.due_at) === b),
      ).toBe(true);
    }
  });

  it('describes the organization, customers, catalog and keys', () => {
    expect(data.organization).toEqual({
      name: 'Prairie Linen Services',
      time_zone: 'America/Chicago',
      invoice_prefix: 'PLS',
      variance_tolerance: { min: 0, max: 0.15 },
      hides_rewash_fault_split: false,
    });
    expect(data.seeded).toEqual({ first_day: '2025-09-12', today: '2026-03-10' });
    const names = data.customers.map((c) => c.name);
    expect(names).toEqual(names.slice().sort());
    for (const n of [
      'Mercy Health',
      'Mercy General Hospital',
      'Mercy West Surgery Center',
      "St. Luke's Medical Center",
      'Harborview Hotel',
      'Lakeshore Rehabilitation Centre',
    ]) {
      expect(names).toContain(n);
    }
    for (const c of data.customers) {
      expect(c.is_group).toBe(c.name === 'Mercy Health');
      const depts = c.departments.map((x) => x.name);
      expect(depts).toEqual(depts.slice().sort());
      if (!c.is_group) expect(depts.length).toBeGreaterThanOrEqual(3);
      expect(depts.length).toBeLessThanOrEqual(6);
    }
    const hotel = data.customers.find((c) => c.name === 'Harborview Hotel');
    expect(hotel?.departments.map((x) => x.name)).toEqual(['Food & Beverage', 'Housekeeping', 'Spa']);
    expect(data.departments.some((x) => x.cost_center_code === null)).toBe(true);
    expect(data.departments.some((x) => x.name === 'Med-Surg 4 West')).toBe(true);

    expect(data.items.length).toBeGreaterThanOrEqual(15);
    expect(data.items.some((i) => i.category === null)).toBe(true);
    expect(data.items.some((i) => i.weight_lb === null)).toBe(true);
    expect(new Set(data.items.map((i) => i.unit_of_measure))).toEqual(new Set(['each', 'dozen', 'pair']));
    const itemName = new Map(data.items.map((i) => [i.id, i.name]));
    const catalog = (name: string): string[] =>
      (data.customer_items[customerId(data, name)] ?? []).map((id) => itemName.get(id) ?? '');
    expect(catalog('Harborview Hotel')).toEqual(expect.arrayContaining(['Napkin', 'Tablecloth 90x132', 'Bathrobe']));
    expect(catalog('Mercy General Hospital')).toEqual(
      expect.arrayContaining(['Patient Gown', 'Scrub Top', 'Scrub Pants', 'Underpad']),
    );
    expect(Object.keys(data.weight_overrides).length).toBeGreaterThanOrEqual(2);
    for (const [cid, overrides] of Object.entries(data.weight_overrides)) {
      for (const itemId of Object.keys(overrides)) expect(data.customer_items[cid]).toContain(itemId);
    }

    const mh = customerId(data, 'Mercy Health');
    const mgh = customerId(data, 'Mercy General Hospital');
    const key = (secret: string) => data.keys.find((k) => k.secret === secret);
    expect(data.keys.map((k) => k.secret)).toEqual(Object.values(DEMO_KEYS));
    expect(key('lk_live_demo_all_access')?.customer_ids.length).toBe(data.customers.length);
    expect(key('lk_live_demo_mercy_ops')).toMatchObject({
      customer_ids: [mh, mgh],
      scopes: ['processing'],
      revoked: false,
    });
    expect(key('lk_live_demo_mercy_billing')).toMatchObject({ customer_ids: [mh, mgh], scopes: ['accounting'] });
    expect(key('lk_live_demo_harbor_hotel')).toMatchObject({
      customer_ids: [customerId(data, 'Harborview Hotel')],
      scopes: ['processing', 'direct_sales'],
    });
    const counter = key('lk_live_demo_unit_counter');
    expect(counter?.customer_ids).toEqual([mgh]);
    expect(counter?.unit_ids?.length).toBe(2);
    for (const u of counter?.unit_ids ?? []) expect(data.units.find((x) => x.id === u)?.customer_id).toBe(mgh);
    expect(key('lk_live_demo_revoked')?.revoked).toBe(true);
    for (const k of data.keys) expect(k.key_id).toMatch(/^key_[0-9a-z]+$/);
  });

  it('covers 180 days of manifests in every state', () => {
    const types = new Set(data.manifests.map((m) => m.type));
    expect(types).toEqual(new Set(['normal', 'rewash', 'new_linen']));
    expect(new Set(data.manifests.map((m) => m.status))).toEqual(
      new Set(['collected', 'received', 'cleaned', 'staged', 'delivered']),
    );
    for (const c of data.customers.filter((x) => !x.is_group)) {
      const days = data.manifests
        .filter((m) => m.customer_id === c.id && m.delivered_at)
        .map((m) => localDay(data, m.delivered_at as string))
        .sort();
      expect(days[0]).toBe(data.seeded.first_day);
      expect(days[days.length - 1]! >= '2026-03-09').toBe(true);
      for (const dept of c.departments) {
        const perWeek =
          data.manifests.filter((m) => m.department_id === dept.id && m.type === 'normal').length / (180 / 7);
        expect(perWeek).toBeGreaterThan(4.5);
        expect(perWeek).toBeLessThan(7.5);
      }
    }
    expect(data.manifests.some((m) => m.department_id === null && m.type === 'normal')).toBe(true);
    const variances = data.manifests.map((m) => m.variance_pct).filter((v): v is number => v !== null);
    expect(variances.filter((v) => v >= 0.03 && v <= 0.12).length / variances.length).toBeGreaterThan(0.85);
    expect(variances.some((v) => v < 0)).toBe(true);
    expect(variances.some((v) => v > 0.15)).toBe(true);
    expect(data.manifests.some((m) => m.status === 'delivered' && m.signature.signed_by_title === null)).toBe(true);
    const scrubs = data.items.find((i) => i.name === 'Scrub Top')?.id;
    const scrubRows = data.daily_deliveries.filter((r) => r.item_id === scrubs && r.department_id === null);
    expect(scrubRows.some((r) => r.delivered_count >= 300)).toBe(true);
    expect(new Set(data.rewash_batches.map((b) => b.status))).toEqual(new Set(['pending', 'consumed', 'voided']));
    expect(
      isSorted(
        data.manifests.filter((m) => m.delivered_at),
        (a, b) => cmp(b.delivered_at ?? '', a.delivered_at ?? '') || cmp(a.id, b.id),
      ),
    ).toBe(true);
    const firstUndelivered = data.manifests.findIndex((m) => m.delivered_at === null);
    expect(data.manifests.slice(firstUndelivered).every((m) => m.delivered_at === null)).toBe(true);
  });

  it('lists new-linen injections from the new-linen manifests', () => {
    const nl = data.manifests.filter((m) => m.type === 'new_linen');
    expect(data.new_linen.map((x) => x.id).sort()).toEqual(nl.map((m) => m.id).sort());
    for (const inj of data.new_linen) {
      const m = nl.find((x) => x.id === inj.id) as Manifest;
      expect(inj.manifest_number).toBe(m.manifest_number);
      expect(inj.date).toBe(m.cleaned_at ? localDay(data, m.cleaned_at) : null);
      expect(inj.direction).toBe('in');
      expect(inj.items.reduce((t, i) => t + i.piece_count, 0)).toBe(
        m.bins
          .filter((b) => b.side === 'clean')
          .flatMap((b) => b.items)
          .reduce((t, i) => t + i.piece_count, 0),
      );
    }
    expect(data.new_linen.some((x) => x.date === null)).toBe(true);
  });

  it('delivers around par, with chronic shortfalls and over-fills', () => {
    const rates = data.daily_deliveries
      .map((r) => r.fill_rate)
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    const median = rates[Math.floor(rates.length / 2)] ?? 0;
    expect(median).toBeGreaterThan(0.8);
    expect(median).toBeLessThan(1.0);
    expect(data.daily_deliveries.some((r) => r.daily_par === null)).toBe(true);
    expect(data.daily_deliveries.some((r) => (r.fill_rate ?? 0) > 1.2)).toBe(true);
    expect(
      isSorted(
        data.daily_deliveries,
        (a, b) =>
          cmp(b.date, a.date) ||
          cmp(a.customer_name, b.customer_name) ||
          cmp(
            a.department_name === null ? '' : `~${a.department_name}`,
            b.department_name === null ? '' : `~${b.department_name}`,
          ) ||
          cmp(a.item_name, b.item_name),
      ),
    ).toBe(true);

    const streaks = data.signals.filter((s) => s.kind === 'shortfall_streak');
    expect(streaks.length).toBeGreaterThanOrEqual(3);
    for (const s of streaks) {
      const n = Number(/for (\d+) straight days/.exec(s.summary)?.[1]);
      const rows = data.daily_deliveries.filter(
        (r) => r.customer_id === s.customer_id && r.department_id === s.department_id && r.item_id === s.item_id,
      );
      const recent = rows.slice(0, n);
      expect(recent.length).toBe(n);
      expect(recent.every((r) => r.fill_rate !== null && r.fill_rate < 0.8)).toBe(true);
      expect(recent[0]?.date).toBe(s.window_end);
      expect(recent[n - 1]?.date).toBe(s.window_start);
    }
  });

  it('has pars, positions, units, carts and counts', () => {
    expect(data.pars.some((p) => p.department_id === null)).toBe(true);
    expect(data.pars.some((p) => p.par_unit === 'cart_loads')).toBe(true);
    expect(data.pars.some((p) => p.reorder_threshold === 0)).toBe(true);
    for (const p of data.inventory) {
      expect(Object.keys(p.retired).every((k) => k.startsWith('retired_'))).toBe(true);
    }
    expect(data.inventory.some((p) => Object.values(p.retired).includes(0))).toBe(true);
    for (const c of data.customers.filter((x) => /Hospital|Surgery|Medical|Rehabilitation/.test(x.name))) {
      const units = data.units.filter((u) => u.customer_id === c.id);
      expect(units.length).toBeGreaterThanOrEqual(3);
      expect(units.length).toBeLessThanOrEqual(6);
    }
    expect(data.units.filter((u) => !u.is_active).length).toBe(1);
    for (const u of data.units) expect(u.cart_count).toBe(data.carts.filter((c) => c.unit_id === u.id).length);
    expect(new Set(data.carts.map((c) => c.kind))).toEqual(new Set(['cart', 'closet', 'linen_room', 'exchange_cart']));
    expect(new Set(data.carts.map((c) => c.stocking_method))).toEqual(new Set(['fixed', 'census']));
    expect(data.carts.some((c) => !c.is_active && data.units.find((u) => u.id === c.unit_id)?.is_active)).toBe(true);

    const carts = new Map(data.carts.map((c) => [c.id, c]));
    const weekday = (day: string) =>
      ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date(`${day}T00:00:00Z`).getUTCDay()];
    expect(new Set(data.cart_counts.map((c) => c.status))).toEqual(
      new Set(['pending', 'in_progress', 'counted', 'verified', 'assumed']),
    );
    expect(data.cart_counts.some((c) => c.unscheduled)).toBe(true);
    for (const count of data.cart_counts) {
      const cart = carts.get(count.cart_id);
      expect(cart?.is_active).toBe(true);
      expect(count.unscheduled).toBe(!cart?.count_days.includes(weekday(count.date) as never));
      expect(count.counted_at !== null).toBe(count.status === 'counted' || count.status === 'verified');
      expect(count.verified_at !== null).toBe(count.status === 'verified');
      if (count.status === 'pending' || count.status === 'in_progress')
        expect(daysBetween(count.date, data.seeded.today)).toBeLessThanOrEqual(1);
      for (const l of count.lines) expect(l.required).toBe(Math.max(0, l.par - l.on_hand));
      expect(count.lines.map((l) => l.item_id)).toEqual(cart?.par.map((p) => p.item_id));
    }
  });

  it('raises signals of every kind, severity and status', () => {
    expect(data.signals.length).toBeGreaterThanOrEqual(20);
    expect(data.signals.length).toBeLessThanOrEqual(30);
    for (const k of [
      'shortfall_streak',
      'rolling_erosion',
      'injection_dependency',
      'over_fill',
      'dormant_stock',
      'circulation_breach',
      'unmatched_injection',
      'par_drift',
    ]) {
      expect(data.signals.some((s) => s.kind === k)).toBe(true);
    }
    expect(new Set(data.signals.map((s) => s.severity))).toEqual(new Set(['low', 'medium', 'high']));
    expect(new Set(data.signals.map((s) => s.status))).toEqual(
      new Set(['open', 'acknowledged', 'dismissed', 'resolved']),
    );
    expect(data.signals.filter((s) => s.status === 'open').length).toBeGreaterThan(data.signals.length / 2);
    expect(data.signals.some((s) => s.item_id === null && s.item_name === null)).toBe(true);
    for (const s of data.signals) {
      if (s.kind === 'circulation_breach') {
        expect(s.suggested_order_qty).not.toBeNull();
        expect((s.suggested_order_qty ?? 0) % 6).toBe(0);
      } else {
        expect(s.suggested_order_qty).toBeNull();
      }
      expect(s.window_start <= s.window_end).toBe(true);
      expect(s.window_end <= data.seeded.today).toBe(true);
      expect(daysBetween(localDay(data, s.generated_at), data.seeded.today)).toBeLessThanOrEqual(14);
      expect(s.summary).not.toContain('\n');
    }
    const rank = { high: 0, medium: 1, low: 2 };
    expect(
      isSorted(data.signals, (a, b) => rank[a.severity] - rank[b.severity] || cmp(b.generated_at, a.generated_at)),
    ).toBe(true);
  });

  it('bills, ages and collects', () => {
    const statuses = new Set(data.invoices.map((i) => i.status));
    expect(statuses).toEqual(new Set(['draft', 'sent', 'partially_paid', 'paid', 'void', 'written_off']));
    for (const b of ['current', 'd1_30', 'd31_60', 'd61_plus'] as const) {
      expect(
        data.invoices.some(
          (i) => (i.status === 'sent' || i.status === 'partially_paid') && bucket(data, i.due_at) === b,
        ),
      ).toBe(true);
    }
    expect(data.invoices.some((i) => i.department_id === null)).toBe(true);
    expect(data.invoices.some((i) => i.department_id !== null)).toBe(true);
    for (const c of data.customers) {
      const currencies = new Set(
        [...data.invoices, ...data.payments, ...data.purchase_orders]
          .filter((x) => x.customer_id === c.id)
          .map((x) => x.currency),
      );
      expect(currencies.size).toBeLessThanOrEqual(1);
      if (c.name === 'Lakeshore Rehabilitation Centre') expect([...currencies]).toEqual(['cad']);
    }
    const noTerms = new Set(data.invoices.filter((i) => i.due_at === null).map((i) => i.customer_id));
    expect(noTerms.size).toBe(1);
    for (const inv of data.invoices.filter((i) => i.due_at !== null)) {
      expect(daysBetween(localDay(data, inv.issued_at), localDay(data, inv.due_at as string))).toBe(30);
    }
    expect(isSorted(data.invoices, (a, b) => cmp(b.issued_at, a.issued_at) || cmp(a.id, b.id))).toBe(true);

    expect(new Set(data.payments.map((p) => p.kind))).toEqual(
      new Set(['card', 'ach', 'check', 'cash', 'credit_memo', 'write_off']),
    );
    expect(new Set(data.payments.map((p) => p.status))).toEqual(new Set(['settled', 'returned', 'failed']));
    const mh = customerId(data, 'Mercy Health');
    const mgh = customerId(data, 'Mercy General Hospital');
    const mwsc = customerId(data, 'Mercy West Surgery Center');
    const owner = new Map(data.invoices.map((i) => [i.id, i.customer_id]));
    expect(
      data.payments.some(
        (p) =>
          p.customer_id === mh &&
          p.allocations.some((a) => owner.get(a.invoice_id) === mgh) &&
          p.allocations.some((a) => owner.get(a.invoice_id) === mwsc),
      ),
    ).toBe(true);

    expect(new Set(data.purchase_orders.map((p) => p.status))).toEqual(
      new Set(['pending', 'active', 'closed', 'cancelled']),
    );
    for (const po of data.purchase_orders) {
      expect(po.spent_cents).toBe(po.total_cents - po.remaining_cents);
      expect(po.remaining_cents).toBeGreaterThanOrEqual(0);
      expect(po.expires_at > po.started_at).toBe(true);
      const linked = data.invoices.filter((i) => i.purchase_order_id === po.id);
      expect(po.spent_cents).toBe(linked.reduce((t, i) => t + i.total_cents, 0));
      for (const i of linked) expect(['sent', 'partially_paid', 'paid']).toContain(i.status);
    }
    expect(data.invoices.some((i) => i.purchase_order_id !== null)).toBe(true);
  });

  it('has direct-sales orders in every stage', () => {
    expect(data.orders.length).toBeGreaterThanOrEqual(15);
    expect(data.orders.length).toBeLessThanOrEqual(25);
    expect(new Set(data.orders.map((o) => o.stage))).toEqual(
      new Set(['draft', 'submitted', 'in_production', 'shipped', 'delivered', 'cancelled']),
    );
    for (const o of data.orders) {
      if (o.stage === 'draft' || o.stage === 'submitted') expect(o.confirmed_delivery_date).toBeNull();
      if (o.wearer_name !== null) expect(o.wearer_name).toMatch(/^\S+ \S+$/);
    }
    expect(data.orders.some((o) => o.charges.some((c) => c.kind === 'shipping'))).toBe(true);
    expect(data.orders.some((o) => o.lines.some((l) => l.charges.length > 0))).toBe(true);
    const firstDraft = data.orders.findIndex((o) => o.placed_at === null);
    expect(data.orders.slice(firstDraft).every((o) => o.placed_at === null)).toBe(true);
    expect(isSorted(data.orders.slice(0, firstDraft), (a, b) => cmp(b.placed_at ?? '', a.placed_at ?? ''))).toBe(true);
  });

  it('has quality tickets of every kind and status', () => {
    expect(data.tickets.length).toBeGreaterThanOrEqual(20);
    expect(data.tickets.length).toBeLessThanOrEqual(30);
    const labels: Record<string, string> = {
      stain: 'Stain',
      rip_damage: 'Rip / damage',
      shortage: 'Shortage',
      wrong_item: 'Wrong item',
      late_delivery: 'Late delivery',
      billing_dispute: 'Billing dispute',
      other: 'Other',
      complaint: 'Complaint',
      missing_linen: 'Missing linen',
      damage_claim: 'Damage claim',
    };
    expect(new Set(data.tickets.map((t) => t.kind))).toEqual(new Set(Object.keys(labels)));
    const statusLabel = {
      new: 'Submitted',
      acknowledged: 'Acknowledged',
      in_progress: 'In progress',
      resolved: 'Resolved',
      verified: 'Resolved',
    };
    expect(new Set(data.tickets.map((t) => t.status))).toEqual(new Set(Object.keys(statusLabel)));
    for (const t of data.tickets) {
      expect(t.kind_label).toBe(labels[t.kind]);
      expect(t.status_label).toBe(statusLabel[t.status]);
      const closed = t.status === 'resolved' || t.status === 'verified';
      expect(t.acknowledged_at === null).toBe(t.status === 'new');
      expect(t.resolved_at !== null).toBe(closed);
      expect(t.resolution_note !== null).toBe(closed);
      expect(t.customer_visible_events[0]?.event_type).toBe('created');
      for (const e of t.customer_visible_events) {
        expect(['created', 'acknowledged', 'comment', 'status_changed', 'resolved']).toContain(e.event_type);
        expect(['customer', 'provider', 'system']).toContain(e.actor_kind);
      }
      expect(data.customers.some((c) => c.id === t.customer_id)).toBe(true);
    }
    const numbers = data.tickets.map((t) => t.ticket_number);
    expect(numbers.some((n) => n.startsWith('TKT-26-'))).toBe(true);
    expect(numbers.some((n) => n.startsWith('TKT-25-'))).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(
      data.tickets.some((t) => t.subject.includes('<') && t.subject.includes('&') && t.subject.includes('@channel')),
    ).toBe(true);
  });

  it('has ratings, some by the group for Mercy West deliveries', () => {
    expect(data.ratings.length).toBeGreaterThanOrEqual(30);
    expect(data.ratings.length).toBeLessThanOrEqual(50);
    const manifests = new Map(data.manifests.map((m) => [m.id, m]));
    const mh = customerId(data, 'Mercy Health');
    const mwsc = customerId(data, 'Mercy West Surgery Center');
    for (const r of data.ratings) {
      const m = manifests.get(r.manifest_id) as Manifest;
      expect(m.status).toBe('delivered');
      expect(r.manifest_number).toBe(m.manifest_number);
      expect(r.quality_rating).toBeGreaterThanOrEqual(1);
      expect(r.quality_rating).toBeLessThanOrEqual(5);
      expect(r.created_at > (m.delivered_at ?? '')).toBe(true);
      expect(r.customer_id === m.customer_id || r.customer_id === mh).toBe(true);
    }
    expect(data.ratings.some((r) => r.customer_id === mh && manifests.get(r.manifest_id)?.customer_id === mwsc)).toBe(
      true,
    );
    expect(data.ratings.some((r) => r.on_time === null)).toBe(true);
    expect(data.ratings.some((r) => r.note === null)).toBe(true);
  });
});
