/**
 * The built add-on over data the seed never has: a manifest number two plants share, and an organization that
 * hides the rewash fault split from its customers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TODAY, TZ } from '../support/apps-script-harness.ts';
import { expectedRewash } from '../support/expected-figures.ts';
import { type Variant, variantData } from '../support/seeded-variants.ts';

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
