/**
 * The sandbox's data changed while it runs (`/__sandbox/changes`, `sandbox.changes`): each change seen through the
 * `/v1` listings it belongs to (filters, paginated walks, the A/R balance), bad input answered 422/404 in one
 * sentence, and a reset serving the seeded data again, which no change ever modifies.
 */
import { createHash } from 'node:crypto';
import { formatInTimeZone } from 'date-fns-tz';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../sandbox/index.ts';
import type { SandboxData } from '../../sandbox/model.ts';
import { type ApiResponse, call, KEYS, listAll, startTestSandbox, TODAY } from '../support/sandbox-http.ts';

let sandbox: Sandbox;
let seeded: SandboxData;
let seededDigest: string;

const digestOf = (data: SandboxData) => createHash('sha256').update(JSON.stringify(data)).digest('hex');

beforeAll(async () => {
  sandbox = await startTestSandbox();
  seeded = sandbox.data;
  seededDigest = digestOf(seeded);
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  expect((await control('DELETE', '')).status).toBe(200);
});
// Whatever a test changed is served from new versions: the seeded data (shared by every sandbox of the process)
// is still exactly as generated while the changes are in effect.
afterEach(() => {
  expect(digestOf(seeded)).toBe(seededDigest);
});

/** A change control: `path` below /__sandbox/changes, `body` sent as JSON (a string as it is). */
async function control(method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const res = await fetch(`${sandbox.origin}/__sandbox/changes${path}`, {
    method,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** A control that must fail: its status, code and exact one-sentence message. */
async function rejected(method: string, path: string, body: unknown, status: number, message: string | RegExp) {
  const res = await control(method, path, body);
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['error', 'request_id']);
  expect(res.body.error.code).toBe(status === 404 ? 'not_found' : 'invalid_params');
  if (typeof message === 'string') expect(res.body.error.message).toBe(message);
  else expect(res.body.error.message).toMatch(message);
  expect(res.body.error.message).not.toMatch(/\n|\bat .+\.ts\b/);
}

const tz = () => seeded.organization.time_zone;
const localDay = (timestamp: string) => formatInTimeZone(new Date(timestamp), tz(), 'yyyy-MM-dd');
const round3 = (x: number) => Math.round(x * 1000) / 1000;
function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}
const daysBetween = (a: string, b: string) =>
  Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
const customer = (name: string) => seeded.customers.find((c) => c.name === name)!;
const withoutPdf = ({ pdf_url: _pdf, ...row }: any) => row;
const YESTERDAY = addDays(TODAY, -1);

/** Every A/R row equals the open invoices the same key lists: balance and each aging bucket, in cents. */
async function expectBalanceEqualsInvoices(key: string): Promise<void> {
  const invoices = await listAll(sandbox, '/invoices', {}, key);
  const rows = await listAll(sandbox, '/balance', {}, key);
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) {
    const aging = { current: 0, d1_30: 0, d31_60: 0, d61_plus: 0 };
    let balance = 0;
    for (const i of invoices) {
      if (i.customer_id !== row.customer_id || (i.status !== 'sent' && i.status !== 'partially_paid')) continue;
      balance += i.balance_cents;
      const late = i.due_at === null ? 0 : daysBetween(localDay(i.due_at), TODAY);
      const bucket = late <= 0 ? 'current' : late <= 30 ? 'd1_30' : late <= 60 ? 'd31_60' : 'd61_plus';
      aging[bucket] += i.balance_cents;
    }
    expect({ customer: row.customer_name, balance: row.balance_cents, aging: row.aging }).toEqual({
      customer: row.customer_name,
      balance,
      aging,
    });
  }
}

async function balanceOf(customerId: string) {
  return (await call(sandbox, '/balance', { query: { customer_id: customerId } })).body.data[0];
}

