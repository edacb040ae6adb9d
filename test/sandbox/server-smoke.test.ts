/** The HTTP server over a tiny hand-written data set: pipeline order, projections, cursors, PDFs, controls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultSpec, type Sandbox, startSandbox } from '../../sandbox/index.ts';
import type { Manifest, SandboxData } from '../../sandbox/model.ts';

const TODAY = '2026-03-10';

function manifest(id: string, customer_id: string, delivered_at: string | null): Manifest {
  return {
    id,
    manifest_number: `MAN-26-${id}`,
    type: 'normal',
    status: delivered_at ? 'delivered' : 'staged',
    customer_id,
    department_id: null,
    department_name: null,
    created_at: '2026-03-01T12:00:00.000Z',
    picked_up_at: null,
    received_at: null,
    cleaned_at: null,
    staged_at: null,
    delivered_at,
    soil_weight_lb: 100,
    clean_weight_lb: 95,
    clean_piece_count: 10,
    variance_pct: 0.05,
    variance_within_tolerance: true,
    parent_manifest_id: null,
    amount_cents: 1000,
    currency: 'usd',
    bins: [],
    held_rewash: null,
    rewash_links: { parent_manifest: null, rewash_children: [] },
    signature: { signed_by_name: null, signed_by_title: null, delivered_at },
  };
}

function fixture(): SandboxData {
  const invoice = (id: string, customer_id: string, status: any, due_at: string | null, balance: number) => ({
    id,
    invoice_number: `LC-26-${id}`,
    status,
    customer_id,
    department_id: null,
    issued_at: '2026-01-05T15:00:00.000Z',
    due_at,
    sent_at: '2026-01-05T15:00:00.000Z',
    paid_at: null,
    subtotal_cents: balance,
    surcharges_cents: 0,
    tax_cents: 0,
    total_cents: balance,
    balance_cents: balance,
    currency: customer_id === 'cC' ? 'cad' : 'usd',
    purchase_order_id: 'po1',
  });
  return {
    organization: {
      name: 'Prairie Linen Co.',
      time_zone: 'America/Chicago',
      invoice_prefix: 'LC',
      variance_tolerance: { min: 0, max: 0.15 },
      hides_rewash_fault_split: false,
    },
    seeded: { first_day: '2025-12-01', today: TODAY },
    keys: [
      {
        secret: 'lk_live_t_all',
        key_id: 'key_all',
        label: 'all',
        customer_ids: ['cA', 'cB', 'cC'],
        scopes: ['processing', 'accounting', 'direct_sales'],
        revoked: false,
      },
      {
        secret: 'lk_live_t_b',
        key_id: 'key_b',
        label: 'b',
        customer_ids: ['cB'],
        scopes: ['processing', 'accounting'],
        revoked: false,
      },
      {
        secret: 'lk_live_t_unit',
        key_id: 'key_u',
        label: 'u',
        customer_ids: ['cB'],
        scopes: ['processing'],
        revoked: false,
        unit_ids: ['u1'],
      },
      {
        secret: 'lk_live_t_gone',
        key_id: 'key_g',
        label: 'g',
        customer_ids: ['cB'],
        scopes: ['processing'],
        revoked: true,
      },
    ],
    customers: [
      {
        id: 'cB',
        name: 'Bayside Clinic',
        is_group: false,
        created_at: '2025-01-01T00:00:00.000Z',
        departments: [
          { id: 'd2', name: 'Surgery' },
          { id: 'd1', name: 'ER' },
        ],
      },
      { id: 'cA', name: 'Acme Group', is_group: true, created_at: '2025-01-01T00:00:00.000Z', departments: [] },
      { id: 'cC', name: 'Cedar Hotel', is_group: false, created_at: '2025-01-01T00:00:00.000Z', departments: [] },
    ],
    departments: [
      { id: 'd2', customer_id: 'cB', name: 'Surgery', cost_center_code: null },
      { id: 'd1', customer_id: 'cB', name: 'ER', cost_center_code: 'CC1' },
    ],
    items: [
      { id: 'i1', sku: 'SHEET', name: 'Sheet', category: null, unit_of_measure: 'each', weight_lb: 1.5 },
      { id: 'i2', sku: 'TOWEL', name: 'Bath towel', category: 'towels', unit_of_measure: 'each', weight_lb: 0.8 },
    ],
    customer_items: { cB: ['i1', 'i2'], cC: ['i2'] },
    weight_overrides: { cB: { i1: 1.7 } },
    manifests: [
      manifest('m1', 'cB', '2026-03-10T04:30:00.000Z'), // Mar 9 local (CDT)
      manifest('m2', 'cB', '2026-03-10T14:00:00.000Z'), // Mar 10 local
      manifest('m3', 'cC', '2026-03-08T14:00:00.000Z'),
      manifest('m4', 'cB', null),
    ],
    daily_deliveries: ['2026-03-10', '2026-03-09', '2026-03-04', '2026-03-03', '2026-02-01'].map((date) => ({
      date,
      customer_id: 'cB',
      customer_name: 'Bayside Clinic',
      department_id: null,
      department_name: null,
      item_id: 'i1',
      item_name: 'Sheet',
      delivered_count: 10,
      daily_par: 20,
      fill_rate: 0.5,
    })),
    inventory: [
      {
        customer_id: 'cB',
        item_id: 'i1',
        item_name: 'Sheet',
        new: 1,
        in_reserve: 2,
        in_plant: 3,
        in_transit: 4,
        at_customer: 5,
        retired: { retired_lost: 6 },
      },
      {
        customer_id: 'cC',
        item_id: 'i1',
        item_name: 'Sheet',
        new: 0,
        in_reserve: 0,
        in_plant: 0,
        in_transit: 0,
        at_customer: 7,
        retired: {},
      },
    ],
    pars: [],
    units: [
      {
        id: 'u1',
        customer_id: 'cB',
        name: '3 West',
        building: null,
        floor: null,
        unit_type: null,
        cost_center: null,
        cart_count: 1,
        is_active: true,
      },
      {
        id: 'u2',
        customer_id: 'cB',
        name: '4 East',
        building: null,
        floor: null,
        unit_type: null,
        cost_center: null,
        cart_count: 1,
        is_active: true,
      },
    ],
    carts: [],
    cart_counts: [],
    signals: [
      {
        id: 's1',
        kind: 'par_drift',
        severity: 'low',
        status: 'open',
        customer_id: 'cB',
        department_id: null,
        item_id: null,
        item_name: null,
        summary: 'x',
        suggested_order_qty: null,
        window_start: '2026-03-01',
        window_end: '2026-03-09',
        generated_at: '2026-03-10T08:00:00.000Z',
      },
      {
        id: 's2',
        kind: 'over_fill',
        severity: 'high',
        status: 'resolved',
        customer_id: 'cB',
        department_id: null,
        item_id: null,
        item_name: null,
        summary: 'y',
        suggested_order_qty: null,
        window_start: '2026-03-01',
        window_end: '2026-03-09',
        generated_at: '2026-03-10T08:00:00.000Z',
      },
    ],
    new_linen: [],
    rewash_batches: [],
    invoices: [
      invoice('inv1', 'cB', 'sent', '2026-01-20T06:00:00.000Z', 5000), // 49 days past due
      invoice('inv2', 'cB', 'partially_paid', null, 700),
      invoice('inv3', 'cC', 'sent', '2026-03-09T06:00:00.000Z', 300),
      invoice('inv4', 'cB', 'draft', null, 999),
    ],
    payments: [
      {
        id: 'p1',
        customer_id: 'cB',
        kind: 'ach',
        status: 'settled',
        amount_cents: 500,
        currency: 'usd',
        received_at: '2026-02-01T15:00:00.000Z',
        returned_at: null,
        allocations: [
          { invoice_id: 'inv2', invoice_number: 'LC-26-inv2', amount_cents: 200 },
          { invoice_id: 'inv3', invoice_number: 'LC-26-inv3', amount_cents: 300 },
        ],
      },
    ],
    purchase_orders: [],
    orders: [],
    tickets: [
      {
        id: 't1',
        ticket_number: 'TKT-26-00001',
        kind: 'stain',
        kind_label: 'Stain',
        status: 'new',
        status_label: 'Submitted',
        subject: 's',
        created_at: '2026-03-01T15:00:00.000Z',
        acknowledged_at: null,
        resolved_at: null,
        last_correspondence_at: null,
        resolution_note: null,
        customer_visible_events: [],
        customer_id: 'cB',
      },
    ],
    ratings: [
      {
        id: 'r1',
        customer_id: 'cB',
        manifest_id: 'm3',
        manifest_number: 'MAN-26-m3',
        on_time: true,
        quality_rating: 5,
        note: null,
        created_at: '2026-03-09T15:00:00.000Z',
      },
    ],
  };
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, data: fixture(), now: () => Date.parse('2026-03-10T18:00:00.000Z') });
});
afterAll(() => sandbox.close());

async function get(path: string, key: string | null = 'lk_live_t_all', init: RequestInit = {}) {
  const res = await fetch(path.startsWith('http') ? path : sandbox.baseUrl + path, {
    ...init,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.headers as Record<string, string>) },
  });
  const type = res.headers.get('content-type') ?? '';
  const body: any = type.includes('json') ? await res.json() : Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body };
}

describe('pipeline', () => {
  it('checks the method first, then the key, and tags every response with a request id', async () => {
    const r405 = await get('/nowhere', null, { method: 'POST' });
    expect([r405.status, r405.headers.get('allow'), r405.body.error.code]).toEqual([405, 'GET', 'method_not_allowed']);
    expect(r405.headers.get('x-request-id')).toBe(r405.body.request_id);
    expect((await get('/nowhere', null)).status).toBe(401);
    expect((await get('/customers', 'lk_live_t_gone')).status).toBe(401);
    const ok = await get('/customers/');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(ok.headers.get('x-request-id')).toBe(ok.body.request_id);
    expect(ok.body.data.map((c: any) => c.name)).toEqual(['Acme Group', 'Bayside Clinic', 'Cedar Hotel']);
    expect(ok.body.data[1].departments.map((d: any) => d.name)).toEqual(['ER', 'Surgery']);
    expect((await get('/customers//')).status).toBe(404);
  });

  it('checks scope before parameters and parameters before customer scoping', async () => {
    expect((await get('/orders?bogus=1', 'lk_live_t_b')).status).toBe(403);
    expect((await get('/manifests?customer_id=cC&limit=0', 'lk_live_t_b')).status).toBe(422);
    expect((await get('/manifests?customer_id=cC', 'lk_live_t_b')).status).toBe(404);
    expect((await get('/manifests/m3?x=1', 'lk_live_t_b')).status).toBe(422);
    expect((await get('/manifests/m3', 'lk_live_t_b')).status).toBe(404);
  });
});

describe('resources', () => {
  it('filters manifests by org-local delivered day and sorts undelivered last', async () => {
    const day = await get('/manifests?from=2026-03-09&to=2026-03-09');
    expect(day.body.data.map((m: any) => m.id)).toEqual(['m1']);
    const all = await get('/manifests');
    expect(all.body.data.map((m: any) => m.id)).toEqual(['m2', 'm1', 'm3', 'm4']);
    expect(all.body.data[0]).not.toHaveProperty('bins');
    expect((await get('/manifests/m1')).body.data).toHaveProperty('bins');
  });

  it('defaults deliveries to the last 7 days and keeps that window across pages', async () => {
    const first = await get('/deliveries/daily?limit=2');
    expect(first.body.data.map((r: any) => r.date)).toEqual(['2026-03-10', '2026-03-09']);
    const next = await get(`/deliveries/daily?limit=2&cursor=${first.body.pagination.cursor}`);
    expect(next.body.data.map((r: any) => r.date)).toEqual(['2026-03-04']);
    expect(next.body.pagination).toEqual({ cursor: null, has_more: false });
    expect((await get('/deliveries/daily?from=2025-11-30&to=2026-03-02')).status).toBe(422);
    expect((await get('/deliveries/daily?from=2026-03-11')).status).toBe(422);
    expect((await get(`/customers?cursor=${first.body.pagination.cursor}`)).status).toBe(422);
    expect((await get(`/deliveries/daily?limit=2&cursor=${first.body.pagination.cursor}`, 'lk_live_t_b')).status).toBe(
      422,
    );
  });

  it('serves departments, items with overrides, totals and balances', async () => {
    expect((await get('/customers/cB/departments?customer_id=cC')).body.data).toEqual([]);
    expect((await get('/customers/cB/departments')).body.data.map((d: any) => d.id)).toEqual(['d1', 'd2']);
    expect((await get('/items')).body.data.map((i: any) => [i.id, i.weight_lb])).toEqual([
      ['i2', 0.8],
      ['i1', 1.5],
    ]);
    expect((await get('/items?customer_id=cB')).body.data.find((i: any) => i.id === 'i1').weight_lb).toBe(1.7);
    expect((await get('/items', 'lk_live_t_b')).body.data).toHaveLength(2);
    const totals = (await get('/inventory/totals')).body.data;
    expect(totals).toEqual([
      {
        item_id: 'i1',
        item_name: 'Sheet',
        total_owned: 22,
        at_customer: 12,
        at_facility: 6,
        in_transit: 4,
        retired: 6,
      },
    ]);
    const balances = (await get('/inventory/balances', 'lk_live_t_b')).body.data;
    expect(balances.map((b: any) => `${b.status}:${b.quantity}`)).toEqual([
      'at_customer:5',
      'in_plant:3',
      'in_reserve:2',
      'in_transit:4',
      'new:1',
      'retired_lost:6',
    ]);
  });

  it('limits unit-restricted keys and defaults signals to open and acknowledged', async () => {
    expect((await get('/inventory/units', 'lk_live_t_unit')).body.data.map((u: any) => u.id)).toEqual(['u1']);
    expect((await get('/inventory/signals')).body.data.map((s: any) => s.id)).toEqual(['s1']);
    expect((await get('/inventory/signals?status=resolved')).body.data.map((s: any) => s.id)).toEqual(['s2']);
    expect((await get('/inventory/signals?kind=anything_new')).body.data).toEqual([]);
  });

  it('serves accounting rows with hidden internals, null foreign allocations and aging', async () => {
    const invoices = (await get('/invoices')).body.data;
    expect(invoices.map((i: any) => i.id).sort()).toEqual(['inv1', 'inv2', 'inv3']);
    expect(invoices[0]).not.toHaveProperty('purchase_order_id');
    expect(invoices[0].pdf_url.startsWith(`${sandbox.origin}/v1/files/invoice/`)).toBe(true);
    const payment = (await get('/payments', 'lk_live_t_b')).body.data[0];
    expect(payment.allocations).toEqual([
      { invoice_id: 'inv2', invoice_number: 'LC-26-inv2', amount_cents: 200 },
      { invoice_id: null, invoice_number: null, amount_cents: 300 },
    ]);
    const balance = (await get('/balance')).body.data;
    expect(balance.map((b: any) => [b.customer_id, b.balance_cents, b.currency])).toEqual([
      ['cA', 0, 'usd'],
      ['cB', 5700, 'usd'],
      ['cC', 300, 'cad'],
    ]);
    expect(balance[1].aging).toEqual({ current: 700, d1_30: 0, d31_60: 5000, d61_plus: 0 });
    expect(balance[2].aging).toEqual({ current: 0, d1_30: 300, d31_60: 0, d61_plus: 0 });
  });

  it('renders invoice PDFs through the signed link', async () => {
    const invoice = (await get('/invoices?customer_id=cC')).body.data[0];
    const pdf = await get(invoice.pdf_url);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-disposition')).toBe('inline; filename="LC-26-inv3.pdf"');
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await get(invoice.pdf_url.replace(/signature=[0-9a-f]+/, 'signature=00'))).status).toBe(403);
    expect((await get(invoice.pdf_url.split('?')[0])).status).toBe(422);
  });

  it('strips the ticket customer and hides foreign manifest numbers on ratings', async () => {
    const ticket = (await get('/quality-tickets', 'lk_live_t_b')).body.data[0];
    expect(ticket).not.toHaveProperty('customer_id');
    expect((await get('/quality-tickets?customer_id=cC')).body.data).toEqual([]);
    expect((await get('/ratings', 'lk_live_t_b')).body.data[0].manifest_number).toBeNull();
    expect((await get('/ratings')).body.data[0].manifest_number).toBe('MAN-26-m3');
  });
});

describe('sandbox controls', () => {
  it('reports health and takes faults over HTTP', async () => {
    const health = await fetch(`${sandbox.origin}/__sandbox/health`).then((r) => r.json() as Promise<any>);
    expect(health.data.status).toBe('ok');
    const set = await fetch(`${sandbox.origin}/__sandbox/faults`, {
      method: 'POST',
      body: JSON.stringify({ enqueue: { kind: '500', count: 1 } }),
    });
    expect(set.status).toBe(200);
    expect((await get('/customers')).status).toBe(500);
    expect((await get('/customers')).status).toBe(200);
    const bad = await fetch(`${sandbox.origin}/__sandbox/faults`, { method: 'POST', body: '{"nope":1}' });
    expect(bad.status).toBe(422);
    expect((await fetch(`${sandbox.origin}/__sandbox/faults`, { method: 'DELETE' })).status).toBe(200);
  });

  it('parses SANDBOX_FAULTS', () => {
    expect(
      parseFaultSpec('latency=200,error_rate=0.05,drop_rate=0.01,malformed_rate=0.01,rate_limit_rate=0.02'),
    ).toEqual({
      latencyMs: 200,
      errorRate: 0.05,
      dropRate: 0.01,
      malformedRate: 0.01,
      rateLimitBurstRate: 0.02,
    });
    expect(() => parseFaultSpec('error_rate=2')).toThrow(/error_rate/);
    expect(() => parseFaultSpec('jitter=3')).toThrow(/jitter/);
  });
});
