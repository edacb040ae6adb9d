/**
 * Every LINEN_ function, run from the built Code.js in a vm as its own execution, against values computed
 * here from the sandbox's own data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/index.ts';
import { coldCache, type Harness, startHarness, TODAY, TZ } from '../support/apps-script-harness.ts';
import {
  expectedDaysOverdue,
  expectedFill,
  expectedLocations,
  expectedRewash,
  expectedShort,
  localDay,
} from '../support/expected-figures.ts';

let h: Harness;
let d: SandboxData;
let mercy: SandboxData['customers'][number];

const FROM = '2026-10-01';
const TO = '2026-10-31';
const dayOf = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
const inWindow = (day: string | null, from = FROM, to = TO) => day !== null && day >= from && day <= to;
const table = (r: { value?: unknown; error?: string }) => {
  expect(r.error).toBeUndefined();
  const t = r.value as unknown[][];
  expect(Array.isArray(t)).toBe(true);
  for (const row of t) for (const cell of row) expect(cell === null || cell === undefined).toBe(false);
  return { header: t[0] as string[], rows: t.slice(1) };
};

beforeAll(async () => {
  h = await startHarness();
  d = h.sb.data;
  mercy = d.customers.find((c) => c.name === 'Mercy General Hospital')!;
});
afterAll(async () => {
  await h?.close();
});

function fillRate(filter: (r: SandboxData['daily_deliveries'][number]) => boolean): number {
  const rows = d.daily_deliveries.filter(
    (r) => r.customer_id === mercy.id && inWindow(r.date) && filter(r) && r.daily_par !== null && r.daily_par > 0,
  );
  return rows.reduce((s, r) => s + r.delivered_count, 0) / rows.reduce((s, r) => s + r.daily_par!, 0);
}

describe('LINEN_FILLRATE and LINEN_DELIVERIES', () => {
  it('fill rate of a customer, a department, an item, by name or id, with text or Sheets dates', () => {
    const icu = mercy.departments.find((x) => x.name === 'ICU')!;
    const item = d.daily_deliveries.find((r) => r.customer_id === mercy.id && r.department_id === icu.id)!;
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO).value).toBeCloseTo(
      fillRate(() => true),
      12,
    );
    expect(h.cell('LINEN_FILLRATE', mercy.id, FROM, TO, 'icu').value).toBeCloseTo(
      fillRate((r) => r.department_id === icu.id),
      12,
    );
    // The part of a name that only one customer has is that customer.
    expect(h.cell('LINEN_FILLRATE', 'Mercy General', FROM, TO, 'ICU').value).toBeCloseTo(
      fillRate((r) => r.department_id === icu.id),
      12,
    );
    expect(h.cell('LINEN_FILLRATE', 'mercy general hospital', FROM, TO, icu.id, item.item_name).value).toBeCloseTo(
      fillRate((r) => r.department_id === icu.id && r.item_id === item.item_id),
      12,
    );
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, '', item.item_id).value).toBeCloseTo(
      fillRate((r) => r.item_id === item.item_id),
      12,
    );
    // Sheets passes a date cell as a Date at midnight in the spreadsheet's timezone, created in the script's realm.
    const viaDates = h.cellWith('LINEN_FILLRATE', (ex) => [
      'Mercy General Hospital',
      ex.evaluate(`new Date(${Date.UTC(2026, 9, 1, 5)})`),
      ex.evaluate(`new Date(${Date.UTC(2026, 9, 31, 5)})`),
    ]);
    expect(viaDates.value).toBeCloseTo(
      fillRate(() => true),
      12,
    );
  });

  it('an item by its SKU counts that item, and by id the whole sheet reads no customers or items list', () => {
    const icu = mercy.departments.find((x) => x.name === 'ICU')!;
    const row = d.daily_deliveries.find((r) => r.customer_id === mercy.id && r.department_id === icu.id)!;
    const sku = d.items.find((i) => i.id === row.item_id)!.sku;
    const expected = fillRate((r) => r.department_id === icu.id && r.item_id === row.item_id);
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, 'ICU', sku).value).toBeCloseTo(expected, 12);
    coldCache(h);
    h.takeFetches();
    expect(h.cell('LINEN_FILLRATE', mercy.id, FROM, TO, icu.id, row.item_id).value).toBeCloseTo(expected, 12);
    expect(h.cell('LINEN_FILLRATE', mercy.id, FROM, TO, 'icu', row.item_name).value).toBeCloseTo(expected, 12);
    const paths = h.takeFetches().map((f) => new URL(f.url).pathname);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p.endsWith('/deliveries/daily'))).toBe(true);
  });

  it('an item with no delivery in the window gives an empty cell, not an error', () => {
    const used = new Set(
      d.daily_deliveries.filter((r) => r.customer_id === mercy.id && inWindow(r.date)).map((r) => r.item_id),
    );
    const unused = d.items.find((i) => !used.has(i.id));
    if (!unused) return;
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, '', unused.name)).toEqual({ value: '' });
  });

  it('daily rows as a table with plain headers and Sheets dates', () => {
    const { header, rows } = table(h.cell('LINEN_DELIVERIES', 'Mercy General Hospital', FROM, '2026-10-07', 'ICU'));
    expect(header).toEqual(['Date', 'Customer', 'Department', 'Item', 'Delivered', 'Daily par', 'Fill rate']);
    const icu = mercy.departments.find((x) => x.name === 'ICU')!;
    const expected = d.daily_deliveries.filter(
      (r) => r.customer_id === mercy.id && r.department_id === icu.id && inWindow(r.date, FROM, '2026-10-07'),
    );
    expect(rows.length).toBe(expected.length);
    const [first] = expected;
    expect(rows[0]).toEqual([
      new Date(`${first!.date}T05:00:00Z`),
      'Mercy General Hospital',
      'ICU',
      first!.item_name,
      first!.delivered_count,
      first!.daily_par ?? '',
      first!.fill_rate ?? '',
    ]);
  });
});

describe('money, tickets and signals', () => {
  const open = () => d.invoices.filter((i) => i.status === 'sent' || i.status === 'partially_paid');

  it('LINEN_BALANCE: dollars for one customer; a currency table for customers billing in several', () => {
    const mine = open().filter((i) => i.customer_id === mercy.id);
    expect(h.cell('LINEN_BALANCE', 'Mercy General Hospital').value).toBeCloseTo(
      mine.reduce((s, i) => s + i.balance_cents, 0) / 100,
      6,
    );
    const { header, rows } = table(h.cell('LINEN_BALANCE'));
    expect(header).toEqual(['Currency', 'Balance']);
    const currencies = [...new Set(open().map((i) => i.currency))].sort();
    expect(rows.map((r) => r[0])).toEqual(currencies.map((c) => c.toUpperCase()));
    for (const [cur, amount] of rows) {
      const cents = open()
        .filter((i) => i.currency.toUpperCase() === cur)
        .reduce((s, i) => s + i.balance_cents, 0);
      expect(amount).toBeCloseTo(cents / 100, 6);
    }
  });

  it('LINEN_AGING: one row per customer, buckets summing to the balance, a total per currency', () => {
    const { header, rows } = table(h.cell('LINEN_AGING'));
    expect(header).toEqual(['Customer', 'Currency', 'Current', '1-30 days', '31-60 days', '61+ days', 'Balance']);
    const customers = rows.filter((r) => r[0] !== 'All customers');
    expect(customers.length).toBe(d.customers.length);
    for (const r of customers) {
      const c = d.customers.find((x) => x.name === r[0])!;
      const cents = open()
        .filter((i) => i.customer_id === c.id)
        .reduce((s, i) => s + i.balance_cents, 0);
      expect(r[6]).toBeCloseTo(cents / 100, 6);
      expect((r[2] as number) + (r[3] as number) + (r[4] as number) + (r[5] as number)).toBeCloseTo(r[6] as number, 6);
    }
    expect(rows.filter((r) => r[0] === 'All customers').length).toBe(new Set(open().map((i) => i.currency)).size);
    // Every line is the API's own row, a group's too: the total row is the sum of the lines above it.
    const group = d.customers.find((c) => c.is_group)!;
    expect(rows.find((r) => r[0] === group.name)![6]).toBe(0);
    for (const total of rows.filter((r) => r[0] === 'All customers')) {
      const lines = customers.filter((r) => r[1] === total[1]);
      expect(total[6]).toBeCloseTo(
        lines.reduce((sum, r) => sum + (r[6] as number), 0),
        6,
      );
    }
    // Asked for, a group that owes nothing shows its locations' rows, labelled as theirs, under their sum.
    const locations = expectedLocations(d, group.id);
    const asked = table(h.cell('LINEN_AGING', group.name)).rows;
    expect(asked.map((r) => r[0]).sort()).toEqual(
      [
        group.name,
        ...locations.map((l) => `${l.name} (location of ${group.name})`),
        `Total, ${group.name} and its locations`,
      ].sort(),
    );
    const owed = open()
      .filter((i) => locations.some((l) => l.id === i.customer_id))
      .reduce((sum, i) => sum + i.balance_cents, 0);
    expect(asked.find((r) => String(r[0]).startsWith('Total, '))![6]).toBeCloseTo(owed / 100, 6);
    const usd = rows.find((r) => r[0] === 'All customers' && r[1] === 'USD')!;
    const usdOpen = open()
      .filter((i) => i.currency === 'usd')
      .reduce((sum, i) => sum + i.balance_cents, 0);
    expect(usd[6]).toBeCloseTo(usdOpen / 100, 6);
    const one = table(h.cell('LINEN_AGING', 'Mercy General Hospital')).rows;
    expect(one.map((r) => r[0])).toEqual(['Mercy General Hospital']);
  });

  it('LINEN_TICKET: the status label of one ticket, or a column of them for a range', () => {
    const [a, b] = d.tickets;
    const labels: Record<string, string> = {
      new: 'Submitted',
      acknowledged: 'Acknowledged',
      in_progress: 'In progress',
      resolved: 'Resolved',
      verified: 'Resolved',
    };
    expect(h.cell('LINEN_TICKET', a!.ticket_number).value).toBe(labels[a!.status]);
    expect(h.cell('LINEN_TICKET', a!.ticket_number.toLowerCase().replace('-00', '-')).value).toBe(labels[a!.status]);
    expect(h.cell('LINEN_TICKET', [[a!.ticket_number], [b!.ticket_number], ['']]).value).toEqual([
      [labels[a!.status]],
      [labels[b!.status]],
      [''],
    ]);
  });

  it('LINEN_SIGNALS: open and acknowledged by default, filters by kind, status and customer', () => {
    const { header, rows } = table(h.cell('LINEN_SIGNALS'));
    expect(header[0]).toBe('Severity');
    expect(rows.length).toBe(d.signals.filter((s) => s.status === 'open' || s.status === 'acknowledged').length);
    const kind = d.signals[0]!.kind;
    const resolved = table(h.cell('LINEN_SIGNALS', kind, 'resolved')).rows;
    expect(resolved.length).toBe(d.signals.filter((s) => s.kind === kind && s.status === 'resolved').length);
    const mine = table(h.cell('LINEN_SIGNALS', '', '', 'Mercy General Hospital')).rows;
    expect(mine.length).toBe(
      d.signals.filter((s) => s.customer_id === mercy.id && (s.status === 'open' || s.status === 'acknowledged'))
        .length,
    );
  });
});

describe('one table function per list endpoint', () => {
  const lines = <T>(rows: T[], n: (r: T) => number) => rows.reduce((s, r) => s + Math.max(1, n(r)), 0);
  const RETIRED = (p: SandboxData['inventory'][number]) => Object.values(p.retired);

  const cases: [string, unknown[], () => number, string][] = [
    ['LINEN_CUSTOMERS', [], () => d.customers.length, 'Id'],
    [
      'LINEN_DEPARTMENTS',
      ['Mercy General Hospital'],
      () => d.departments.filter((x) => x.customer_id === mercy.id).length,
      'Id',
    ],
    ['LINEN_ITEMS', [], () => new Set(Object.values(d.customer_items).flat()).size, 'Id'],
    [
      'LINEN_MANIFESTS',
      ['Mercy General Hospital', FROM, TO],
      () =>
        d.manifests.filter((m) => m.customer_id === mercy.id && m.delivered_at && inWindow(dayOf(m.delivered_at)))
          .length,
      'Manifest',
    ],
    [
      'LINEN_INVENTORY',
      ['Mercy General Hospital'],
      () => d.inventory.filter((p) => p.customer_id === mercy.id).length,
      'Item',
    ],
    [
      'LINEN_PAR',
      ['Mercy General Hospital'],
      () => d.pars.filter((p) => p.customer_id === mercy.id).length,
      'Customer',
    ],
    [
      'LINEN_PAR',
      ['Mercy General Hospital', 'ICU'],
      () => d.pars.filter((p) => p.customer_id === mercy.id && p.department_name === 'ICU').length,
      'Customer',
    ],
    ['LINEN_UNITS', ['Mercy General Hospital'], () => d.units.filter((u) => u.customer_id === mercy.id).length, 'Id'],
    ['LINEN_CARTS', ['Mercy General Hospital'], () => d.carts.filter((c) => c.customer_id === mercy.id).length, 'Id'],
    [
      'LINEN_COUNTS',
      ['Mercy General Hospital', '2026-10-25', TO],
      () =>
        lines(
          d.cart_counts.filter((c) => c.customer_id === mercy.id && inWindow(c.date, '2026-10-25', TO)),
          (c) => c.lines.length,
        ),
      'Date',
    ],
    [
      'LINEN_INVENTORY_STATUS',
      ['Mercy General Hospital'],
      () =>
        d.inventory
          .filter((p) => p.customer_id === mercy.id)
          .reduce(
            (s, p) =>
              s +
              [p.new, p.in_reserve, p.in_plant, p.in_transit, p.at_customer, ...RETIRED(p)].filter((q) => q !== 0)
                .length,
            0,
          ),
      'Item',
    ],
    [
      'LINEN_NEW_LINEN',
      ['Mercy General Hospital'],
      () =>
        lines(
          d.new_linen.filter((n) => n.customer_id === mercy.id),
          (n) => n.items.length,
        ),
      'Date',
    ],
    [
      'LINEN_REWASH',
      ['Mercy General Hospital', FROM, TO],
      () => d.rewash_batches.filter((r) => r.customer_id === mercy.id && inWindow(dayOf(r.discovered_at))).length,
      'Discovered',
    ],
    [
      'LINEN_INVOICES',
      ['Mercy General Hospital', '', '', 'sent'],
      () => d.invoices.filter((i) => i.customer_id === mercy.id && i.status === 'sent').length,
      'Invoice',
    ],
    [
      'LINEN_PAYMENTS',
      ['Mercy General Hospital', FROM, TO],
      () => d.payments.filter((p) => p.customer_id === mercy.id && inWindow(dayOf(p.received_at))).length,
      'Received',
    ],
    ['LINEN_PURCHASE_ORDERS', [], () => d.purchase_orders.length, 'PO number'],
    [
      'LINEN_ORDERS',
      ['Harborview Hotel'],
      () => d.orders.filter((o) => o.customer_id === d.customers.find((c) => c.name === 'Harborview Hotel')!.id).length,
      'Order',
    ],
    [
      'LINEN_TICKETS',
      ['Mercy General Hospital', '', '', 'In progress'],
      () => d.tickets.filter((t) => t.customer_id === mercy.id && t.status === 'in_progress').length,
      'Ticket',
    ],
    [
      'LINEN_RATINGS',
      ['Mercy General Hospital'],
      () => d.ratings.filter((r) => r.customer_id === mercy.id).length,
      'Rated',
    ],
  ];

  it.each(cases)('%s(%j) has the rows the data holds', (name, args, expected, firstHeader) => {
    const { header, rows } = table(h.cell(name, ...args));
    expect(header[0]).toBe(firstHeader);
    for (const title of header) expect(title).toMatch(/^[A-Z][A-Za-z0-9 ()$+-]*$/);
    expect(rows.length).toBe(expected());
  });

  it('money in dollars with a currency column, timestamps as Sheets dates, nulls as empty cells', () => {
    const mine = d.invoices.filter((i) => i.customer_id === mercy.id && i.status === 'paid');
    const { header, rows } = table(h.cell('LINEN_INVOICES', 'Mercy General Hospital', '', '', 'paid'));
    const col = (name: string) => header.indexOf(name);
    const first = mine[0]!;
    expect(rows[0]![col('Invoice')]).toBe(first.invoice_number);
    expect(rows[0]![col('Total')]).toBeCloseTo(first.total_cents / 100, 6);
    expect(rows[0]![col('Currency')]).toBe(first.currency.toUpperCase());
    expect(rows[0]![col('Issued')]).toEqual(new Date(first.issued_at));
    expect(rows[0]![col('Balance')]).toBe(0);
    const open = d.invoices.find((i) => i.customer_id === mercy.id && i.status === 'sent')!;
    const sent = table(h.cell('LINEN_INVOICES', 'Mercy General Hospital', '', '', 'sent')).rows;
    expect(sent.find((r) => r[0] === open.invoice_number)![col('Paid')]).toBe('');
  });

  it('timestamps show org-local wall time when the spreadsheet is in another timezone', () => {
    h.world.spreadsheetTimeZone = 'Europe/London';
    h.setDocProp('LINEN_TIMEZONE', TZ);
    try {
      const first = d.invoices.find((i) => i.customer_id === mercy.id && i.status === 'paid')!;
      const { header, rows } = table(h.cell('LINEN_INVOICES', 'Mercy General Hospital', '', '', 'paid'));
      const shown = rows[0]![header.indexOf('Issued')] as Date;
      const wall = (tz: string, when: Date) =>
        new Intl.DateTimeFormat('en-GB', { timeZone: tz, dateStyle: 'short', timeStyle: 'medium' }).format(when);
      expect(wall('Europe/London', shown)).toBe(wall(TZ, new Date(first.issued_at)));
    } finally {
      h.world.spreadsheetTimeZone = TZ;
      h.setDocProp('LINEN_TIMEZONE', null);
    }
  });
});

describe('the 7 a.m. functions', () => {
  /** Today as the add-on's clock reads it, before and after a call (a call may straddle midnight). */
  const around = <T>(call: () => T): { value: T; days: string[] } => {
    const before = localDay(new Date().toISOString(), TZ);
    const value = call();
    return { value, days: [before, localDay(new Date().toISOString(), TZ)] };
  };

  it('LINEN_PARMET and LINEN_FILLRATE(..., "par_met"): over-fill earns nothing', () => {
    const icu = mercy.departments.find((x) => x.name === 'ICU')!;
    const rows = d.daily_deliveries.filter(
      (r) => r.customer_id === mercy.id && r.department_id === icu.id && inWindow(r.date),
    );
    const want = expectedFill(rows);
    expect(want.parMet).toBeLessThan(want.fill);
    h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO);
    h.takeFetches();
    // The same cached listing as the fill rate of the customer's window: no request.
    expect(h.cell('LINEN_PARMET', 'Mercy General Hospital', FROM, TO, 'ICU').value).toBeCloseTo(want.parMet, 12);
    expect(h.takeFetches()).toEqual([]);
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, 'ICU', '', 'par met').value).toBeCloseTo(
      want.parMet,
      12,
    );
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, 'ICU', '', 'fill').value).toBeCloseTo(
      want.fill,
      12,
    );
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO, 'ICU', '', 'median').error).toBe(
      'measure must be one of fill, par_met, not "median".',
    );
  });

  it('LINEN_SIGNALS: "shortfall" is the shortfall kinds, an unknown kind says so, an unlisted one passes through', () => {
    const standing = d.signals.filter((s) => s.status === 'open' || s.status === 'acknowledged');
    const shortfall = table(h.cell('LINEN_SIGNALS', 'shortfall')).rows;
    expect(shortfall.length).toBe(
      standing.filter((s) => s.kind === 'shortfall_streak' || s.kind === 'circulation_breach').length,
    );
    expect(table(h.cell('LINEN_SIGNALS', 'par_drift')).rows.length).toBe(
      standing.filter((s) => s.kind === 'par_drift').length,
    );
    const bad = h.cell('LINEN_SIGNALS', 'bogus');
    expect(bad.error).toMatch(
      /^"bogus" is not a signal kind; the kinds are shortfall \(shortfall_streak and circulation_breach\), /,
    );
    expect(bad.error).toContain('par_drift');
  });

  it('LINEN_TICKETS: each ticket with its customer, one listing per customer', () => {
    h.takeFetches();
    const { header, rows } = table(h.cell('LINEN_TICKETS', '', '', '', 'new'));
    const fetched = h.takeFetches().filter((f) => f.url.includes('/quality-tickets'));
    expect(fetched.length).toBe(d.customers.length);
    expect(header.slice(0, 3)).toEqual(['Ticket', 'Customer', 'Status']);
    const fresh = d.tickets.filter((t) => t.status === 'new');
    expect(rows.length).toBe(fresh.length);
    for (const t of fresh) {
      const row = rows.find((r) => r[0] === t.ticket_number)!;
      expect(row[1]).toBe(d.customers.find((c) => c.id === t.customer_id)!.name);
    }
  });

  it("LINEN_BALANCE of a group: the API's own figure for it", () => {
    const group = d.customers.find((c) => c.is_group)!;
    const own = d.invoices
      .filter((i) => i.customer_id === group.id && (i.status === 'sent' || i.status === 'partially_paid'))
      .reduce((sum, i) => sum + i.balance_cents, 0);
    expect(h.cell('LINEN_BALANCE', group.name).value).toBeCloseTo(own / 100, 6);
  });

  it("a group is asked for itself: its own tickets; its locations' invoices only when it has none; a place's figures name them", () => {
    const group = d.customers.find((c) => c.is_group)!;
    const locations = expectedLocations(d, group.id);
    const ids = locations.map((l) => l.id);
    expect(d.invoices.some((i) => i.customer_id === group.id)).toBe(false);
    const sent = table(h.cell('LINEN_INVOICES', group.name, '', '', 'sent')).rows;
    expect(sent.map((r) => r[0]).sort()).toEqual(
      d.invoices
        .filter((i) => ids.includes(i.customer_id) && i.status === 'sent')
        .map((i) => i.invoice_number)
        .sort(),
    );
    // Each row names its customer: the location's, never the group's.
    for (const r of sent) expect(locations.map((l) => l.name)).toContain(r[2]);
    const own = d.tickets.filter((t) => t.customer_id === group.id);
    expect(own.length).toBeGreaterThan(0);
    const tickets = table(h.cell('LINEN_TICKETS', group.name)).rows;
    expect(tickets.map((r) => r[0]).sort()).toEqual(own.map((t) => t.ticket_number).sort());
    expect(h.cell('LINEN_FILLRATE', group.name, FROM, TO).error).toBe(
      `${group.name} is a group and has no deliveries of its own from ${FROM} to ${TO}; ask for one of its locations (found by name): ${locations.map((l) => l.name).join(', ')}.`,
    );
  });

  it('LINEN_INVOICES: the department and the days overdue of each invoice', () => {
    const { value, days } = around(() => h.cell('LINEN_INVOICES', '', '', '', 'sent'));
    const { header, rows } = table(value);
    expect(header.slice(0, 7)).toEqual([
      'Invoice',
      'Status',
      'Customer',
      'Department',
      'Issued',
      'Due',
      'Days overdue',
    ]);
    const sent = d.invoices.filter((i) => i.status === 'sent');
    expect(rows.length).toBe(sent.length);
    for (const i of sent) {
      const row = rows.find((r) => r[0] === i.invoice_number)!;
      const dept = i.department_id ? d.departments.find((x) => x.id === i.department_id)!.name : 'All departments';
      expect(row[3]).toBe(dept);
      const want = i.due_at === null ? [''] : days.map((t) => expectedDaysOverdue(i.due_at!, t, TZ));
      expect(want).toContain(row[6]);
    }
    expect(rows.some((r) => (r[6] as number) > 30)).toBe(true);
  });

  it('LINEN_SHORT: what is missing by unit and item, worst first; a department narrows to its units', () => {
    const from = localDay(new Date(Date.parse(`${TODAY}T12:00:00Z`) - 6 * 86_400_000).toISOString(), 'UTC');
    const all = table(h.cell('LINEN_SHORT'));
    expect(all.header).toEqual([
      'Customer',
      'Unit',
      'Item',
      'Required',
      'Delivered',
      'Missing',
      'Carts',
      'Counted',
      'Count status',
    ]);
    const want = expectedShort(d, { from, to: TODAY });
    expect(all.rows.map((r) => r[5])).toEqual(want.lines.map((l) => l.missing));
    const icuNorth = d.units.filter((u) => u.customer_id === mercy.id && u.name === 'ICU North').map((u) => u.id);
    const icu = table(h.cell('LINEN_SHORT', 'Mercy General Hospital', 'ICU'));
    const wantIcu = expectedShort(d, { customerId: mercy.id, from, to: TODAY, unitIds: icuNorth });
    expect(icu.rows.map((r) => [r[1], r[5]])).toEqual(wantIcu.lines.map((l) => [l.unit, l.missing]));
    expect(h.cell('LINEN_SHORT', '', 'ICU').error).toBe('Give the customer of the department or unit.');
  });

  it('LINEN_REWASH_RATE: all rewash, or one fault, as a share of soil pounds', () => {
    const want = expectedRewash(d, { customerId: mercy.id, from: FROM, to: TO, timeZone: TZ });
    expect(want.batches).toBeGreaterThan(0);
    expect(h.cell('LINEN_REWASH_RATE', 'Mercy General Hospital', FROM, TO).value).toBeCloseTo(want.rate, 12);
    expect(h.cell('LINEN_REWASH_RATE', 'Mercy General Hospital', FROM, TO, 'processing error').value).toBeCloseTo(
      want.errorRate,
      12,
    );
    expect(h.cell('LINEN_REWASH_RATE', 'Mercy General Hospital', FROM).error).toBe(
      'Give both from and to, or neither for the last 30 whole days.',
    );
  });

  it('LINEN_MANIFEST: one row per bin with the signature, net weights, held rewash and rewash links', () => {
    const m = d.manifests.find((x) => x.delivered_at && x.held_rewash && x.rewash_links.rewash_children.length)!;
    const { header, rows } = table(h.cell('LINEN_MANIFEST', m.manifest_number));
    const col = (name: string) => header.indexOf(name);
    expect(rows.length).toBe(m.bins.length);
    for (const [i, b] of m.bins.entries()) {
      expect(rows[i]![col('Bin ticket')]).toBe(b.bin_ticket_number);
      expect(rows[i]![col('Net (lb)')]).toBe(b.net_lb);
    }
    expect(rows[0]![col('Signed by')]).toBe(m.signature.signed_by_name);
    expect(rows[0]![col('Signed at')]).toEqual(new Date(m.signature.delivered_at!));
    expect(rows[0]![col('Held rewash (lb)')]).toBe(m.held_rewash!.held_weight_lb);
    expect(rows[0]![col('Rewash children')]).toBe(
      m.rewash_links.rewash_children.map((c) => c.manifest_number).join(', '),
    );
    h.takeFetches();
    expect(h.cell('LINEN_MANIFEST', m.manifest_number.toLowerCase()).value).toBeDefined();
    expect(h.takeFetches()).toEqual([]);
    expect(h.cell('LINEN_MANIFEST', 'MAN-19-000001').error).toBe('No manifest MAN-19-000001 is visible to this key.');
    expect(h.cell('LINEN_MANIFEST', '').error).toBe('manifest_number is required, e.g. "MAN-26-027570".');
  });

  it('LINEN_PO_STATUS: left, spent, shares and days to expiry, least left first', () => {
    const { value, days } = around(() => h.cell('LINEN_PO_STATUS'));
    const { header, rows } = table(value);
    const col = (name: string) => header.indexOf(name);
    const active = d.purchase_orders.filter((p) => p.status === 'active');
    expect(rows.map((r) => r[0]).sort()).toEqual(active.map((p) => p.po_number).sort());
    for (const p of active) {
      const row = rows.find((r) => r[0] === p.po_number)!;
      expect(row[col('Remaining')]).toBeCloseTo(p.remaining_cents / 100, 6);
      expect(row[col('Remaining share')]).toBeCloseTo(p.remaining_cents / p.total_cents, 12);
      const until = days.map((t) => -expectedDaysOverdue(`${t}T12:00:00.000Z`, localDay(p.expires_at, TZ), 'UTC'));
      expect(until.map(Math.abs)).toContain(row[col('Days to expiry')]);
    }
    expect(table(h.cell('LINEN_PO_STATUS', '', 'closed')).rows.length).toBe(
      d.purchase_orders.filter((p) => p.status === 'closed').length,
    );
  });

  it('LINEN_ORDER: the lines, their charges, the subtotal, the order charges and the total', () => {
    const o = d.orders.find((x) => x.lines.some((l) => l.charges.length) && x.charges.length)!;
    const { header, rows } = table(h.cell('LINEN_ORDER', o.order_number));
    const col = (name: string) => header.indexOf(name);
    const lineRows = rows.filter((r) => typeof r[col('Line')] === 'number');
    expect(lineRows.map((r) => r[col('SKU')])).toEqual(
      [...o.lines].sort((a, b) => a.line_number - b.line_number).map((l) => l.sku),
    );
    const charges = [...o.lines.flatMap((l) => l.charges), ...o.charges];
    expect(rows.filter((r) => r[col('Line')] === 'charge').map((r) => r[col('Amount ($)')])).toEqual(
      charges.map((c) => c.amount_cents / 100),
    );
    expect(rows.find((r) => r[col('Line')] === 'subtotal')![col('Amount ($)')]).toBeCloseTo(o.subtotal_cents / 100, 6);
    expect(rows.at(-1)![col('Amount ($)')]).toBeCloseTo(o.total_cents / 100, 6);
    expect(h.cell('LINEN_ORDER', 'DS-26').error).toBe('"DS-26" is not an order number like DS-26-01234.');
  });
});
