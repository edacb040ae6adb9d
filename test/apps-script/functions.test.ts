/**
 * Every LINEN_ function, run from the built Code.js in a vm as its own execution, against values computed
 * here from the sandbox's own data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxData } from '../../sandbox/index.ts';
import { type Harness, startHarness, TZ } from '../support/apps-script-harness.ts';

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