describe('cart counts', () => {
  it("close a cart's count of today short, as every listing of counts shows", async () => {
    const pending = seeded.cart_counts.find((c) => c.date === TODAY && c.status === 'pending')!;
    const before = await listAll(sandbox, '/inventory/counts', { limit: '7' });

    const res = await control('POST', '/cart-counts/close-short', { cart_id: pending.cart_id, short_by: 4 });
    expect(res.status).toBe(200);
    const count = res.body.data;
    expect(count).toMatchObject({ id: pending.id, cart_id: pending.cart_id, date: TODAY, status: 'counted' });
    expect(count.counted_at).not.toBeNull();
    expect(localDay(count.counted_at)).toBe(TODAY);
    const shortBy = count.lines.map((l: any) => l.required - l.delivered);
    expect(shortBy.filter((n: number) => n !== 0)).toEqual([4]);
    for (const line of count.lines) expect(line.required).toBe(Math.max(0, line.par - line.on_hand));

    const listed = await call(sandbox, '/inventory/counts', { query: { cart_id: pending.cart_id, from: TODAY } });
    expect(listed.body.data).toEqual([count]);
    const counted = await listAll(sandbox, '/inventory/counts', { status: 'counted' });
    expect(counted.filter((c) => c.id === count.id)).toEqual([count]);
    const stillPending = await listAll(sandbox, '/inventory/counts', { status: 'pending' });
    expect(stillPending.some((c) => c.id === count.id)).toBe(false);
    const after = await listAll(sandbox, '/inventory/counts', { limit: '7' });
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    expect(after.find((c) => c.id === count.id)).toEqual(count);
  });

  it('take a new count of a cart and move it through its statuses, forward only', async () => {
    const counted = new Set(seeded.cart_counts.map((c) => `${c.cart_id}@${c.date}`));
    let cart = seeded.carts[0]!;
    let date = TODAY;
    search: for (const c of seeded.carts.filter((x) => x.is_active && x.count_days.length < 7)) {
      for (let d = addDays(TODAY, -6); d < TODAY; d = addDays(d, 1)) {
        if (!counted.has(`${c.id}@${d}`)) {
          [cart, date] = [c, d];
          break search;
        }
      }
    }
    expect(date).not.toBe(TODAY);
    const before = await listAll(sandbox, '/inventory/counts', { limit: '5' });

    const added = await control('POST', '/cart-counts', { cart_id: cart.id, date });
    expect(added.status).toBe(201);
    const weekday = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][new Date(`${date}T12:00:00Z`).getUTCDay()]!;
    expect(added.body.data).toMatchObject({
      customer_id: cart.customer_id,
      cart_id: cart.id,
      cart_name: cart.name,
      unit_id: cart.unit_id,
      date,
      status: 'pending',
      unscheduled: !cart.count_days.includes(weekday as never),
      counted_at: null,
      verified_at: null,
    });
    expect(added.body.data.lines).toEqual(
      cart.par.map((p) => ({
        item_id: p.item_id,
        item_name: p.item_name,
        par: p.par_quantity,
        on_hand: 0,
        required: p.par_quantity,
        delivered: 0,
        extra: 0,
        returned: 0,
      })),
    );
    const id = added.body.data.id;
    const [first] = cart.par;

    await rejected(
      'PATCH',
      `/cart-counts/${id}`,
      { lines: [{ item_id: first!.item_id, delivered: 3 }] },
      422,
      `Pieces are delivered to a count once it is counted, verified or assumed; cart count "${id}" would be pending.`,
    );
    const started = await control('PATCH', `/cart-counts/${id}`, {
      status: 'in_progress',
      lines: [{ item_id: first!.item_id, on_hand: 3 }],
    });
    expect(started.body.data.status).toBe('in_progress');
    expect(started.body.data.lines[0]).toMatchObject({ on_hand: 3, required: first!.par_quantity - 3 });

    const verified = await control('PATCH', `/cart-counts/${id}`, {
      status: 'verified',
      lines: [{ item_id: first!.item_id, delivered: first!.par_quantity - 5 }],
    });
    expect(verified.status).toBe(200);
    const count = verified.body.data;
    expect(count.status).toBe('verified');
    expect(count.counted_at).not.toBeNull();
    expect(count.verified_at >= count.counted_at).toBe(true);
    expect(count.lines.map((l: any) => l.required - l.delivered)).toEqual(
      count.lines.map((_: any, i: number) => (i === 0 ? 2 : 0)),
    );

    const listed = await listAll(sandbox, '/inventory/counts', {
      cart_id: cart.id,
      status: 'verified',
      from: date,
      to: date,
    });
    expect(listed).toEqual([count]);
    const after = await listAll(sandbox, '/inventory/counts', { limit: '5' });
    expect(after.length).toBe(before.length + 1);
    expect(after.filter((c) => c.id === id)).toEqual([count]);

    await rejected(
      'PATCH',
      `/cart-counts/${id}`,
      { status: 'pending' },
      422,
      `Cart count "${id}" is verified; it cannot change status any more.`,
    );
    await rejected(
      'POST',
      '/cart-counts',
      { cart_id: cart.id, date },
      422,
      `Cart ${cart.name} already has a count on ${date} ("${id}"); change that one instead.`,
    );
    await rejected('POST', '/cart-counts', { cart_id: 'c-no-such-cart' }, 404, 'Cart "c-no-such-cart" was not found.');
    await rejected(
      'POST',
      '/cart-counts',
      { cart_id: cart.id, date: addDays(TODAY, 1) },
      422,
      `"date" (${addDays(TODAY, 1)}) is after today (${TODAY}).`,
    );
    await rejected('PATCH', '/cart-counts/c-nope', { status: 'counted' }, 404, 'Cart count "c-nope" was not found.');
  });

  it('close short in process too, with the same rules', async () => {
    const open = seeded.cart_counts.find((c) => c.date === TODAY && c.status === 'in_progress')!;
    const line = open.lines.find((l) => l.required > 0) ?? open.lines[0]!;
    const count = sandbox.changes.closeCartCountShort({
      cart_id: open.cart_id,
      item_id: line.item_id,
      short_by: Math.max(1, line.required),
      status: 'assumed',
    });
    expect(count.status).toBe('assumed');
    expect(count.counted_at).toBeNull();
    const listed = await call(sandbox, '/inventory/counts', { query: { cart_id: open.cart_id, status: 'assumed' } });
    expect(listed.body.data.filter((c: any) => c.id === open.id)).toEqual([count]);
    expect(() => sandbox.changes.closeCartCountShort({ cart_id: open.cart_id, short_by: 0 })).toThrow(
      'Invalid short close: "short_by" must be at least 1.',
    );
  });
});

