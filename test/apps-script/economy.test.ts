/**
 * A recalculation of many cells costs a handful of requests: one listing per customer and window, cached in
 * CacheService and fetched by one execution while simultaneous ones wait on the document lock.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROP_GENERATION } from '../../apps-script/src/gas.ts';
import type { SandboxData } from '../../sandbox/index.ts';
import { coldCache, type Harness, KEYS, startHarness, TZ } from '../support/apps-script-harness.ts';
import { remoteBacking, type StoreWorker, startStoreWorker } from '../support/apps-script-store.ts';
import { runSimultaneously } from '../support/apps-script-workers.ts';
import { apiRequest, benchmarkGrid, benchmarkRequests } from '../support/fill-rate-grid.ts';

let h: Harness;
let d: SandboxData;
let store: StoreWorker;
const FROM = '2026-10-01';
const TO = '2026-10-31';

beforeAll(async () => {
  h = await startHarness();
  d = h.sb.data;
  store = await startStoreWorker();
});
afterAll(async () => {
  await store?.close();
  await h?.close();
});

/**
 * A 100-cell grid: the month's fill rate by department and item, by department, by item, and in total, with the
 * customer, departments and items written by name or, as a sheet built from the API's ids would, by id. Some
 * items reach only some departments, so some cells name an item their department never received.
 */
function grid(by: 'name' | 'id' = 'name'): [string, unknown[]][] {
  const mercy = d.customers.find((c) => c.name === 'Mercy General Hospital')!;
  const rows = d.daily_deliveries.filter((r) => r.customer_id === mercy.id && r.date >= FROM && r.date <= TO);
  const items = [...new Map(rows.map((r) => [r.item_id, r.item_name])).entries()];
  const depts = [['', ''], ...mercy.departments.map((x) => [x.id, x.name])];
  const pick = ([id, name]: readonly string[]) => (by === 'id' ? id : name);
  const cells: [string, unknown[]][] = [];
  for (let i = 0; cells.length < 100; i++) {
    cells.push([
      'LINEN_FILLRATE',
      [
        by === 'id' ? mercy.id : mercy.name,
        FROM,
        TO,
        pick(depts[i % depts.length]!),
        i % 3 === 0 ? '' : pick(items[i % items.length]!),
      ],
    ]);
  }
  return cells;
}

function pagesNeeded(): number {
  const mercy = d.customers.find((c) => c.name === 'Mercy General Hospital')!;
  const rows = d.daily_deliveries.filter((r) => r.customer_id === mercy.id && r.date >= FROM && r.date <= TO).length;
  return Math.ceil(rows / 200);
}

describe('a hundred-cell fill-rate grid', () => {
  let sequential: unknown[];

  it('costs the pages of deliveries and the customers list when the cells run one after another', () => {
    coldCache(h);
    h.takeFetches();
    sequential = grid().map(([name, args]) => h.cell(name, ...args).value);
    const fetches = h.takeFetches();
    expect(pagesNeeded()).toBeGreaterThan(1);
    expect(fetches.filter((f) => f.url.includes('/deliveries/daily')).length).toBe(pagesNeeded());
    expect(fetches.length).toBe(pagesNeeded() + 1);
    expect(fetches.filter((f) => f.url.includes('/items')).length).toBe(0);
    expect(sequential.filter((v) => typeof v === 'number').length).toBeGreaterThan(50);
    expect(sequential.filter((v) => v === '').length).toBeGreaterThan(0);
    for (const v of sequential) expect(typeof v === 'number' || v === '').toBe(true);
  });

  it('written with ids, costs the pages of deliveries alone and gives the same answers', () => {
    coldCache(h);
    h.takeFetches();
    const byId = grid('id').map(([name, args]) => h.cell(name, ...args).value);
    const fetches = h.takeFetches();
    expect(fetches.length).toBe(pagesNeeded());
    expect(fetches.every((f) => f.url.includes('/deliveries/daily'))).toBe(true);
    expect(byId).toEqual(sequential);
  });

  it('costs the same when four threads of 25 executions start at once', async () => {
    const setup = remoteBacking(await store.connect());
    setup.propsSet('user:owner@example.com', 'LINEN_API_KEY', KEYS.all);
    setup.propsSet('doc:sheet-1', 'LINEN_BASE_URL', h.sb.baseUrl);
    for (const by of ['name', 'id'] as const) {
      // A new cache generation: each sheet starts cold.
      setup.propsSet('doc:sheet-1', PROP_GENERATION, by);
      const cells = grid(by);
      const outcomes = await runSimultaneously({
        dir: h.dir,
        timeZone: TZ,
        store,
        cells: [0, 1, 2, 3].map((w) => cells.filter((_, i) => i % 4 === w)),
      });
      const fetches = outcomes.flatMap((o) => o.fetches);
      expect(fetches.length).toBe(pagesNeeded() + (by === 'name' ? 1 : 0));
      // Every cell has the answer it had when the cells ran one after another.
      const values = cells.map((_, i) => outcomes[i % 4]!.results[Math.floor(i / 4)]!);
      expect(values.map((r) => r.value)).toEqual(sequential);
    }
  });
});

