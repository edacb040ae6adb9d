/**
 * The built add-on over data the seed never has: a manifest number two plants share, an organization that hides
 * the rewash fault split from its customers, and a group customer with invoices, deliveries and counts of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/dates.ts';
import { type Harness, startHarness, TODAY, TZ } from '../support/apps-script-harness.ts';
import { expectedFill, expectedRewash, expectedShort } from '../support/expected-figures.ts';
import { type GroupVariant, groupWithOwnRows, type Variant, variantData } from '../support/seeded-variants.ts';

let h: Harness;
let v: Variant;

beforeAll(async () => {
  v = await variantData({ today: TODAY, timeZone: TZ });
  h = await startHarness({ sandbox: { data: v.data } });
});
afterAll(async () => {
  await h?.close();
});

describe('functions over data the seed does not have', () => {
  it('LINEN_MANIFEST of a number two plants share: the bins of both, each row naming its customer', () => {
    const r = h.cell('LINEN_MANIFEST', v.shared.number);
    expect(r.error).toBeUndefined();
    const [header, ...rows] = r.value as unknown[][];
    const both = v.shared.ids.map((id) => v.data.manifests.find((m) => m.id === id)!);
    expect(rows.length).toBe(both[0]!.bins.length + both[1]!.bins.length);
    const customer = header!.indexOf('Customer');
    const names = both.map((m) => v.data.customers.find((c) => c.id === m.customer_id)!.name);
    expect(new Set(rows.map((row) => row[customer]))).toEqual(new Set(names));
  });

  it('LINEN_REWASH_RATE: the whole rate still, and a sentence when a fault is asked for', () => {
    const mercy = v.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const want = expectedRewash(v.data, { customerId: mercy.id, from: '2026-09-01', to: '2026-10-31', timeZone: TZ });
    expect(h.cell('LINEN_REWASH_RATE', mercy.name, '2026-09-01', '2026-10-31').value).toBeCloseTo(want.rate, 12);
    expect(h.cell('LINEN_REWASH_RATE', mercy.name, '2026-09-01', '2026-10-31', 'soil').error).toBe(
      'Your laundry hides the split between soil fault and processing error from customers, so the rewash cannot be split by fault.',
    );
  });
});

describe('a group with rows of its own', () => {
  let g: GroupVariant;
  let gh: Harness;
  beforeAll(async () => {
    g = await groupWithOwnRows({ today: TODAY, timeZone: TZ });
    gh = await startHarness({ sandbox: { data: g.data } });
  });
  afterAll(async () => {
    await gh?.close();
  });
  const group = () => g.data.customers.find((c) => c.id === g.groupId)!;
  const open = (customerId: string) =>
    g.data.invoices.filter(
      (i) => i.customer_id === customerId && ['sent', 'partially_paid'].includes(i.status) && i.balance_cents > 0,
    );

  it("LINEN_BALANCE and LINEN_AGING: the group's own row, nothing of its locations added", () => {
    const owed = open(g.groupId).reduce((s, i) => s + i.balance_cents, 0);
    expect(owed).toBeGreaterThan(0);
    expect(gh.cell('LINEN_BALANCE', group().name).value).toBeCloseTo(owed / 100, 6);
    const [, ...rows] = gh.cell('LINEN_AGING', group().name).value as unknown[][];
    expect(rows.map((r) => r[0])).toEqual([group().name]);
    expect(rows[0]![6]).toBeCloseTo(owed / 100, 6);
  });

  it("LINEN_INVOICES: the group's own invoices only", () => {
    const [, ...rows] = gh.cell('LINEN_INVOICES', group().name, '', '', 'sent').value as unknown[][];
    const sent = g.data.invoices.filter((i) => i.customer_id === g.groupId && i.status === 'sent');
    expect(rows.map((r) => r[0]).sort()).toEqual(sent.map((i) => i.invoice_number).sort());
  });

  it('LINEN_FILLRATE and LINEN_SHORT: the figures of its own deliveries and counts', () => {
    const from = '2026-10-01';
    const to = '2026-10-31';
    const rows = g.data.daily_deliveries.filter((r) => r.customer_id === g.groupId && r.date >= from && r.date <= to);
    expect(rows.length).toBeGreaterThan(0);
    expect(gh.cell('LINEN_FILLRATE', group().name, from, to).value).toBeCloseTo(expectedFill(rows).fill, 12);
    const short = gh.cell('LINEN_SHORT', group().name);
    expect(short.error).toBeUndefined();
    const want = expectedShort(g.data, { customerId: g.groupId, from: addDays(TODAY, -6), to: TODAY });
    if (want.missing > 0) expect(JSON.stringify(short.value)).toContain(want.lines[0]!.item);
  });
});