describe('signals', () => {
  it('raise a signal, acknowledge, resolve and reopen it; generated_at moves only when a run confirms it', async () => {
    const mgh = customer('Mercy General Hospital');
    const dept = seeded.departments.find((d) => d.customer_id === mgh.id)!;
    const item = seeded.items.find((i) => seeded.customer_items[mgh.id]!.includes(i.id))!;
    const raised = await control('POST', '/signals', {
      kind: 'shortfall_streak',
      severity: 'high',
      customer_id: mgh.id,
      department_id: dept.id,
      item_id: item.id,
      summary: `${item.name} at ${dept.name} under 80% of par for 3 straight days`,
    });
    expect(raised.status).toBe(201);
    const signal = raised.body.data;
    expect(signal).toMatchObject({
      kind: 'shortfall_streak',
      severity: 'high',
      status: 'open',
      customer_id: mgh.id,
      department_id: dept.id,
      item_id: item.id,
      item_name: item.name,
      suggested_order_qty: null,
      window_end: YESTERDAY,
    });
    expect(seeded.signals.every((s) => s.generated_at < signal.generated_at)).toBe(true);

    // Newest of the high ones: first in the default list of a key that sees Mercy General, absent for the hotel.
    const listed = await listAll(sandbox, '/inventory/signals', {}, KEYS.mercyOps);
    expect(listed[0]).toEqual(signal);
    const byKind = await listAll(sandbox, '/inventory/signals', { kind: 'shortfall_streak', customer_id: mgh.id });
    expect(byKind.filter((s) => s.id === signal.id)).toEqual([signal]);
    expect((await listAll(sandbox, '/inventory/signals', {}, KEYS.hotel)).some((s) => s.id === signal.id)).toBe(false);

    const acknowledged = (await control('PATCH', `/signals/${signal.id}`, { status: 'acknowledged' })).body.data;
    expect(acknowledged).toEqual({ ...signal, status: 'acknowledged' });
    const resolved = (await control('PATCH', `/signals/${signal.id}`, { status: 'resolved' })).body.data;
    expect(resolved.generated_at).toBe(signal.generated_at);
    expect((await listAll(sandbox, '/inventory/signals')).some((s) => s.id === signal.id)).toBe(false);
    expect(
      (await listAll(sandbox, '/inventory/signals', { status: 'resolved' })).filter((s) => s.id === signal.id),
    ).toEqual([resolved]);

    const reopened = (await control('PATCH', `/signals/${signal.id}`, { status: 'open' })).body.data;
    expect(reopened.status).toBe('open');
    expect(reopened.generated_at > signal.generated_at).toBe(true);
    expect((await listAll(sandbox, '/inventory/signals'))[0]).toEqual(reopened);

    // A lower severity moves it down the list, behind every medium one.
    const lowered = (await control('PATCH', `/signals/${signal.id}`, { severity: 'low' })).body.data;
    expect(lowered.generated_at > reopened.generated_at).toBe(true);
    const all = await listAll(sandbox, '/inventory/signals', { limit: '4' });
    const at = all.findIndex((s) => s.id === signal.id);
    expect(all[at]).toEqual(lowered);
    const rank = { high: 0, medium: 1, low: 2 } as Record<string, number>;
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1], all[i]];
      expect(
        rank[a.severity]! < rank[b.severity]! || (a.severity === b.severity && a.generated_at >= b.generated_at),
      ).toBe(true);
    }
    expect(all.slice(at + 1).every((s) => s.severity === 'low')).toBe(true);
  });

  it('refuse what a nightly run would not raise', async () => {
    const mgh = customer('Mercy General Hospital');
    const hotelDept = seeded.departments.find((d) => d.customer_id === customer('Harborview Hotel').id)!;
    await rejected(
      'POST',
      '/signals',
      { kind: 'over_fill', customer_id: mgh.id, suggested_order_qty: 12 },
      422,
      '"suggested_order_qty" is only set on circulation_breach signals, not on over_fill.',
    );
    await rejected(
      'POST',
      '/signals',
      { kind: 'over_fill', customer_id: mgh.id, department_id: hotelDept.id },
      422,
      `Department "${hotelDept.id}" (${hotelDept.name}) belongs to another customer than Mercy General Hospital.`,
    );
    await rejected(
      'POST',
      '/signals',
      { kind: 'Over Fill', customer_id: mgh.id },
      422,
      'Invalid signal: "kind" must be a lowercase snake_case word.',
    );
    await rejected('POST', '/signals', { kind: 'over_fill' }, 422, 'Invalid signal: "customer_id" is required.');
    await rejected(
      'POST',
      '/signals',
      { kind: 'over_fill', customer_id: 'c-nobody' },
      404,
      'Customer "c-nobody" was not found.',
    );
    await rejected('PATCH', '/signals/c-nope', { status: 'open' }, 404, 'Signal "c-nope" was not found.');
    const any = seeded.signals[0]!;
    await rejected(
      'PATCH',
      `/signals/${any.id}`,
      {},
      422,
      'Nothing to change: give "status", "severity", "summary", a window or "suggested_order_qty".',
    );
    await rejected(
      'PATCH',
      `/signals/${any.id}`,
      { status: 'closed' },
      422,
      'Invalid signal change: "status" must be one of: open, acknowledged, dismissed, resolved.',
    );
  });
});

