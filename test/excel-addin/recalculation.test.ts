/**
 * What Excel does to the functions and what they cost: Excel runs every LINEN. cell of a sheet at once in the one
 * runtime, and again on edits and full recalculations. The benchmark's hundred cells (one customer, October) cost
 * exactly the requests they cost in Sheets (test/apps-script/economy.test.ts pins the same list); a hundred cells
 * over one customer and two months cost the pages of the two months' deliveries (plus the customers list when
 * written by name), then nothing while their answers are kept; against the sandbox at the real 120 requests a
 * minute, none is answered 429. A cell Excel cancels aborts its request when no other cell waits for it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExcelHarness, startExcelHarness, startExcelService, TZ } from '../support/excel-harness.ts';
import { loadExcelRuntime } from '../support/excel-runtime.ts';
import { apiRequest, benchmarkGrid, benchmarkRequests, fillRateGrid } from '../support/fill-rate-grid.ts';
import { startGatedApi } from '../support/gated-api.ts';

let h: ExcelHarness;
beforeAll(async () => {
  h = await startExcelHarness({ rateLimit: { limit: 120, windowMs: 60_000 } });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

describe("the benchmark's hundred cells (bench/excel.ts and bench/sheets.ts)", () => {
  for (const written of ['byId', 'byName'] as const) {
    it(`${written === 'byId' ? 'with ids' : 'by name'}: the same ${written === 'byId' ? 6 : 7} requests as in Sheets, the pages of October's deliveries${written === 'byName' ? ' after the customers list' : ''}`, async () => {
      const grid = benchmarkGrid(h.sandbox.data);
      expect(grid[written]).toHaveLength(100);
      expect(grid.pages).toBe(6);
      const rt = h.runtime();
      const before = h.sandbox.requests.count;
      const results = await Promise.all(grid[written].map((args) => rt.call('FILLRATE', ...args)));
      expect(results.every((r) => 'value' in r)).toBe(true);
      // What the cells asked the relay for, and what the relay sent on: one request each.
      expect(rt.fetches.map((f) => apiRequest(f.url))).toEqual(benchmarkRequests(h.sandbox.data, written));
      expect(h.sandbox.requests.count - before).toBe(written === 'byId' ? 6 : 7);
    });
  }
});

describe('a hundred fill-rate cells over one customer and two months', () => {
  for (const written of ['byId', 'byName'] as const) {
    it(`${written === 'byId' ? 'with ids' : 'by name'}: the pages of the two windows${written === 'byName' ? ' and the customers list' : ''}, then 0 requests on two more recalculations`, async () => {
      const grid = fillRateGrid(h.sandbox.data, 'Mercy General Hospital');
      const cells = grid[written];
      expect(cells).toHaveLength(100);
      const rt = h.runtime();
      const counts: number[] = [];
      const values: unknown[][] = [];
      for (let recalculation = 0; recalculation < 3; recalculation++) {
        const before = h.sandbox.requests.count;
        const results = await Promise.all(cells.map((args) => rt.call('FILLRATE', ...args)));
        counts.push(h.sandbox.requests.count - before);
        values.push(results.map((r) => ('value' in r ? r.value : r.error)));
      }
      expect(grid.pages).toBeGreaterThanOrEqual(4);
      expect(counts).toEqual([grid.pages + (written === 'byName' ? 1 : 0), 0, 0]);
      expect(values[0]!.every((v) => typeof v === 'number' || v === '')).toBe(true);
      expect(values[1]).toEqual(values[0]);
      expect(values[2]).toEqual(values[0]);
      expect(rt.fetches.filter((f) => f.status === 429)).toEqual([]);
    });
  }

  it('the same cells by name and with ids show the same values', async () => {
    const grid = fillRateGrid(h.sandbox.data, 'Mercy General Hospital');
    const rt = h.runtime();
    const byId = await Promise.all(grid.byId.map((args) => rt.call('FILLRATE', ...args)));
    const byName = await Promise.all(grid.byName.map((args) => rt.call('FILLRATE', ...args)));
    expect(byName).toEqual(byId);
  });
});

describe('cancelled calls', () => {
  it('abort their request when no other cell waits on it; a request another cell waits on goes on', async () => {
    const gate = await startGatedApi(h.sandbox.baseUrl);
    const service = await startExcelService(h.dir, gate.baseUrl);
    try {
      const rt = loadExcelRuntime({
        dir: h.dir,
        origin: service.origin,
        storage: { LINEN_API_KEY: 'lk_live_demo_all_access', LINEN_TIMEZONE: TZ },
      });
      const mercy = h.sandbox.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
      const september = rt.invoke('FILLRATE', mercy.id, '2026-09-01', '2026-09-30', null, null, null);
      const october = rt.invoke('FILLRATE', mercy.id, '2026-10-01', '2026-10-31', null, null, null);
      const octoberIcu = rt.invoke('FILLRATE', mercy.id, '2026-10-01', '2026-10-31', 'ICU', null, null);
      // Two requests reach the API, one a window: the two October cells share theirs.
      await gate.until(() => gate.held.length === 2, 'a request for each window');
      const heldFor = (month: string) => gate.held.find((r) => r.path.includes(`from=${month}`))!;
      september.cancel();
      october.cancel();
      await gate.until(() => heldFor('2026-09-01').closedEarly, "September's request cancelled");
      expect(rt.fetches.find((f) => f.url.includes('from=2026-09-01'))).toMatchObject({ aborted: true });
      gate.open();
      const icu = await octoberIcu.result;
      expect('value' in icu && typeof icu.value === 'number').toBe(true);
      expect(heldFor('2026-10-01')).toMatchObject({ closedEarly: false, answered: true });
      // The cancelled cells end at once (Excel ignores what a cancelled call answers).
      await Promise.all([september.result, october.result]);
      // A cancelled walk is not kept: the next cell asking for September fetches it.
      const again = await rt.call('FILLRATE', mercy.id, '2026-09-01', '2026-09-30');
      expect(again).toEqual({ value: expect.any(Number) });
    } finally {
      await service.close();
      await gate.close();
    }
  }, 60_000);
});
