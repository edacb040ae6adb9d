/** Reports against the sandbox, checked against values computed here from the sandbox's own data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/dates.ts';
import {
  createLinenClient,
  createLinenClientSync,
  InvalidParamsError,
  type LinenClient,
  type LinenClientSync,
  NotFoundError,
  UndiciTransport,
} from '../../shared/node.ts';
import {
  expectedDaysOverdue,
  expectedFill,
  expectedLocations,
  expectedRewash,
  expectedShort,
  localDay,
} from '../support/expected-figures.ts';
import { BlockingTransport, blockingSleep, startWorkerSandbox, type WorkerSandbox } from '../support/worker-sandbox.ts';

const ALL = 'lk_live_demo_all_access';
/** Org-local days from today to an instant's day. */
const expectedDaysUntil = (iso: string) =>
  Math.round((Date.parse(`${localDay(iso, TZ)}T12:00:00Z`) - Date.parse(`${TODAY}T12:00:00Z`)) / 86_400_000);
const TODAY = '2025-03-20';
const TZ = 'America/Chicago';

let sb: WorkerSandbox;
let blocking: BlockingTransport;
let undici: UndiciTransport;
const clients: Record<'async' | 'sync', LinenClient | LinenClientSync> = {} as never;
/** The paths each client requested, in order. */
const paths: Record<'async' | 'sync', string[]> = { async: [], sync: [] };