describe('quality tickets', () => {
  it('open a ticket and take it through acknowledgement, resolution, verification and a reopening', async () => {
    const hotel = customer('Harborview Hotel');
    const opened = await control('POST', '/quality-tickets', {
      customer_id: hotel.id,
      kind: 'shortage',
      subject: 'Bath towels short for the weekend',
    });
    expect(opened.status).toBe(201);
    const ticket = opened.body.data;
    expect(ticket).not.toHaveProperty('customer_id');
    expect(ticket).toMatchObject({
      kind: 'shortage',
      kind_label: 'Shortage',
      status: 'new',
      status_label: 'Submitted',
      subject: 'Bath towels short for the weekend',
      acknowledged_at: null,
      resolved_at: null,
      last_correspondence_at: null,
      resolution_note: null,
    });
    expect(ticket.ticket_number).toMatch(/^TKT-26-\d{5}$/);
    expect(seeded.tickets.some((t) => t.ticket_number === ticket.ticket_number)).toBe(false);
    expect(ticket.customer_visible_events).toEqual([
      { event_type: 'created', actor_kind: 'customer', body: ticket.subject, created_at: ticket.created_at },
    ]);
    expect((await call(sandbox, '/quality-tickets', { key: KEYS.hotel })).body.data[0]).toEqual(ticket);
    expect(await listAll(sandbox, '/quality-tickets', { status: 'new', from: TODAY }, KEYS.hotel)).toEqual([ticket]);
    expect((await listAll(sandbox, '/quality-tickets', {}, KEYS.mercyOps)).some((t) => t.id === ticket.id)).toBe(false);

    const path = `/quality-tickets/${ticket.id}`;
    const acknowledged = (await control('PATCH', path, { status: 'acknowledged' })).body.data;
    expect(acknowledged).toMatchObject({ status: 'acknowledged', status_label: 'Acknowledged' });
    expect(acknowledged.acknowledged_at > ticket.created_at).toBe(true);
    expect(acknowledged.last_correspondence_at).toBe(acknowledged.acknowledged_at);

    await rejected(
      'PATCH',
      path,
      { status: 'resolved' },
      422,
      `"resolution_note" is required to resolve quality ticket ${ticket.ticket_number}.`,
    );
    const resolved = (
      await control('PATCH', path, {
        status: 'resolved',
        resolution_note: 'Two carts sent from the plant the same afternoon.',
        comment: { body: 'We are checking the weekend pars.', actor_kind: 'provider' },
      })
    ).body.data;
    expect(resolved).toMatchObject({
      status: 'resolved',
      status_label: 'Resolved',
      resolution_note: 'Two carts sent from the plant the same afternoon.',
      acknowledged_at: acknowledged.acknowledged_at,
    });
    expect(resolved.customer_visible_events.map((e: any) => [e.event_type, e.actor_kind, e.body])).toEqual([
      ['created', 'customer', ticket.subject],
      ['acknowledged', 'provider', 'Thanks, we are looking into it.'],
      ['comment', 'provider', 'We are checking the weekend pars.'],
      ['status_changed', 'system', 'Status changed to In progress'],
      ['resolved', 'provider', 'Two carts sent from the plant the same afternoon.'],
    ]);
    expect(resolved.resolved_at).toBe(resolved.customer_visible_events[4].created_at);

    const verified = (await control('PATCH', path, { status: 'verified' })).body.data;
    expect(verified).toMatchObject({ status: 'verified', status_label: 'Resolved', resolved_at: resolved.resolved_at });
    expect(verified.customer_visible_events.at(-1)).toMatchObject({
      event_type: 'status_changed',
      body: 'Resolution verified',
    });
    expect(await listAll(sandbox, '/quality-tickets', { status: 'verified', from: TODAY }, KEYS.hotel)).toEqual([
      verified,
    ]);

    const reopened = (await control('PATCH', path, { status: 'in_progress' })).body.data;
    expect(reopened).toMatchObject({
      status: 'in_progress',
      status_label: 'In progress',
      resolved_at: null,
      resolution_note: null,
    });
    const events = reopened.customer_visible_events;
    for (let i = 1; i < events.length; i++) expect(events[i].created_at > events[i - 1].created_at).toBe(true);
    expect(reopened.last_correspondence_at).toBe(events.at(-1).created_at);
    expect(
      (await listAll(sandbox, '/quality-tickets', { status: 'in_progress' }, KEYS.hotel)).filter(
        (t) => t.id === ticket.id,
      ),
    ).toEqual([reopened]);

    await rejected(
      'PATCH',
      path,
      { status: 'new' },
      422,
      `Quality ticket ${ticket.ticket_number} is in_progress: a ticket moves forward (new → acknowledged → in_progress → resolved → verified), and a resolved one can only be reopened to in_progress.`,
    );
    await rejected(
      'POST',
      '/quality-tickets',
      { customer_id: hotel.id, kind: 'smell', subject: 'x' },
      422,
      /^Invalid quality ticket: "kind" must be one of: stain, rip_damage, /,
    );
    await rejected(
      'POST',
      '/quality-tickets',
      { customer_id: hotel.id, kind: 'other', subject: 'two\nlines' },
      422,
      'Invalid quality ticket: "subject" must be one line without leading or trailing spaces.',
    );
    await rejected(
      'PATCH',
      '/quality-tickets/c-nope',
      { status: 'acknowledged' },
      404,
      'Quality ticket "c-nope" was not found.',
    );
  });
});

