/** The numbers the spec defines, checked against values computed here from the sandbox's own data. */
import { formatInTimeZone } from 'date-fns-tz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import { KEYS, listAll, startTestSandbox, TODAY } from '../support/sandbox-http.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

const tz = () => sandbox.data.organization.time_zone;
const localDay = (timestamp: string) => formatInTimeZone(new Date(timestamp), tz(), 'yyyy-MM-dd');
const customer = (name: string) => sandbox.data.customers.find((c) => c.name === name)!;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

describe('daily deliveries', () => {
  it('default to the last 7 days, today included', async () => {
    const rows = await listAll(sandbox, '/deliveries/daily');
    expect(rows.length).toBeGreaterThan(0);
    const days = new Set(rows.map((r) => r.date));
    for (const day of days) expect(day >= addDays(TODAY, -6) && day <= TODAY).toBe(true);
    const expected = sandbox.data.daily_deliveries.filter((r) => r.date >= addDays(TODAY, -6) && r.date <= TODAY);
    expect(rows.length).toBe(expected.length);
  });

  it('compute fill_rate as delivered / par to 3 decimals, null without a usable pieces par', async () => {
    const rows = await listAll(sandbox, '/deliveries/daily', { from: addDays(TODAY, -30), to: TODAY });
    let withPar = 0;
    let withoutPar = 0;
    for (const row of rows) {
      if (row.daily_par === null) {
        expect(row.fill_rate).toBeNull();
        withoutPar++;
      } else {
        expect(row.fill_rate).toBe(round3(row.delivered_count / row.daily_par));
        withPar++;
      }
    }
    expect(withPar).toBeGreaterThan(0);
    expect(withoutPar).toBeGreaterThan(0);
  });

  it('use the department par, falling back to the customer-wide one, never a cart-load par', async () => {
    const rows = await listAll(sandbox, '/deliveries/daily', { from: addDays(TODAY, -13), to: TODAY });
    for (const row of rows) {
      const pars = sandbox.data.pars.filter((p) => p.customer_id === row.customer_id && p.item_id === row.item_id);
      const par =
        pars.find((p) => p.department_id === row.department_id && row.department_id !== null) ??
        pars.find((p) => p.department_id === null);
      expect(row.daily_par).toBe(par && par.par_unit === 'pieces' ? par.par_quantity : null);
    }
  });

  it('sum the clean pieces of the manifests delivered that org-local day', async () => {
    const general = customer('Mercy General Hospital');
    const day = addDays(TODAY, -3);
    const rows = await listAll(sandbox, '/deliveries/daily', { from: day, to: day, customer_id: general.id });
    const expected = new Map<string, number>();
    for (const m of sandbox.data.manifests) {
      if (m.customer_id !== general.id || !m.delivered_at || localDay(m.delivered_at) !== day) continue;
      for (const bin of m.bins.filter((b) => b.side === 'clean')) {
        for (const item of bin.items.filter((i) => i.disposition === 'clean')) {
          const k = `${m.department_id}|${item.item_id}`;
          expected.set(k, (expected.get(k) ?? 0) + item.piece_count);
        }
      }
    }
    const got = new Map(rows.map((r) => [`${r.department_id}|${r.item_id}`, r.delivered_count]));
    expect(got).toEqual(new Map([...expected].filter(([, n]) => n > 0)));
  });
});

