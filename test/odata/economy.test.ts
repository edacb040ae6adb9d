/**
 * What a refresh costs the key, counted in the sandbox's request log: a 120-day Deliveries filter for one customer
 * costs the two windows the API needs (92 days and 28) and each window's pages of 200, once, however the tool
 * pages the feed (pages of 50 split the API's pages; the feed reads a split page again from the shared answers,
 * not from the API); the same query again within the shared answers' lifetime costs nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '../../shared/dates.ts';
import { createLinenClient } from '../../shared/node.ts';
import { connectFeed, type FeedClient } from '../support/odata-client.ts';
import { DEMO_KEY, type ODataHarness, startODataHarness, TODAY, TZ } from '../support/odata-harness.ts';

let h: ODataHarness;
let feed: FeedClient;
let customers: { id: string; name: string }[];

beforeAll(async () => {
  h = await startODataHarness();
  feed = await connectFeed(h.root, DEMO_KEY);
  const api = createLinenClient({ apiKey: DEMO_KEY, baseUrl: h.sandbox.baseUrl, timeZone: TZ, pacing: false });
  customers = await api.customers.list().all();
  await api.close();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const FROM = addDays(TODAY, -119);
/** The client's 92-day chunks of the window, newest first. */
const WINDOWS = [
  { from: addDays(TODAY, -91), to: TODAY },
  { from: FROM, to: addDays(TODAY, -92) },
];

/** The API requests a window's rows need: its pages of 200, at least one. */
function pagesNeeded(rows: Record<string, unknown>[]): number {
  return WINDOWS.reduce((n, w) => {
    const inWindow = rows.filter((r) => (r.date as string) >= w.from && (r.date as string) <= w.to).length;
    return n + Math.max(1, Math.ceil(inWindow / 200));
  }, 0);
}

async function refresh(customerId: string, maxPageSize?: number) {
  const before = h.sandbox.requests.count;
  const sentBefore = h.apiUrls.length;
  const read = await feed.readAll('Deliveries', {
    filter: `customer_id eq '${customerId}' and date ge ${FROM} and date le ${TODAY}`,
    maxPageSize,
  });
  return { ...read, cost: h.sandbox.requests.count - before, sent: h.apiUrls.slice(sentBefore) };
}

describe('a 120-day Deliveries refresh for one customer', () => {
  it('costs the windows and pages the API needs, once, with the tool paging by 50', async () => {
    const mercy = customers.find((c) => c.name === 'Mercy General Hospital')!;
    const first = await refresh(mercy.id, 50);
    expect(first.rows.length).toBeGreaterThan(400);
    expect(first.rows.every((r) => r.customer_id === mercy.id && (r.date as string) >= FROM)).toBe(true);
    expect(first.pages.length).toBe(Math.ceil(first.rows.length / 50));
    expect(first.cost).toBe(pagesNeeded(first.rows));
    expect(first.sent.length).toBe(first.cost);
    // Each API page asked for once: the two windows, each with its cursor pages.
    const asked = first.sent.map((u) => u.search);
    expect(new Set(asked).size).toBe(asked.length);
    const windows = new Set(first.sent.map((u) => `${u.searchParams.get('from')}..${u.searchParams.get('to')}`));
    expect(windows).toEqual(new Set(WINDOWS.map((w) => `${w.from}..${w.to}`)));
    expect(first.sent.every((u) => u.searchParams.get('customer_id') === mercy.id)).toBe(true);
    expect(first.sent.every((u) => u.searchParams.get('limit') === '200')).toBe(true);

    const again = await refresh(mercy.id);
    expect(again.cost).toBe(0);
    expect(again.rows).toEqual(first.rows);
  });

  it("costs the same pages for another customer with the feed's own page size", async () => {
    const harbor = customers.find((c) => c.name === 'Harborview Hotel')!;
    const run = await refresh(harbor.id);
    expect(run.rows.length).toBeGreaterThan(0);
    expect(run.cost).toBe(pagesNeeded(run.rows));
    expect((await refresh(harbor.id, 30)).cost).toBe(0);
  });
});
