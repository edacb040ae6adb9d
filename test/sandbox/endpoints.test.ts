/** Every endpoint of the spec's table answers with the spec's envelope and exactly the spec's fields. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import { call, KEYS, listAll, startTestSandbox } from '../support/sandbox-http.ts';
import { SHAPES, type Shape, shapeProblems } from '../support/wire-shapes.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());

function expectShapes(rows: any[], shape: Shape, where: string): void {
  expect(rows.length, `${where} should not be empty`).toBeGreaterThan(0);
  const problems = rows.flatMap((row, i) => shapeProblems(row, shape, `${where}[${i}]`));
  expect(problems.slice(0, 10)).toEqual([]);
}

const LISTS: [path: string, shape: Shape, query?: Record<string, string>][] = [
  ['/customers', SHAPES.customer],
  ['/items', SHAPES.item],
  ['/manifests', SHAPES.manifest],
  ['/deliveries/daily', SHAPES.dailyDelivery],
  ['/inventory/totals', SHAPES.inventoryTotal],
  ['/inventory/par', SHAPES.par],
  ['/inventory/units', SHAPES.unit],
  ['/inventory/carts', SHAPES.cart],
  ['/inventory/counts', SHAPES.cartCount],
  ['/inventory/balances', SHAPES.balanceByStatus],
  ['/inventory/signals', SHAPES.signal],
  ['/new-linen', SHAPES.newLinen],
  ['/rewash', SHAPES.rewash],
  ['/invoices', SHAPES.invoice],
  ['/payments', SHAPES.payment],
  ['/balance', SHAPES.balance],
  ['/purchase-orders', SHAPES.purchaseOrder],
  ['/orders', SHAPES.order],
  ['/quality-tickets', SHAPES.ticket],
  ['/ratings', SHAPES.rating],
];

describe('list endpoints', () => {
  it.each(LISTS)('GET %s has the list envelope and the spec fields', async (path, shape) => {
    const first = await call(sandbox, path);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(first.body).sort()).toEqual(['data', 'pagination', 'request_id']);
    expect(first.body.request_id).toMatch(/^req_[A-Za-z0-9]+$/);
    expect(Object.keys(first.body.pagination).sort()).toEqual(['cursor', 'has_more']);
    expect(first.body.data.length).toBeLessThanOrEqual(50);
    expectShapes(await listAll(sandbox, path), shape, path);
  });

  it('request ids differ between responses', async () => {
    const a = await call(sandbox, '/customers');
    const b = await call(sandbox, '/customers');
    expect(a.body.request_id).not.toBe(b.body.request_id);
  });
});

describe('nested fields', () => {
  it('customers list their departments as {id, name} sorted by name', async () => {
    const customers = await listAll(sandbox, '/customers');
    for (const customer of customers) {
      for (const dept of customer.departments) expect(Object.keys(dept).sort()).toEqual(['id', 'name']);
      const names = customer.departments.map((d: any) => d.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b)));
    }
  });

  it('GET /customers/{id}/departments lists the departments of each customer', async () => {
    const customers = await listAll(sandbox, '/customers');
    for (const customer of customers) {
      const rows = await listAll(sandbox, `/customers/${customer.id}/departments`);
      expect(rows.map((r) => r.id).sort()).toEqual(customer.departments.map((d: any) => d.id).sort());
      for (const row of rows) {
        expect(shapeProblems(row, SHAPES.department)).toEqual([]);
        expect(row.customer_id).toBe(customer.id);
      }
    }
  });

  it('GET /manifests/{id} adds bins, held rewash, rewash links and signature to the list fields', async () => {
    const rewashChild = sandbox.data.manifests.find((m) => m.type === 'rewash' && m.parent_manifest_id)!;
    const withHold = sandbox.data.manifests.find((m) => m.held_rewash !== null)!;
    for (const id of [rewashChild.id, withHold.id, rewashChild.parent_manifest_id!]) {
      const res = await call(sandbox, `/manifests/${id}`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'request_id']);
      const m = res.body.data;
      expect(shapeProblems(m, { ...SHAPES.manifest, ...SHAPES.manifestDetailExtra })).toEqual([]);
      for (const bin of m.bins) {
        expect(shapeProblems(bin, SHAPES.bin)).toEqual([]);
        expect(bin.net_lb).toBeCloseTo(bin.gross_lb - bin.tare_lb, 1);
        for (const item of bin.items) {
          expect(Object.keys(item).sort()).toEqual(['disposition', 'item_id', 'item_name', 'piece_count']);
        }
      }
      if (m.held_rewash) expect(shapeProblems(m.held_rewash, SHAPES.heldRewash)).toEqual([]);
      expect(Object.keys(m.rewash_links).sort()).toEqual(['parent_manifest', 'rewash_children']);
      expect(Object.keys(m.signature).sort()).toEqual(['delivered_at', 'signed_by_name', 'signed_by_title']);
    }
    const child = (await call(sandbox, `/manifests/${rewashChild.id}`)).body.data;
    expect(child.rewash_links.parent_manifest.id).toBe(rewashChild.parent_manifest_id);
    const parent = (await call(sandbox, `/manifests/${rewashChild.parent_manifest_id}`)).body.data;
    expect(parent.rewash_links.rewash_children.map((c: any) => c.id)).toContain(rewashChild.id);
  });

  it('manifest lists carry no detail-only field', async () => {
    const rows = (await call(sandbox, '/manifests')).body.data;
    for (const row of rows)
      for (const f of ['bins', 'held_rewash', 'rewash_links', 'signature']) expect(row).not.toHaveProperty(f);
  });

  it('carts, counts, payments, balances, rewash, new linen and tickets have the spec nested shapes', async () => {
    for (const cart of await listAll(sandbox, '/inventory/carts')) {
      for (const p of cart.par) expect(Object.keys(p).sort()).toEqual(['item_id', 'item_name', 'par_quantity']);
      for (const day of cart.count_days) expect(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat']).toContain(day);
    }
    for (const count of await listAll(sandbox, '/inventory/counts')) {
      for (const line of count.lines) {
        expect(Object.keys(line).sort()).toEqual([
          'delivered',
          'extra',
          'item_id',
          'item_name',
          'on_hand',
          'par',
          'required',
          'returned',
        ]);
      }
    }
    for (const payment of await listAll(sandbox, '/payments')) {
      for (const a of payment.allocations) expect(shapeProblems(a, SHAPES.allocation)).toEqual([]);
    }
    for (const row of await listAll(sandbox, '/balance')) {
      expect(shapeProblems(row.aging, SHAPES.agingBuckets)).toEqual([]);
    }
    for (const batch of await listAll(sandbox, '/rewash')) {
      expect(Object.keys(batch.parent_manifest).sort()).toEqual(['id', 'manifest_number']);
      if (batch.consumed_by_manifest) {
        expect(Object.keys(batch.consumed_by_manifest).sort()).toEqual(['delivered_at', 'id', 'manifest_number']);
      }
      for (const o of batch.outcomes) expect(Object.keys(o).sort()).toEqual(['damage_lb', 'fault_class', 'good_lb']);
    }
    for (const inj of await listAll(sandbox, '/new-linen')) {
      for (const i of inj.items) expect(Object.keys(i).sort()).toEqual(['item_id', 'item_name', 'piece_count']);
    }
    for (const ticket of await listAll(sandbox, '/quality-tickets')) {
      expect(ticket.ticket_number).toMatch(/^TKT-\d{2}-\d{5}$/);
      const times = ticket.customer_visible_events.map((e: any) => e.created_at);
      expect(times).toEqual([...times].sort());
      for (const e of ticket.customer_visible_events) {
        expect(Object.keys(e).sort()).toEqual(['actor_kind', 'body', 'created_at', 'event_type']);
      }
    }
  });

  it('GET /orders/{id} returns the order with its lines and charges', async () => {
    const orders = await listAll(sandbox, '/orders');
    for (const row of orders) {
      expect(row).not.toHaveProperty('lines');
      expect(row.order_number).toMatch(/^DS-\d{2}-\d{5}$/);
    }
    const res = await call(sandbox, `/orders/${orders[0].id}`);
    expect(res.status).toBe(200);
    const order = res.body.data;
    const { lines, charges, ...listFields } = order;
    expect(shapeProblems(listFields, SHAPES.order)).toEqual([]);
    expect(lines).toHaveLength(order.line_count);
    const charge = { id: 's', kind: 's', description: 's', quantity: 'i', unit_price_mills: 'i', amount_cents: 'i' };
    for (const line of lines) {
      const { charges: lineCharges, ...rest } = line;
      expect(
        shapeProblems(rest, {
          id: 's',
          line_number: 'i',
          sku: 's',
          description: 's',
          size: 's?',
          color: 's?',
          quantity: 'i',
          unit_price_cents: 'i',
          subtotal_cents: 'i',
        }),
      ).toEqual([]);
      for (const c of lineCharges) expect(shapeProblems(c, charge)).toEqual([]);
    }
    for (const c of charges) expect(shapeProblems(c, charge)).toEqual([]);
  });

  it('GET /files/invoice/{id} through pdf_url returns PDF bytes', async () => {
    const invoice = (await call(sandbox, '/invoices')).body.data[0];
    const res = await fetch(invoice.pdf_url, { headers: { authorization: `Bearer ${KEYS.all}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});