describe('invoices, payments and the A/R balance', () => {
  it('take payments that bring a balance down and mark it paid, every A/R row still equal to its invoices', async () => {
    await expectBalanceEqualsInvoices(KEYS.all);
    const mgh = customer('Mercy General Hospital');
    const invoice = seeded.invoices.find(
      (i) => i.customer_id === mgh.id && i.status === 'sent' && i.balance_cents > 20_000,
    )!;
    const before = await balanceOf(mgh.id);

    const part = await control('POST', `/invoices/${invoice.id}/payments`, { amount_cents: 10_000, kind: 'check' });
    expect(part.status).toBe(201);
    const { invoice: changed, payment, balance } = part.body.data;
    expect(changed).toMatchObject({
      id: invoice.id,
      status: 'partially_paid',
      balance_cents: invoice.balance_cents - 10_000,
      paid_at: null,
    });
    expect(payment).toMatchObject({
      customer_id: mgh.id,
      kind: 'check',
      status: 'settled',
      amount_cents: 10_000,
      currency: invoice.currency,
      returned_at: null,
      allocations: [{ invoice_id: invoice.id, invoice_number: invoice.invoice_number, amount_cents: 10_000 }],
    });
    expect(balance).toEqual(await balanceOf(mgh.id));
    expect(balance.balance_cents).toBe(before.balance_cents - 10_000);
    const listed = await listAll(
      sandbox,
      '/invoices',
      { status: 'partially_paid', customer_id: mgh.id },
      KEYS.mercyBilling,
    );
    expect(listed.filter((i) => i.id === invoice.id).map(withoutPdf)).toEqual([changed]);
    expect(
      (await listAll(sandbox, '/payments', { from: TODAY }, KEYS.mercyBilling)).filter((p) => p.id === payment.id),
    ).toEqual([payment]);

    const rest = (await control('POST', `/invoices/${invoice.id}/payments`)).body.data;
    expect(rest.invoice).toMatchObject({ status: 'paid', balance_cents: 0, paid_at: rest.payment.received_at });
    expect(rest.payment.amount_cents).toBe(invoice.balance_cents - 10_000);
    expect(rest.balance.balance_cents).toBe(before.balance_cents - invoice.balance_cents);
    const payments = await listAll(sandbox, '/payments', {}, KEYS.mercyBilling);
    const settled = payments
      .filter((p) => p.status === 'settled')
      .flatMap((p) => p.allocations)
      .filter((a) => a.invoice_id === invoice.id)
      .reduce((t, a) => t + a.amount_cents, 0);
    expect(settled).toBe(invoice.total_cents);
    expect((await listAll(sandbox, '/invoices', { status: 'sent' })).some((i) => i.id === invoice.id)).toBe(false);

    await rejected(
      'POST',
      `/invoices/${invoice.id}/payments`,
      {},
      422,
      `Invoice ${invoice.invoice_number} is paid in full.`,
    );
    const other = seeded.invoices.find((i) => i.status === 'sent' && i.id !== invoice.id)!;
    await rejected(
      'POST',
      `/invoices/${other.id}/payments`,
      { amount_cents: other.balance_cents + 1 },
      422,
      `Invoice ${other.invoice_number} has a balance of ${other.balance_cents} cents; a payment of ${other.balance_cents + 1} cents is more than that.`,
    );
    await rejected(
      'POST',
      `/invoices/${other.id}/payments`,
      { amount_cents: 12.5 },
      422,
      'Invalid payment: "amount_cents" must be a whole number.',
    );
    const draft = seeded.invoices.find((i) => i.status === 'draft')!;
    await rejected('POST', `/invoices/${draft.id}/payments`, {}, 404, `Invoice "${draft.id}" was not found.`);

    await expectBalanceEqualsInvoices(KEYS.all);
    await expectBalanceEqualsInvoices(KEYS.mercyBilling);
  });

  it('add an invoice long overdue and move its due day, aging it in /balance', async () => {
    const mgh = customer('Mercy General Hospital');
    const before = await balanceOf(mgh.id);
    const issuedOn = addDays(TODAY, -100);
    const added = await control('POST', '/invoices', {
      customer_id: mgh.id,
      subtotal_cents: 123_456,
      surcharges_cents: 544,
      tax_cents: 1_000,
      issued_on: issuedOn,
      due_on: addDays(TODAY, -75),
    });
    expect(added.status).toBe(201);
    const { invoice, balance } = added.body.data;
    expect(invoice).toMatchObject({
      status: 'sent',
      customer_id: mgh.id,
      department_id: null,
      subtotal_cents: 123_456,
      total_cents: 125_000,
      balance_cents: 125_000,
      currency: 'usd',
      paid_at: null,
    });
    expect(localDay(invoice.issued_at)).toBe(issuedOn);
    expect(localDay(invoice.due_at)).toBe(addDays(TODAY, -75));
    expect(invoice.invoice_number).toMatch(/^PLS-26-\d{6}$/);
    expect(balance.aging.d61_plus).toBe(before.aging.d61_plus + 125_000);
    expect(balance.balance_cents).toBe(before.balance_cents + 125_000);
    const onItsDay = await listAll(sandbox, '/invoices', { from: issuedOn, to: issuedOn, customer_id: mgh.id });
    expect(onItsDay.filter((i) => i.id === invoice.id).map(withoutPdf)).toEqual([invoice]);
    await expectBalanceEqualsInvoices(KEYS.all);

    const moved = await control('PATCH', `/invoices/${invoice.id}`, { due_on: addDays(TODAY, -40) });
    expect(moved.status).toBe(200);
    expect(localDay(moved.body.data.invoice.due_at)).toBe(addDays(TODAY, -40));
    expect(moved.body.data.balance.aging).toEqual({ ...before.aging, d31_60: before.aging.d31_60 + 125_000 });
    await expectBalanceEqualsInvoices(KEYS.mercyBilling);

    // A customer's terms by default: 30 days after issue.
    const today = (await control('POST', '/invoices', { customer_id: mgh.id, subtotal_cents: 5_000 })).body.data
      .invoice;
    expect([localDay(today.issued_at), localDay(today.due_at)]).toEqual([TODAY, addDays(TODAY, 30)]);
    // Paid on arrival: its payment is listed with it.
    const paid = (await control('POST', '/invoices', { customer_id: mgh.id, subtotal_cents: 7_000, status: 'paid' }))
      .body.data;
    expect(paid.invoice).toMatchObject({ status: 'paid', balance_cents: 0, paid_at: paid.payment.received_at });
    expect(paid.payment.allocations).toEqual([
      { invoice_id: paid.invoice.id, invoice_number: paid.invoice.invoice_number, amount_cents: 7_000 },
    ]);
    await expectBalanceEqualsInvoices(KEYS.all);

    await rejected(
      'PATCH',
      `/invoices/${invoice.id}`,
      { due_on: addDays(issuedOn, -1) },
      422,
      `"due_on" (${addDays(issuedOn, -1)}) is before the invoice was issued (${issuedOn}).`,
    );
    await rejected(
      'POST',
      '/invoices',
      { customer_id: mgh.id, subtotal_cents: 100, paid_cents: 50 },
      422,
      '"paid_cents" goes with status partially_paid or paid; a sent invoice has no payment.',
    );
    await rejected(
      'POST',
      '/invoices',
      { customer_id: mgh.id, subtotal_cents: 100, issued_on: addDays(TODAY, 2) },
      422,
      `"issued_on" (${addDays(TODAY, 2)}) is after today (${TODAY}).`,
    );
    await rejected(
      'POST',
      '/invoices',
      { customer_id: mgh.id, subtotal_cents: 100, issued_on: '2026-02-30' },
      422,
      'Invalid invoice: "issued_on" must be a calendar day as YYYY-MM-DD.',
    );
    await rejected(
      'POST',
      '/invoices',
      { customer_id: 'c-nobody', subtotal_cents: 100 },
      404,
      'Customer "c-nobody" was not found.',
    );
    await rejected('POST', '/invoices', '{"customer_id": ', 422, 'The body must be a JSON object.');
    await rejected('POST', '/invoices', '[1]', 422, 'Invalid invoice: the body must be an object.');
    const noTerms = seeded.invoices.find((i) => i.due_at === null)!;
    await rejected(
      'PATCH',
      `/invoices/${noTerms.id}`,
      { due_on: TODAY },
      422,
      `Invoice ${noTerms.invoice_number} has no due date: its customer has no payment terms.`,
    );
  });
});