describe('date windows in the organization timezone', () => {
  it('select manifests by their org-local delivered day, both bounds inclusive, undelivered excluded', async () => {
    const from = '2026-10-31';
    const to = '2026-11-02'; // across the end of daylight saving time (Nov 1)
    const rows = await listAll(sandbox, '/manifests', { from, to });
    const expected = sandbox.data.manifests.filter(
      (m) => m.delivered_at !== null && localDay(m.delivered_at) >= from && localDay(m.delivered_at) <= to,
    );
    expect(rows.map((r) => r.id).sort()).toEqual(expected.map((m) => m.id).sort());
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect([from, '2026-11-01', to]).toContain(localDay(r.delivered_at));
    const undelivered = await listAll(sandbox, '/manifests', { status: 'staged' });
    for (const m of undelivered) expect(m.delivered_at).toBeNull();
  });

  it('select invoices by their org-local issued day', async () => {
    const invoice = sandbox.data.invoices.find((i) => i.status === 'paid')!;
    const day = localDay(invoice.issued_at);
    const rows = await listAll(sandbox, '/invoices', { from: day, to: day });
    expect(rows.map((r) => r.id)).toContain(invoice.id);
    for (const r of rows) expect(localDay(r.issued_at)).toBe(day);
  });
});

describe('manifests', () => {
  it('compute variance_pct as (soil - clean) / soil and its tolerance', async () => {
    const rows = await listAll(sandbox, '/manifests', { status: 'delivered' });
    const { min, max } = sandbox.data.organization.variance_tolerance;
    let outside = 0;
    for (const m of rows) {
      if (m.soil_weight_lb === null || m.clean_weight_lb === null) continue;
      // In whole tenths of a pound, so the division is exact and ties round the same way every time.
      const soil = Math.round(m.soil_weight_lb * 10);
      const clean = Math.round(m.clean_weight_lb * 10);
      expect(m.variance_pct).toBe(Math.round(((soil - clean) * 1000) / soil) / 1000);
      expect(m.variance_within_tolerance).toBe(m.variance_pct >= min && m.variance_pct <= max);
      if (!m.variance_within_tolerance) outside++;
    }
    expect(outside).toBeGreaterThan(0);
  });
});

describe('accounting', () => {
  it('never serves draft, void or written-off invoices', async () => {
    const rows = await listAll(sandbox, '/invoices');
    const hidden = sandbox.data.invoices.filter((i) => !['sent', 'partially_paid', 'paid'].includes(i.status));
    expect(hidden.length).toBeGreaterThan(0);
    expect(rows.length).toBe(sandbox.data.invoices.length - hidden.length);
    const served = new Set(rows.map((r) => r.id));
    for (const h of hidden) expect(served.has(h.id)).toBe(false);
  });

  it('balance rows: one per visible customer, open balance over sent and partially paid, aging summing to it', async () => {
    const rows = await listAll(sandbox, '/balance', {}, KEYS.mercyBilling);
    expect(rows.map((r) => r.customer_name).sort()).toEqual(['Mercy General Hospital', 'Mercy Health']);
    for (const row of await listAll(sandbox, '/balance')) {
      const open = sandbox.data.invoices.filter(
        (i) => i.customer_id === row.customer_id && (i.status === 'sent' || i.status === 'partially_paid'),
      );
      expect(row.balance_cents).toBe(open.reduce((sum, i) => sum + i.balance_cents, 0));
      const { current, d1_30, d31_60, d61_plus } = row.aging;
      expect(current + d1_30 + d31_60 + d61_plus).toBe(row.balance_cents);
    }
    const all = await listAll(sandbox, '/balance');
    expect(all.some((r) => r.aging.d61_plus > 0)).toBe(true);
    expect(all.some((r) => r.currency === 'cad')).toBe(true);
  });

  it('payments: allocations sum to the amount, out-of-scope invoices show null ids', async () => {
    let hiddenAllocations = 0;
    for (const p of await listAll(sandbox, '/payments', {}, KEYS.mercyBilling)) {
      expect(p.allocations.reduce((sum: number, a: any) => sum + a.amount_cents, 0)).toBe(p.amount_cents);
      for (const a of p.allocations) {
        expect(a.invoice_id === null).toBe(a.invoice_number === null);
        if (a.invoice_id === null) hiddenAllocations++;
      }
    }
    expect(hiddenAllocations).toBeGreaterThan(0);
    for (const p of await listAll(sandbox, '/payments')) {
      for (const a of p.allocations) expect(a.invoice_id).not.toBeNull();
    }
  });
});

