/**
 * Reports over data the seed never has: a manifest number two plants both reached, and an organization that
 * hides the rewash fault split from customers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../sandbox/index.ts';
import { addDays } from '../../shared/dates.ts';
import { createLinenClient, type LinenClient } from '../../shared/node.ts';
import { expectedRewash } from '../support/expected-figures.ts';
import { type Variant, variantData } from '../support/seeded-variants.ts';

const TODAY = '2026-11-05';
const TZ = 'America/Chicago';

let variant: Variant;
let sandbox: Sandbox;
let client: LinenClient;

beforeAll(async () => {
  variant = await variantData({ today: TODAY, timeZone: TZ });
  sandbox = await startSandbox({ port: 0, data: variant.data, rateLimit: { limit: 100_000, windowMs: 60_000 } });
  client = createLinenClient({
    apiKey: 'lk_live_demo_all_access',
    baseUrl: sandbox.baseUrl,
    timeZone: TZ,
    pacing: false,
    now: () => Date.parse(`${TODAY}T18:00:00Z`),
  });
});
afterAll(async () => {
  await client?.close();
  await sandbox?.close();
});

describe('reports over data the seed does not have', () => {
  it('a manifest number two plants share: both manifests, each with its detail', async () => {
    const found = await client.reports.findManifests(variant.shared.number);
    expect(found.map((m) => m.id).sort()).toEqual([...variant.shared.ids].sort());
    for (const m of found) expect(m.bins.length).toBeGreaterThan(0);
  });

  it('the customer narrows a shared number to its own manifest', async () => {
    const [one] = variant.shared.ids;
    const customerId = variant.data.manifests.find((m) => m.id === one)!.customer_id;
    const found = await client.reports.findManifests(variant.shared.number, { customerId });
    expect(found.map((m) => m.id)).toEqual([one]);
  });

  it('a hidden fault split: the rewash rate stands, the split is said to be hidden', async () => {
    const mercy = variant.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const from = addDays(TODAY, -60);
    const to = addDays(TODAY, -1);
    const rep = await client.reports.rewashRate({ customerId: mercy.id, from, to });
    const want = expectedRewash(variant.data, { customerId: mercy.id, from, to, timeZone: TZ });
    expect(rep.rewashLb).toBe(want.rewash);
    expect(rep.rate).toBeCloseTo(want.rate, 12);
    expect(rep.splitHidden).toBe(true);
    expect([rep.soilFaultLb, rep.errorFaultLb, rep.errorFaultRate]).toEqual([null, null, null]);
  });
});