describe('purchase orders', () => {
  it("spend an active order's budget down with an invoice that draws it, and add one", async () => {
    const active = seeded.purchase_orders.find((p) => p.status === 'active')!;
    const keep = Math.floor(active.total_cents * 0.05);
    const spent = await control('POST', `/purchase-orders/${active.id}/spend`, {
      amount_cents: active.remaining_cents - keep,
    });
    expect(spent.status).toBe(201);
    const { purchase_order: po, invoice } = spent.body.data;
    expect(po).toEqual({ ...active, spent_cents: active.total_cents - keep, remaining_cents: keep });
    expect(po.remaining_cents / po.total_cents).toBeLessThan(0.1);
    expect(invoice).toMatchObject({
      customer_id: active.customer_id,
      status: 'sent',
      total_cents: active.remaining_cents - keep,
    });
    const listed = await listAll(sandbox, '/purchase-orders', { status: 'active', customer_id: active.customer_id });
    expect(listed).toEqual([po]);
    await expectBalanceEqualsInvoices(KEYS.all);

    await rejected(
      'POST',
      `/purchase-orders/${active.id}/spend`,
      { amount_cents: keep + 1 },
      422,
      `Purchase order ${active.po_number} has ${keep} cents left; ${keep + 1} cents is more than that.`,
    );
    const closed = seeded.purchase_orders.find((p) => p.status === 'closed')!;
    await rejected(
      'POST',
      `/purchase-orders/${closed.id}/spend`,
      { amount_cents: 1 },
      422,
      `Purchase order ${closed.po_number} is closed; only an active order is drawn down.`,
    );
    await rejected(
      'POST',
      '/purchase-orders/c-nope/spend',
      { amount_cents: 1 },
      404,
      'Purchase order "c-nope" was not found.',
    );

    const stLukes = customer("St. Luke's Medical Center");
    const added = await control('POST', '/purchase-orders', {
      customer_id: stLukes.id,
      total_cents: 1_000_000,
      po_number: 'SL-TEST-1',
    });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      status: 'active',
      total_cents: 1_000_000,
      spent_cents: 0,
      remaining_cents: 1_000_000,
      po_number: 'SL-TEST-1',
    });
    expect(localDay(added.body.data.started_at)).toBe(TODAY);
    const drawn = (await control('POST', `/purchase-orders/${added.body.data.id}/spend`, { amount_cents: 950_000 }))
      .body.data;
    expect(drawn.purchase_order).toMatchObject({ spent_cents: 950_000, remaining_cents: 50_000 });
    expect(await listAll(sandbox, '/purchase-orders', { status: 'active', customer_id: stLukes.id })).toEqual([
      drawn.purchase_order,
    ]);
    await rejected(
      'POST',
      '/purchase-orders',
      { customer_id: stLukes.id, total_cents: 5 },
      422,
      `${stLukes.name} already has an active purchase order (SL-TEST-1) over those days; invoices draw down one.`,
    );
  });
});

