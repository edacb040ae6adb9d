/**
 * The OData feed consumed as Excel and Power BI consume it, through an OData client from npm, over HTTP in front
 * of the sandbox: the service document and `$metadata` (read strictly by the client), every entity set, filters
 * folded into the API's query or applied by the feed, `$select`, `$orderby`, `$top`, `$skip`, `$count`, and
 * server-driven paging followed through `@odata.nextLink` with `Prefer: odata.maxpagesize`. Each answer is
 * compared with what the Linen client reads from the API directly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLinenClient, type LinenClient } from '../../shared/node.ts';
import { connectFeed, type FeedClient } from '../support/odata-client.ts';
import { DEMO_KEY, type ODataHarness, startODataHarness, TODAY, TZ } from '../support/odata-harness.ts';
import { assertNoLeaks } from '../support/secret-leaks.ts';

const ISSUE_SETS = [
  'Customers',
  'Departments',
  'Items',
  'Manifests',
  'Deliveries',
  'Inventory',
  'ParLevels',
  'Units',
  'Carts',
  'CartCounts',
  'InventoryBalances',
  'Signals',
  'NewLinen',
  'Rewash',
  'Invoices',
  'Payments',
  'Balances',
  'PurchaseOrders',
  'Orders',
  'QualityTickets',
  'Ratings',
];
const LINE_SETS = ['CartPars', 'NewLinenItems', 'RewashOutcomes', 'PaymentAllocations', 'QualityTicketEvents'];

let h: ODataHarness;
let feed: FeedClient;
let api: LinenClient;
let mercyGeneral: string;

beforeAll(async () => {
  h = await startODataHarness();
  feed = await connectFeed(h.root, DEMO_KEY);
  api = createLinenClient({ apiKey: DEMO_KEY, baseUrl: h.sandbox.baseUrl, timeZone: TZ, pacing: false });
  const customers = await api.customers.list().all();
  mercyGeneral = customers.find((c) => c.name === 'Mercy General Hospital')!.id;
}, 60_000);
afterAll(async () => {
  await api?.close();
  await h?.close();
  assertNoLeaks(
    [DEMO_KEY],
    h.logs.map((text) => ({ source: 'feed log line', text })),
  );
});

const dollars = (cents: number) => cents / 100;

describe('the service document and $metadata', () => {
  it('lists an entity set for every list endpoint, under the names analysts see, and the client reads the same from $metadata', async () => {
    const doc = (await (await h.get('/odata/')).json()) as {
      '@odata.context': string;
      value: { name: string; kind: string; url: string }[];
    };
    expect(doc['@odata.context']).toBe('$metadata');
    const names = doc.value.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(ISSUE_SETS));
    expect(names.sort()).toEqual([...ISSUE_SETS, ...LINE_SETS].sort());
    expect(doc.value.every((s) => s.kind === 'EntitySet' && s.url === s.name)).toBe(true);
    expect(feed.sets().sort()).toEqual(names.sort());
  });

  it('serves linen.pbids without credentials, naming the address the tool reached and no key', async () => {
    const r = await h.get('/odata/linen.pbids', { auth: null });
    expect(r.status).toBe(200);
    const file = (await r.json()) as { connections: { details: { protocol: string; address: { url: string } } }[] };
    expect(file.connections).toEqual([
      { details: { protocol: 'odata', address: { url: h.root } }, options: {}, mode: 'Import' },
    ]);
  });

  it('types days, instants, money, counts and rates, nullable where the specification says so', () => {
    const prop = (set: string, name: string) => feed.model(set).properties.find((p) => p.name === name);
    expect(prop('Deliveries', 'date')).toMatchObject({ type: 'Date', nullable: false });
    expect(prop('Deliveries', 'delivered_count')).toMatchObject({ type: 'Int32', nullable: false });
    expect(prop('Deliveries', 'daily_par')).toMatchObject({ type: 'Int32', nullable: true });
    expect(prop('Deliveries', 'fill_rate')).toMatchObject({ type: 'Double', nullable: true });
    expect(prop('Deliveries', 'department_id')).toMatchObject({ type: 'String', nullable: true });
    expect(prop('Invoices', 'issued_at')).toMatchObject({ type: 'DateTimeOffset', nullable: false });
    expect(prop('Invoices', 'due_at')).toMatchObject({ type: 'DateTimeOffset', nullable: true });
    for (const money of ['subtotal', 'surcharges', 'tax', 'total', 'balance'])
      expect(prop('Invoices', money)).toMatchObject({ type: 'Decimal', nullable: false, scale: 2 });
    expect(feed.model('Invoices').properties.some((p) => p.name.endsWith('_cents'))).toBe(false);
    expect(prop('Manifests', 'amount')).toMatchObject({ type: 'Decimal', nullable: true });
    expect(prop('Balances', 'balance')).toMatchObject({ type: 'Decimal', scale: 2 });
    expect(prop('Balances', 'aging')).toMatchObject({ type: 'Aging', nullable: false });
    expect(prop('Signals', 'window_start')).toMatchObject({ type: 'Date' });
    expect(prop('NewLinen', 'date')).toMatchObject({ type: 'Date', nullable: true });
    expect(prop('Manifests', 'variance_pct')).toMatchObject({ type: 'Double', nullable: true });
  });

  it('gives every entity type a key: the API id, or a stable row_key made of the identifying fields', () => {
    for (const set of [...ISSUE_SETS, ...LINE_SETS]) expect(feed.model(set).key.length, set).toBe(1);
    expect(feed.model('Invoices').key).toEqual(['id']);
    expect(feed.model('Balances').key).toEqual(['customer_id']);
    expect(feed.model('Deliveries').key).toEqual(['row_key']);
    expect(feed.model('CartCounts').key).toEqual(['row_key']);
  });
});

describe('every entity set', () => {
  it.each([...ISSUE_SETS, ...LINE_SETS])(
    '%s: the first page has rows with exactly the declared properties',
    async (set) => {
      const rows = await feed.firstPage(set);
      expect(rows.length, set).toBeGreaterThan(0);
      const declared = feed
        .model(set)
        .properties.map((p) => p.name)
        .sort();
      for (const row of rows) expect(Object.keys(row).sort()).toEqual(declared);
      const keys = rows.map((r) => r[feed.model(set).key[0]!]);
      expect(new Set(keys).size, `${set} keys are unique`).toBe(keys.length);
    },
  );
});

describe('values and paging', () => {
  it("pages Invoices through next links, each page within the tool's odata.maxpagesize, and gives the API's rows in dollars", async () => {
    const direct = await api.invoices.list().all();
    const { rows, pages } = await feed.readAll('Invoices', { maxPageSize: 70 });
    expect(pages.length).toBe(Math.ceil(direct.length / 70));
    for (const p of pages) expect((p.value as unknown[]).length).toBeLessThanOrEqual(70);
    expect(rows.map((r) => r.id)).toEqual(direct.map((i) => i.id));
    for (const [i, inv] of direct.entries()) {
      expect(rows[i]!.total).toBe(dollars(inv.total_cents));
      expect(rows[i]!.balance).toBe(dollars(inv.balance_cents));
      expect(rows[i]!.issued_at).toBe(inv.issued_at);
      expect(rows[i]!.currency).toBe(inv.currency);
    }
    // The next links carry the query and an opaque position, never a key.
    const links = pages.map((p) => p['@odata.nextLink']).filter((l): l is string => typeof l === 'string');
    expect(links.length).toBe(pages.length - 1);
    assertNoLeaks(
      [DEMO_KEY],
      links.map((text) => ({ source: 'next link', text })),
    );
  });

  it('flattens a list inside the rows into its own set: one row per payment allocation, amounts summing to the payment', async () => {
    const payments = await api.payments.list({ customerId: mercyGeneral }).all();
    const { rows } = await feed.readAll('PaymentAllocations', { filter: `customer_id eq '${mercyGeneral}'` });
    expect(rows.length).toBe(payments.reduce((n, p) => n + p.allocations.length, 0));
    for (const p of payments) {
      const mine = rows.filter((r) => r.payment_id === p.id);
      const sum = mine.reduce((s, r) => s + Math.round((r.amount as number) * 100), 0);
      expect(sum).toBe(p.amount_cents);
    }
  });

  it('gives CartCounts one row per count line, with the count fields, and Deliveries the API default window without a date filter', async () => {
    const counts = await api.inventory.counts().all();
    const lines = await feed.readAll('CartCounts');
    expect(lines.rows.length).toBe(counts.reduce((n, c) => n + c.lines.length, 0));
    const deliveries = await feed.readAll('Deliveries', { select: ['date'] });
    const days = new Set(deliveries.rows.map((r) => r.date as string));
    expect([...days].sort()).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      TODAY,
    ]);
  });
});

describe('filters', () => {
  it("folds customer_id and status into the API's query and gives exactly the matching invoices", async () => {
    const direct = (await api.invoices.list({ customerId: mercyGeneral, status: 'paid' }).all()).map((i) => i.id);
    const before = h.apiUrls.length;
    const { rows } = await feed.readAll('Invoices', {
      filter: `customer_id eq '${mercyGeneral}' and status eq 'paid'`,
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).toEqual(direct);
    const sent = h.apiUrls.slice(before).filter((u) => u.pathname.endsWith('/invoices'));
    expect(sent.length).toBeGreaterThan(0);
    for (const u of sent) {
      expect(u.searchParams.get('customer_id')).toBe(mercyGeneral);
      expect(u.searchParams.get('status')).toBe('paid');
    }
  });

  it('folds or on one property into one listing per value, and applies what the API cannot do (amounts, text) itself', async () => {
    const all = await api.invoices.list().all();
    const before = h.apiUrls.length;
    const open = await feed.readAll('Invoices', {
      filter: "(status eq 'sent' or status eq 'partially_paid') and total ge 10000.5",
      select: ['id', 'status', 'total'],
    });
    expect(open.rows.map((r) => r.id)).toEqual(
      [...all.filter((i) => i.status === 'sent'), ...all.filter((i) => i.status === 'partially_paid')]
        .filter((i) => i.total_cents >= 1_000_050)
        .map((i) => i.id),
    );
    expect(open.rows.length).toBeGreaterThan(0);
    expect(Object.keys(open.rows[0]!).sort()).toEqual(['id', 'status', 'total']);
    const statuses = new Set(h.apiUrls.slice(before).map((u) => u.searchParams.get('status')));
    expect(statuses).toEqual(new Set(['sent', 'partially_paid']));

    const balances = await api.balance.list().all();
    const mercy = await feed.readAll('Balances', {
      filter: "startswith(customer_name,'Mercy') and aging/d61_plus gt 0",
    });
    expect(mercy.rows.length).toBeGreaterThan(0);
    expect(mercy.rows.map((r) => r.customer_id)).toEqual(
      balances.filter((b) => b.customer_name.startsWith('Mercy') && b.aging.d61_plus > 0).map((b) => b.customer_id),
    );
  });

  it("folds a window on an instant into the API's from/to, a day wider each side, and keeps exactly the instants asked for", async () => {
    const all = await api.invoices.list().all();
    const from = '2026-09-15T12:00:00Z';
    const to = '2026-10-15T00:00:00Z';
    const before = h.apiUrls.length;
    const { rows } = await feed.readAll('Invoices', { filter: `issued_at ge ${from} and issued_at lt ${to}` });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.id)).toEqual(
      all
        .filter((i) => Date.parse(i.issued_at) >= Date.parse(from) && Date.parse(i.issued_at) < Date.parse(to))
        .map((i) => i.id),
    );
    const sent = h.apiUrls.slice(before).filter((u) => u.pathname.endsWith('/invoices'));
    expect(sent.map((u) => [u.searchParams.get('from'), u.searchParams.get('to')])).toContainEqual([
      '2026-09-14',
      '2026-10-16',
    ]);
  });

  it('reads a Deliveries window of any length: 120 days in 92-day requests, the rows of exactly those days', async () => {
    const { rows } = await feed.readAll('Deliveries', {
      filter: `customer_id eq '${mercyGeneral}' and date ge 2026-07-09 and date le ${TODAY}`,
      select: ['date', 'customer_id'],
    });
    const direct = await api.deliveries.daily({ customerId: mercyGeneral, from: '2026-07-09', to: TODAY }).all();
    expect(rows.length).toBe(direct.length);
    expect(rows.every((r) => r.customer_id === mercyGeneral && (r.date as string) >= '2026-07-09')).toBe(true);
  });

  it('orders, counts, skips and tops: $orderby on two properties, $count=true, $skip and $top', async () => {
    const all = await api.invoices.list({ customerId: mercyGeneral }).all();
    const sorted = [...all].sort((a, b) => b.total_cents - a.total_cents || (a.id < b.id ? -1 : 1));
    const r = await h.get(
      `/odata/Invoices?$filter=${encodeURIComponent(`customer_id eq '${mercyGeneral}'`)}&$orderby=${encodeURIComponent('total desc,id')}&$count=true&$skip=3&$top=5&$select=id,total`,
    );
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      '@odata.count': number;
      value: { id: string; total: number }[];
      '@odata.context': string;
    };
    expect(body['@odata.context']).toBe('$metadata#Invoices(id,total)');
    expect(body['@odata.count']).toBe(all.length);
    expect(body.value.map((v) => v.id)).toEqual(sorted.slice(3, 8).map((i) => i.id));
    const count = await h.get(
      `/odata/Invoices/$count?$filter=${encodeURIComponent(`customer_id eq '${mercyGeneral}'`)}`,
    );
    expect(await count.text()).toBe(String(all.length));
  });

  it('answers JSON with OData-Version 4.0, the minimal metadata media type and Preference-Applied', async () => {
    const r = await h.get('/odata/Customers', { headers: { prefer: 'odata.maxpagesize=2' } });
    expect(r.headers.get('odata-version')).toBe('4.0');
    expect(r.headers.get('content-type')).toMatch(/^application\/json;odata\.metadata=minimal/);
    expect(r.headers.get('preference-applied')).toBe('odata.maxpagesize=2');
    const body = (await r.json()) as { '@odata.context': string; value: unknown[]; '@odata.nextLink': string };
    expect(body['@odata.context']).toBe('$metadata#Customers');
    expect(body.value.length).toBe(2);
    expect(body['@odata.nextLink']).toMatch(/^Customers\?\$skiptoken=/);
    const ieee = await h.get('/odata/Balances?$top=1', {
      headers: { accept: 'application/json;odata.metadata=minimal;IEEE754Compatible=true' },
    });
    const row = ((await ieee.json()) as { value: { balance: unknown; aging: { current: unknown } }[] }).value[0]!;
    expect(typeof row.balance).toBe('string');
    expect(typeof row.aging.current).toBe('string');
  });
});