describe('inventory', () => {
  it('totals add up and agree with the balances by status', async () => {
    const totals = await listAll(sandbox, '/inventory/totals');
    const balances = await listAll(sandbox, '/inventory/balances');
    for (const t of totals) {
      expect(t.total_owned).toBe(t.at_customer + t.at_facility + t.in_transit);
      const of = (pred: (s: string) => boolean) =>
        balances.filter((b) => b.item_id === t.item_id && pred(b.status)).reduce((sum, b) => sum + b.quantity, 0);
      expect(of((s) => s === 'at_customer')).toBe(t.at_customer);
      expect(of((s) => ['new', 'in_reserve', 'in_plant'].includes(s))).toBe(t.at_facility);
      expect(of((s) => s.startsWith('retired_'))).toBe(t.retired);
    }
    for (const b of balances) expect(b.quantity).not.toBe(0);
  });

  it('signals default to open and acknowledged, and filter by any status and by open-ended kind', async () => {
    const defaults = await listAll(sandbox, '/inventory/signals');
    expect(new Set(defaults.map((s) => s.status))).toEqual(new Set(['open', 'acknowledged']));
    const resolved = await listAll(sandbox, '/inventory/signals', { status: 'resolved' });
    expect(resolved.length).toBeGreaterThan(0);
    for (const s of resolved) expect(s.status).toBe('resolved');
    const extra = sandbox.data.signals.find((s) => s.kind === 'par_drift')!;
    const drift = await listAll(sandbox, '/inventory/signals', { kind: 'par_drift', status: extra.status });
    expect(drift.map((s) => s.id)).toContain(extra.id);
    for (const s of await listAll(sandbox, '/inventory/signals', { status: 'open' })) {
      if (s.kind !== 'circulation_breach') expect(s.suggested_order_qty).toBeNull();
    }
  });

  it('items show a customer’s weight override only when filtered to that customer', async () => {
    const [customerId, overrides] = Object.entries(sandbox.data.weight_overrides)[0]!;
    const [itemId, weight] = Object.entries(overrides)[0]!;
    const filtered = await listAll(sandbox, '/items', { customer_id: customerId });
    expect(filtered.find((i) => i.id === itemId)!.weight_lb).toBe(weight);
    const catalog = sandbox.data.items.find((i) => i.id === itemId)!;
    expect((await listAll(sandbox, '/items')).find((i) => i.id === itemId)!.weight_lb).toBe(catalog.weight_lb);
    expect(filtered.map((i) => i.id).sort()).toEqual([...sandbox.data.customer_items[customerId]!].sort());
  });
});

describe('tickets and ratings', () => {
  it('label ticket statuses as the spec says', async () => {
    const labels: Record<string, string> = {
      new: 'Submitted',
      acknowledged: 'Acknowledged',
      in_progress: 'In progress',
      resolved: 'Resolved',
      verified: 'Resolved',
    };
    const tickets = await listAll(sandbox, '/quality-tickets');
    expect(new Set(tickets.map((t) => t.status)).size).toBe(5);
    for (const t of tickets) expect(t.status_label).toBe(labels[t.status]);
    expect(tickets.some((t) => ['complaint', 'missing_linen', 'damage_claim'].includes(t.kind))).toBe(true);
  });

  it('hide the number of a rated manifest outside the key’s customers', async () => {
    const ratings = await listAll(sandbox, '/ratings', {}, KEYS.mercyOps);
    const visible = new Set(sandbox.data.keys.find((k) => k.secret === KEYS.mercyOps)!.customer_ids);
    let hidden = 0;
    for (const r of ratings) {
      const manifest = sandbox.data.manifests.find((m) => m.id === r.manifest_id)!;
      if (visible.has(manifest.customer_id)) expect(r.manifest_number).toBe(manifest.manifest_number);
      else {
        expect(r.manifest_number).toBeNull();
        hidden++;
      }
    }
    expect(hidden).toBeGreaterThan(0);
  });
});