describe('daily deliveries', () => {
  const parMet = (rows: any[]) => {
    const withPar = rows.filter((r) => r.daily_par !== null && r.daily_par > 0);
    const par = withPar.reduce((t, r) => t + r.daily_par, 0);
    return withPar.reduce((t, r) => t + Math.min(r.delivered_count, r.daily_par), 0) / par;
  };

  it("push yesterday's par met down through the pieces of that day's manifests, and back", async () => {
    const hotel = customer('Harborview Hotel');
    const row = seeded.daily_deliveries
      .filter(
        (r) => r.date === YESTERDAY && r.customer_id === hotel.id && r.department_id !== null && r.daily_par !== null,
      )
      .sort((a, b) => b.daily_par! - a.daily_par!)[0]!;
    const day = { from: YESTERDAY, to: YESTERDAY };
    const before = await listAll(sandbox, '/deliveries/daily', day, KEYS.hotel);
    const newCount = Math.floor(row.daily_par! * 0.4);

    const res = await control('PUT', '/deliveries/daily', {
      customer_id: hotel.id,
      department_id: row.department_id,
      item_id: row.item_id,
      date: YESTERDAY,
      delivered_count: newCount,
    });
    expect(res.status).toBe(200);
    const changedRow = { ...row, delivered_count: newCount, fill_rate: round3(newCount / row.daily_par!) };
    expect(res.body.data.row).toEqual(changedRow);
    const filtered = await listAll(sandbox, '/deliveries/daily', {
      ...day,
      department_id: row.department_id!,
      item_id: row.item_id,
    });
    expect(filtered).toEqual([changedRow]);
    const after = await listAll(sandbox, '/deliveries/daily', day, KEYS.hotel);
    expect(after).toEqual(
      before.map((r) => (r.item_id === row.item_id && r.department_id === row.department_id ? changedRow : r)),
    );
    const expected =
      (parMet(before) * before.reduce((t, r) => t + (r.daily_par ?? 0), 0) -
        Math.min(row.delivered_count, row.daily_par!) +
        newCount) /
      before.reduce((t, r) => t + (r.daily_par ?? 0), 0);
    expect(parMet(after)).toBeCloseTo(expected, 10);
    expect(parMet(after)).toBeLessThan(parMet(before));

    // The manifests of the day hold exactly the pieces the row shows, and count them.
    const changed = res.body.data.manifests;
    expect(changed.length).toBeGreaterThan(0);
    let pieces = 0;
    for (const m of seeded.manifests) {
      if (
        m.customer_id !== hotel.id ||
        m.department_id !== row.department_id ||
        !m.delivered_at ||
        localDay(m.delivered_at) !== YESTERDAY
      )
        continue;
      const detail = (await call(sandbox, `/manifests/${m.id}`, { key: KEYS.hotel })).body.data;
      const clean = detail.bins.filter((b: any) => b.side === 'clean').flatMap((b: any) => b.items);
      pieces += clean
        .filter((it: any) => it.item_id === row.item_id && it.disposition === 'clean')
        .reduce((t: number, it: any) => t + it.piece_count, 0);
      expect(detail.clean_piece_count).toBe(
        clean.filter((it: any) => it.disposition === 'clean').reduce((t: number, it: any) => t + it.piece_count, 0),
      );
      const listedManifest = changed.find((c: any) => c.id === m.id);
      if (listedManifest) {
        expect(listedManifest.clean_piece_count).toBe(detail.clean_piece_count);
        expect(detail.clean_weight_lb).toBe(m.clean_weight_lb);
      }
    }
    expect(pieces).toBe(newCount);
    expect(digestOf(seeded)).toBe(seededDigest);

    const none = await control('PUT', '/deliveries/daily', {
      customer_id: hotel.id,
      department_id: row.department_id,
      item_id: row.item_id,
      date: YESTERDAY,
      delivered_count: 0,
    });
    expect(none.body.data.row).toBeNull();
    expect(await listAll(sandbox, '/deliveries/daily', day, KEYS.hotel)).toEqual(
      before.filter(
        (r) => r !== before.find((x) => x.item_id === row.item_id && x.department_id === row.department_id),
      ),
    );

    const back = await control('PUT', '/deliveries/daily', {
      customer_id: hotel.id,
      department_id: row.department_id,
      item_id: row.item_id,
      date: YESTERDAY,
      delivered_count: row.delivered_count,
    });
    expect(back.body.data.row).toEqual(row);
    expect(await listAll(sandbox, '/deliveries/daily', day, KEYS.hotel)).toEqual(before);
  });

  it('change a row only on a day something was delivered', async () => {
    const hotel = customer('Harborview Hotel');
    const row = seeded.daily_deliveries.find((r) => r.customer_id === hotel.id && r.department_id !== null)!;
    const delivered = new Set(
      seeded.manifests
        .filter((m) => m.customer_id === hotel.id && m.department_id === row.department_id && m.delivered_at)
        .map((m) => localDay(m.delivered_at!)),
    );
    let quiet = YESTERDAY;
    while (delivered.has(quiet)) quiet = addDays(quiet, -1);
    const dept = seeded.departments.find((d) => d.id === row.department_id)!;
    const body = {
      customer_id: hotel.id,
      department_id: row.department_id,
      item_id: row.item_id,
      date: quiet,
      delivered_count: 10,
    };
    await rejected(
      'PUT',
      '/deliveries/daily',
      body,
      422,
      `No manifest of Harborview Hotel / ${dept.name} was delivered on ${quiet}; a daily delivery row only changes on a delivery day.`,
    );
    await rejected(
      'PUT',
      '/deliveries/daily',
      { ...body, delivered_count: -1 },
      422,
      'Invalid daily delivery: "delivered_count" must be at least 0.',
    );
    await rejected(
      'PUT',
      '/deliveries/daily',
      { ...body, item_id: 'c-nothing' },
      404,
      'Item "c-nothing" was not found.',
    );
    await rejected(
      'PUT',
      '/deliveries/daily',
      { ...body, department_id: undefined },
      422,
      'Invalid daily delivery: "department_id" is required.',
    );
  });
});