describe("the benchmark's hundred cells (bench/sheets.ts and bench/excel.ts)", () => {
  it("cost the same requests as in Excel, the pages of October's deliveries (after the customers list by name), run as the benchmark runs them", async () => {
    const setup = remoteBacking(await store.connect());
    setup.propsSet('user:owner@example.com', 'LINEN_API_KEY', KEYS.all);
    setup.propsSet('doc:sheet-1', 'LINEN_BASE_URL', h.sb.baseUrl);
    const grid = benchmarkGrid(d);
    expect(grid.pages).toBe(6);
    for (const written of ['byId', 'byName'] as const) {
      setup.propsSet('doc:sheet-1', PROP_GENERATION, `benchmark-${written}`);
      const cells = grid[written].map((args): [string, unknown[]] => ['LINEN_FILLRATE', args]);
      expect(cells).toHaveLength(100);
      const outcomes = await runSimultaneously({
        dir: h.dir,
        timeZone: TZ,
        store,
        cells: [0, 1, 2, 3].map((w) => cells.filter((_, i) => i % 4 === w)),
      });
      const results = outcomes.flatMap((o) => o.results);
      expect(results.every((r) => r.error === undefined && (typeof r.value === 'number' || r.value === ''))).toBe(true);
      // Listed execution by execution, so compared regardless of order (a cursor's value elided).
      const fetches = outcomes.flatMap((o) => o.fetches);
      expect(fetches.map((f) => apiRequest(f.url)).sort()).toEqual(benchmarkRequests(d, written).sort());
      expect(fetches.length).toBe(written === 'byId' ? 6 : 7);
    }
  });
});

describe('the cache', () => {
  it('splits a listing over 100 KB into chunks CacheService accepts, and serves it back whole', () => {
    coldCache(h);
    h.takeFetches();
    const before = h.backing.cacheSize('doc:sheet-1');
    const first = h.cell('LINEN_DELIVERIES', 'Mercy General Hospital', '2026-08-01', TO);
    const fetched = h.takeFetches().length;
    expect(fetched).toBeGreaterThan(10);
    expect(h.backing.cacheSize('doc:sheet-1') - before).toBeGreaterThanOrEqual(3);
    const again = h.cell('LINEN_DELIVERIES', 'Mercy General Hospital', '2026-08-01', TO);
    expect(h.takeFetches().length).toBe(0);
    expect(again).toEqual(first);
    expect((again.value as unknown[]).length).toBeGreaterThan(2000);
  });

  it('keys the cache by API key: another key fetches its own data', () => {
    h.cell('LINEN_CUSTOMERS');
    h.takeFetches();
    h.setKey(KEYS.hotel);
    const r = h.cell('LINEN_CUSTOMERS');
    expect((r.value as unknown[][]).map((x) => x[1])).toEqual(['Name', 'Harborview Hotel']);
    expect(h.takeFetches().length).toBe(1);
    h.setKey(KEYS.all);
  });

  it('"Refresh data" fetches what the formulas need under a new generation, then rewrites every LINEN_ formula', () => {
    h.world.sheets = [
      {
        name: 'Grid',
        formulas: [
          ['=LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31")', '=A1*2'],
          ['', '=linen_balance()'],
        ],
      },
    ];
    h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO);
    h.takeFetches();
    expect(h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO).value).toBeTypeOf('number');
    expect(h.takeFetches().length).toBe(0);
    const refreshed = h.menu('linenRefreshData');
    expect(refreshed.value).toBe(2);
    // Fresh pages for both formulas: the customers, the month's deliveries and the balances.
    expect(h.takeFetches().length).toBe(pagesNeeded() + 2);
    const writes = h.world.formulaWrites.splice(0);
    expect(writes.map((w) => `${w.row},${w.column}:${w.formula}`)).toEqual([
      '1,1:',
      '2,2:',
      '1,1:=LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31")',
      '2,2:=linen_balance()',
    ]);
    expect(h.world.ui.some((u) => u.kind === 'flush')).toBe(true);
    // The rewritten cells read the warm cache.
    h.cell('LINEN_FILLRATE', 'Mercy General Hospital', FROM, TO);
    h.cell('LINEN_BALANCE');
    expect(h.takeFetches().length).toBe(0);
  });

  it('keeps the pacing state in the script cache, per key, so executions draw from one 120-a-minute budget', () => {
    coldCache(h);
    h.takeFetches();
    h.cell('LINEN_CUSTOMERS');
    h.cell('LINEN_UNITS');
    const sent = h.takeFetches().length;
    const name = `linen:pace:${createHash('sha256').update(KEYS.all).digest('hex')}`;
    const state = JSON.parse(h.backing.cacheGet('script', [name])[name]!) as { sent: number[] };
    expect(state.sent.length).toBeGreaterThanOrEqual(sent);
  });
});