beforeAll(async () => {
  sb = await startWorkerSandbox({ today: TODAY, timeZone: TZ, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  blocking = new BlockingTransport();
  undici = new UndiciTransport();
  const now = () => Date.parse('2025-03-20T18:00:00Z');
  const base = { apiKey: ALL, baseUrl: sb.baseUrl, timeZone: TZ, now };
  clients.async = createLinenClient({
    ...base,
    transport: {
      request: (req, o) => {
        paths.async.push(new URL(req.url).pathname);
        return undici.request(req, o);
      },
    },
  });
  clients.sync = createLinenClientSync({
    ...base,
    transport: {
      request: (req, o) => {
        paths.sync.push(new URL(req.url).pathname);
        return blocking.request(req, o);
      },
    },
    sleep: blockingSleep,
  });
});
afterAll(async () => {
  await undici?.close();
  await blocking?.close();
  await sb?.close();
});

describe.each(['async', 'sync'] as const)('%s reports', (mode) => {
  it('fill rate over 30 days: total, per day and per item', async () => {
    const c = clients[mode];
    const rows = sb.data.daily_deliveries.filter((r) => r.daily_par !== null && r.daily_par > 0);
    const customerId = rows[0]!.customer_id;
    const from = addDays(TODAY, -29);
    const mine = sb.data.daily_deliveries.filter(
      (r) => r.customer_id === customerId && r.date >= from && r.date <= TODAY,
    );
    const usable = mine.filter((r) => r.daily_par !== null && r.daily_par > 0);
    const delivered = usable.reduce((s, r) => s + r.delivered_count, 0);
    const par = usable.reduce((s, r) => s + r.daily_par!, 0);
    const rep = await c.reports.fillRate({ customerId, from, to: TODAY });
    expect(rep.window).toEqual({ from, to: TODAY });
    expect(rep.delivered).toBe(delivered);
    expect(rep.par).toBe(par);
    expect(rep.fillRate).toBeCloseTo(delivered / par, 10);
    expect(rep.rows).toBe(mine.length);
    expect(new Set(rep.byDay.map((d) => d.date))).toEqual(new Set(mine.map((r) => r.date)));
    const item = rep.byItem[0]!;
    const itemRows = usable.filter((r) => r.item_id === item.itemId);
    expect(item.delivered).toBe(itemRows.reduce((s, r) => s + r.delivered_count, 0));
  });

  it('fill rate defaults to the last 7 whole days, ending yesterday: today is only partly delivered', async () => {
    const rep = await clients[mode].reports.fillRate({ customerId: sb.data.customers[1]!.id });
    expect(rep.window).toEqual({ from: addDays(TODAY, -7), to: addDays(TODAY, -1) });
    expect(rep.includesToday).toBe(false);
    const withToday = await clients[mode].reports.fillRate({ customerId: sb.data.customers[1]!.id, to: TODAY });
    expect(withToday.includesToday).toBe(true);
  });

  it('par met and short days beside fill rate: over-fill earns nothing, every short day counts', async () => {
    const mercy = sb.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const from = addDays(TODAY, -30);
    const to = addDays(TODAY, -1);
    const rows = sb.data.daily_deliveries.filter((r) => r.customer_id === mercy.id && r.date >= from && r.date <= to);
    const rep = await clients[mode].reports.fillRate({ customerId: mercy.id, from, to });
    const all = expectedFill(rows);
    expect(rep.met).toBe(all.met);
    expect(rep.parMet).toBeCloseTo(all.parMet, 12);
    expect(rep.fillRate).toBeCloseTo(all.fill, 12);
    expect(rep.shortDays).toBe(all.shortDays);
    expect(rep.daysWithPar).toBe(all.days);
    // Over-fill somewhere makes the fill rate read higher than the par met.
    expect(rep.parMet!).toBeLessThan(rep.fillRate!);
    for (const item of rep.byItem.filter((i) => i.par > 0)) {
      const mine = expectedFill(rows.filter((r) => r.item_id === item.itemId));
      expect([item.met, item.shortDays], item.itemName).toEqual([mine.met, mine.shortDays]);
    }
  });

  it('accounts receivable per customer and per currency', async () => {
    const rep = await clients[mode].reports.accountsReceivable();
    const open = sb.data.invoices.filter(
      (i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
    );
    expect(rep.openInvoices.map((i) => i.id).sort()).toEqual(open.map((i) => i.id).sort());
    for (const cur of new Set(open.map((i) => i.currency))) {
      const expected = open.filter((i) => i.currency === cur).reduce((s, i) => s + i.balance_cents, 0);
      expect(rep.totals.find((t) => t.currency === cur)!.balanceCents).toBe(expected);
    }
    for (const row of rep.customers) {
      const a = row.aging;
      expect(a.current + a.d1_30 + a.d31_60 + a.d61_plus).toBe(row.balanceCents);
    }
  });

  it('open shortfall signals (streaks and circulation breaches) grouped and ordered by severity', async () => {
    const groups = await clients[mode].reports.shortfallSignals();
    const expected = sb.data.signals.filter(
      (s) =>
        (s.kind === 'shortfall_streak' || s.kind === 'circulation_breach') &&
        (s.status === 'open' || s.status === 'acknowledged'),
    );
    expect(new Set(expected.map((s) => s.kind)).size).toBe(2);
    expect(expected.some((s) => s.status === 'acknowledged')).toBe(true);
    expect(groups.flatMap((g) => g.signals.map((s) => s.id)).sort()).toEqual(expected.map((s) => s.id).sort());
    const rank: Record<string, number> = { high: 3, medium: 2, low: 1 };
    for (let i = 1; i < groups.length; i++)
      expect(rank[groups[i - 1]!.severity]).toBeGreaterThanOrEqual(rank[groups[i]!.severity]!);
    for (const g of groups) {
      for (const s of g.signals)
        expect([s.customer_id, s.department_id, s.item_id]).toEqual([g.customerId, g.departmentId, g.itemId]);
      expect(g.severity).toBe(g.signals[0]!.severity);
      expect(g.customerName).toBe(sb.data.customers.find((c) => c.id === g.customerId)!.name);
    }
  });

  it('finds a ticket by its display number, with the spec status label', async () => {
    const t = sb.data.tickets.find((x) => x.status === 'verified') ?? sb.data.tickets[0]!;
    const short = t.ticket_number.replace(/-0+(\d)/, '-$1').toLowerCase();
    const found = await clients[mode].reports.findTicket(short);
    expect(found.id).toBe(t.id);
    expect(t.status).toBe('verified');
    expect(found.statusLabel).toBe('Resolved');
    expect(found.status_label).toBe(t.status_label);
    await expect(Promise.resolve().then(() => clients[mode].reports.findTicket('TKT-19-99999'))).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(Promise.resolve().then(() => clients[mode].reports.findTicket('ticket 5'))).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
  });

  it('resolves customers by id or name and explains unknown names', async () => {
    const c = clients[mode];
    const target = sb.data.customers[0]!;
    expect((await c.reports.resolveCustomer(target.id)).id).toBe(target.id);
    expect((await c.reports.resolveCustomer(`  ${target.name.toUpperCase()} `)).id).toBe(target.id);
    const typo = target.name.slice(0, 3) + (target.name[3] === 'x' ? 'y' : 'x') + target.name.slice(4);
    await expect(Promise.resolve().then(() => c.reports.resolveCustomer(typo))).rejects.toThrow(target.name);
    // A part of one name is that customer; a part of several names is ambiguous and lists them.
    const general = sb.data.customers.find((x) => x.name === 'Mercy General Hospital')!;
    expect((await c.reports.resolveCustomer('mercy general')).id).toBe(general.id);
    const mercies = sb.data.customers.filter((x) => x.name.startsWith('Mercy')).map((x) => x.name);
    expect(mercies.length).toBeGreaterThan(1);
    const ambiguous = Promise.resolve().then(() => c.reports.resolveCustomer('Mercy'));
    await expect(ambiguous).rejects.toBeInstanceOf(InvalidParamsError);
    for (const name of mercies)
      await expect(Promise.resolve().then(() => c.reports.resolveCustomer('Mercy'))).rejects.toThrow(name);
  });

  it("accounts receivable: every row is the API's own; a group that owes nothing gets its locations added, labelled", async () => {
    const group = sb.data.customers.find((c) => c.is_group)!;
    const locations = expectedLocations(sb.data, group.id);
    expect(locations.length).toBeGreaterThan(1);
    const open = sb.data.invoices.filter(
      (i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
    );
    const owed = (ids: string[], currency?: string) =>
      open
        .filter((i) => ids.includes(i.customer_id) && (!currency || i.currency === currency))
        .reduce((s, i) => s + i.balance_cents, 0);
    const ids = locations.map((l) => l.id);
    // Per currency, a total is the sum of its rows.
    const sumsToRows = (r: {
      customers: { currency: string; balanceCents: number }[];
      totals: { currency: string; balanceCents: number }[];
    }) => {
      for (const t of r.totals)
        expect(t.balanceCents).toBe(
          r.customers.filter((c) => c.currency === t.currency).reduce((s, c) => s + c.balanceCents, 0),
        );
    };
    const all = await clients[mode].reports.accountsReceivable();
    expect(all.customers.find((c) => c.customerId === group.id)!.balanceCents).toBe(owed([group.id]));
    expect(all.customers.every((c) => c.locationOf === null)).toBe(true);
    expect(all.groupWithoutOwn).toBeNull();
    sumsToRows(all);
    // The seed's group owes nothing of its own: asked for, its locations' rows are added, each labelled.
    const asked = await clients[mode].reports.accountsReceivable({ customerId: group.id });
    expect(asked.groupWithoutOwn).toEqual({
      customerId: group.id,
      customerName: group.name,
      locations: locations.map((l) => l.name),
    });
    expect(asked.customers.map((c) => c.customerId).sort()).toEqual([group.id, ...ids].sort());
    for (const c of asked.customers)
      expect(c.locationOf).toEqual(
        c.customerId === group.id ? null : { customerId: group.id, customerName: group.name },
      );
    sumsToRows(asked);
    for (const t of asked.totals) expect(t.balanceCents).toBe(owed(ids, t.currency));
    expect(new Set(asked.openInvoices.map((i) => i.customer_id))).toEqual(
      new Set(open.filter((i) => ids.includes(i.customer_id)).map((i) => i.customer_id)),
    );
    // A location is answered on its own rows alone.
    const one = await clients[mode].reports.accountsReceivable({ customerId: ids[0]! });
    expect(one.customers.map((c) => c.customerId)).toEqual([ids[0]]);
    expect(one.groupWithoutOwn).toBeNull();
  });

  it('short today: the latest counts by unit and item, worst first, over the last 7 days', async () => {
    const rep = await clients[mode].reports.shortToday();
    const want = expectedShort(sb.data, { from: addDays(TODAY, -6), to: TODAY });
    expect(rep.window).toEqual({ from: addDays(TODAY, -6), to: TODAY });
    expect(rep.missing).toBe(want.missing);
    expect(rep.carts).toBe(want.carts);
    expect(rep.lines.map((l) => l.missing)).toEqual(want.lines.map((l) => l.missing));
    expect(rep.lines.length).toBeGreaterThan(0);
  });

  it('short today at a department: the units sharing its cost center or name', async () => {
    const mercy = sb.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const icu = sb.data.departments.find((d) => d.customer_id === mercy.id && d.name === 'ICU')!;
    const units = sb.data.units.filter(
      (u) => u.customer_id === mercy.id && (u.cost_center === icu.cost_center_code || u.name.includes('ICU')),
    );
    expect(units.map((u) => u.name)).toEqual(['ICU North']);
    const rep = await clients[mode].reports.shortToday({ customerId: mercy.id, place: 'icu' });
    expect(rep.place).toBe('ICU');
    const want = expectedShort(sb.data, {
      customerId: mercy.id,
      from: addDays(TODAY, -6),
      to: TODAY,
      unitIds: units.map((u) => u.id),
    });
    expect(rep.missing).toBe(want.missing);
    expect(new Set(rep.lines.map((l) => l.unitName))).toEqual(new Set(want.lines.map((l) => l.unit)));
    await expect(
      Promise.resolve().then(() => clients[mode].reports.shortToday({ customerId: mercy.id, place: 'Laundry Chute' })),
    ).rejects.toThrow(/has no department or unit "Laundry Chute"; its departments are .*ICU/);
  });

  it('rewash rate: rewash pounds against soil pounds, split into soil fault and processing error', async () => {
    const mercy = sb.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const from = addDays(TODAY, -90);
    const to = addDays(TODAY, -1);
    const rep = await clients[mode].reports.rewashRate({ customerId: mercy.id, from, to });
    const want = expectedRewash(sb.data, { customerId: mercy.id, from, to, timeZone: TZ });
    expect(want.batches).toBeGreaterThan(0);
    expect([rep.soilLb, rep.rewashLb, rep.errorFaultLb, rep.soilFaultLb]).toEqual([
      want.soil,
      want.rewash,
      want.error,
      want.soilFault,
    ]);
    expect(rep.rate).toBeCloseTo(want.rate, 12);
    expect(rep.errorFaultRate).toBeCloseTo(want.errorRate, 12);
    expect(rep.splitHidden).toBe(false);
    const dflt = await clients[mode].reports.rewashRate({ customerId: mercy.id });
    expect(dflt.window).toEqual({ from: addDays(TODAY, -30), to: addDays(TODAY, -1) });
  });

  it('a manifest by its number: the year window, then its detail; one request for the detail', async () => {
    const m = sb.data.manifests.find((x) => x.delivered_at && x.held_rewash && x.rewash_links.rewash_children.length)!;
    // The number's year, a day before it and two weeks after it, on the delivered day.
    const year = 2000 + Number(m.manifest_number.slice(4, 6));
    const [from, to] = [`${year - 1}-12-31`, `${year + 1}-01-14`];
    const inYear = sb.data.manifests.filter((x) => {
      const day = x.delivered_at && localDay(x.delivered_at, TZ);
      return day && day >= from && day <= to;
    }).length;
    paths[mode].length = 0;
    const [found, ...rest] = await clients[mode].reports.findManifests(m.manifest_number.toLowerCase());
    expect(rest).toEqual([]);
    expect(found!.id).toBe(m.id);
    expect(found!.bins.length).toBe(m.bins.length);
    expect(found!.signature.signed_by_name).toBe(m.signature.signed_by_name);
    expect(found!.rewash_links.rewash_children.map((c) => c.id)).toEqual(
      m.rewash_links.rewash_children.map((c) => c.id),
    );
    expect(paths[mode].filter((p) => p === '/v1/manifests')).toHaveLength(Math.ceil(inYear / 200));
    expect(paths[mode].filter((p) => p.startsWith('/v1/manifests/'))).toEqual([`/v1/manifests/${m.id}`]);
    await expect(Promise.resolve().then(() => clients[mode].reports.findManifests('MAN-19-000001'))).rejects.toThrow(
      'No manifest MAN-19-000001 is visible to this key.',
    );
    await expect(Promise.resolve().then(() => clients[mode].reports.findManifests('M-1'))).rejects.toBeInstanceOf(
      InvalidParamsError,
    );
  });

  it('an order by its number, with its lines and charges; drafts are found too', async () => {
    const placed = sb.data.orders.find((o) => o.placed_at && o.lines.some((l) => l.charges.length))!;
    const [found] = await clients[mode].reports.findOrders(placed.order_number);
    expect(found!.id).toBe(placed.id);
    expect(found!.lines.map((l) => l.subtotal_cents)).toEqual(placed.lines.map((l) => l.subtotal_cents));
    expect(found!.total_cents).toBe(placed.total_cents);
    const draft = sb.data.orders.find((o) => o.stage === 'draft');
    if (draft) expect((await clients[mode].reports.findOrders(draft.order_number))[0]!.id).toBe(draft.id);
  });

  it('purchase orders: remaining and spent shares and org-local days to expiry, least left first', async () => {
    const pos = await clients[mode].reports.purchaseOrders({ asOf: TODAY });
    const active = sb.data.purchase_orders.filter((p) => p.status === 'active');
    expect(pos.map((p) => p.id).sort()).toEqual(active.map((p) => p.id).sort());
    for (const p of pos) {
      expect(p.remainingShare).toBeCloseTo(p.remaining_cents / p.total_cents, 12);
      expect(p.daysToExpiry).toBe(expectedDaysUntil(p.expires_at));
    }
    for (let i = 1; i < pos.length; i++)
      expect(pos[i - 1]!.remainingShare!).toBeLessThanOrEqual(pos[i]!.remainingShare!);
  });

  it('open invoices with their days overdue, most overdue first', async () => {
    const aged = await clients[mode].reports.openInvoices({ asOf: TODAY });
    const open = sb.data.invoices.filter(
      (i) => (i.status === 'sent' || i.status === 'partially_paid') && i.balance_cents > 0,
    );
    expect(aged.map((i) => i.id).sort()).toEqual(open.map((i) => i.id).sort());
    for (const i of aged)
      expect(i.daysOverdue).toBe(i.due_at === null ? null : expectedDaysOverdue(i.due_at, TODAY, TZ));
    expect(aged.some((i) => (i.daysOverdue ?? 0) > 60)).toBe(true);
    for (let k = 1; k < aged.length; k++)
      expect(aged[k - 1]!.daysOverdue ?? -1).toBeGreaterThanOrEqual(aged[k]!.daysOverdue ?? -1);
  });

  it('tickets across customers: one listing per customer, each ticket tagged with its customer', async () => {
    const ids = sb.data.customers.map((c) => c.id);
    paths[mode].length = 0;
    const tickets = await clients[mode].reports.tickets({
      customerIds: ids,
      statuses: ['new', 'acknowledged', 'in_progress'],
    });
    const open = sb.data.tickets.filter((t) => ['new', 'acknowledged', 'in_progress'].includes(t.status));
    expect(tickets.map((t) => `${t.id} ${t.customerId}`).sort()).toEqual(
      open.map((t) => `${t.id} ${t.customer_id}`).sort(),
    );
    expect(paths[mode].filter((p) => p === '/v1/quality-tickets')).toHaveLength(ids.length);
  });
});