describe('paging while the data changes', () => {
  it('resumes a walk after the last row served, so a row added before it repeats nothing', async () => {
    const seen: string[] = [];
    const first = await call(sandbox, '/quality-tickets', { query: { limit: '5' } });
    seen.push(...first.body.data.map((t: any) => t.id));
    const opened = await control('POST', '/quality-tickets', {
      customer_id: customer('Harborview Hotel').id,
      kind: 'other',
      subject: 'Walk test',
    });
    expect(opened.status).toBe(201);
    let cursor = first.body.pagination.cursor;
    while (cursor) {
      const page = await call(sandbox, '/quality-tickets', { query: { limit: '5', cursor } });
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((t: any) => t.id));
      cursor = page.body.pagination.cursor;
    }
    expect(seen).toEqual(seeded.tickets.map((t) => t.id));
    expect((await listAll(sandbox, '/quality-tickets'))[0].id).toBe(opened.body.data.id);
  });
});

describe('the change controls', () => {
  it('log the changes, reset to the seeded data, and never touch it or another sandbox', async () => {
    const other = await startTestSandbox();
    try {
      const snapshot = async (sb: { baseUrl: string }) =>
        Promise.all(
          [
            '/invoices',
            '/payments',
            '/balance',
            '/purchase-orders',
            '/inventory/signals',
            '/quality-tickets',
            '/deliveries/daily',
            '/inventory/counts',
          ].map(async (path) => (await listAll(sb, path)).map(withoutPdf)),
        );
      const before = await snapshot(sandbox);

      const mgh = customer('Mercy General Hospital');
      const invoice = (await control('POST', '/invoices', { customer_id: mgh.id, subtotal_cents: 1_000 })).body.data
        .invoice;
      await control('POST', `/invoices/${invoice.id}/payments`, { amount_cents: 400 });
      const signal = sandbox.changes.addSignal({ kind: 'over_fill', customer_id: mgh.id });
      await control('PATCH', `/signals/${seeded.signals[0]!.id}`, { status: 'dismissed' });
      const pending = seeded.cart_counts.find((c) => c.status === 'pending')!;
      await control('POST', '/cart-counts/close-short', { cart_id: pending.cart_id, date: pending.date, short_by: 1 });

      const log = await control('GET', '');
      expect(log.body.data.count).toBe(5);
      expect(log.body.data.entries.map((e: any) => e.change)).toEqual([
        'invoices.add',
        'invoices.pay',
        'signals.add',
        'signals.change',
        'cart_counts.close_short',
      ]);
      expect(log.body.data.entries[2].ids).toEqual([signal.id]);
      expect(sandbox.data).not.toBe(seeded);
      expect((await snapshot(sandbox))[0]).not.toEqual(before[0]);
      expect(await snapshot(other)).toEqual(before);

      const reset = await control('DELETE', '');
      expect(reset.body.data).toEqual({ count: 0, entries: [] });
      expect(sandbox.data).toBe(seeded);
      expect(await snapshot(sandbox)).toEqual(before);
      expect(digestOf(seeded)).toBe(seededDigest);
    } finally {
      await other.close();
    }
  });

  it("stamp changes with the sandbox's clock when no day is pinned", async () => {
    let clock = Date.parse('2026-11-05T20:00:00.000Z');
    const live = await startTestSandbox({ today: undefined, now: () => clock });
    try {
      const hotel = live.data.customers.find((c) => c.name === 'Harborview Hotel')!;
      const ticket = live.changes.openTicket({ customer_id: hotel.id, kind: 'stain', subject: 'Lipstick on napkins' });
      expect(ticket.created_at).toBe('2026-11-05T20:00:00.000Z');
      clock += 5 * 60_000;
      const acknowledged = live.changes.changeTicket(ticket.id, { status: 'acknowledged' });
      expect(acknowledged.acknowledged_at).toBe('2026-11-05T20:05:00.000Z');
      expect((await call(live, '/quality-tickets', { key: KEYS.hotel })).body.data[0]).toEqual(acknowledged);
    } finally {
      await live.close();
    }
  });

  it('answer wrong methods and unknown routes as the other controls do', async () => {
    const wrong = await control('GET', '/invoices');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await control('PATCH', '/cart-counts/close-short', {})).headers.get('allow')).toBe('POST');
    expect((await control('PUT', '/deliveries/daily/extra', {})).status).toBe(404);
    await rejected('POST', '/manifests', {}, 404, 'No sandbox change at /__sandbox/changes/manifests.');
    expect(() => sandbox.changes.payInvoice('c-nope')).toThrow('Invoice "c-nope" was not found.');
  });
});
