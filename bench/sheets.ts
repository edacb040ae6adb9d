/**
 * Sheets recalculation against the baseline: a sheet of LINEN_FILLRATE cells and the same sheet written with
 * the IMPORTJSON-style NAIVE_FILLRATE (bench/naive-fillrate.ts), each recalculated three times in a row within
 * one rate-limit minute (opened, edited, refreshed), as Sheets runs them: every cell a fresh execution of the
 * built Code.js, four executions at once sharing the document's cache and lock, against a sandbox enforcing the
 * real 120 requests a minute. Each side gets its own sandbox, so each starts with a full minute's allowance.
 *
 * The product's cells take the baseline's own arguments (the customer's, departments' and items' ids), so both
 * sides are given the same sheet; the same cells written by name are measured too, as the product's second
 * figure (a name costs the customers list once; the baseline cannot take names at all).
 *
 * - 100 cells: the benchmark's hundred (test/support/fill-rate-grid.ts), the very cells bench/excel.ts measures in
 *   Excel: Mercy General Hospital, October, 10 items x 10 department columns (all departments and the customer's
 *   six, repeating).
 * - 1,000 cells: the same grid for five customers and two months (September and October).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAppsScript } from '../scripts/build-apps-script.ts';
import { remoteBacking, startStoreWorker } from '../test/support/apps-script-store.ts';
import { runSimultaneously, type WorkerOutcome } from '../test/support/apps-script-workers.ts';
import { benchmarkGrid, type FillRateGrid, fillRateGrid, MONTHS } from '../test/support/fill-rate-grid.ts';
import { startWorkerSandbox } from '../test/support/worker-sandbox.ts';
import { NAIVE_FILLRATE_FILE, NAIVE_FILLRATE_SOURCE } from './naive-fillrate.ts';
import { Results, ratioOf, round } from './results.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const THREADS = 4;

type Cell = [string, unknown[]];

interface Sheet {
  /** The product's cells with the baseline's own arguments (ids), and the same cells written by name. */
  product: Cell[];
  byName: Cell[];
  naive: Cell[];
  /** Pages of GET /deliveries/daily at 200 a page that the sheet's customer-months need. */
  pages: number;
}

/** The cells of `grids` as Sheets formulas: the product's with ids and by name, and the baseline's. */
function sheetOf(grids: FillRateGrid[]): Sheet {
  const cells = (name: string, rows: string[][]) => rows.map((args): Cell => [name, args]);
  return {
    product: grids.flatMap((g) => cells('LINEN_FILLRATE', g.byId)),
    byName: grids.flatMap((g) => cells('LINEN_FILLRATE', g.byName)),
    naive: grids.flatMap((g) => cells('NAIVE_FILLRATE', g.byId)),
    pages: grids.reduce((n, g) => n + g.pages, 0),
  };
}

interface Recalculation {
  requests: number;
  answered429: number;
  errorCells: number;
  ms: number;
}

/** Three recalculations of `cells` against a fresh sandbox at the real limit. */
async function threeRecalculations(dir: string, cells: Cell[], files: string[]): Promise<Recalculation[]> {
  const sb = await startWorkerSandbox({ today: TODAY, timeZone: TZ, rateLimit: { limit: 120, windowMs: 60_000 } });
  const store = await startStoreWorker();
  try {
    const setup = remoteBacking(await store.connect());
    setup.propsSet('user:owner@example.com', 'LINEN_API_KEY', KEY);
    setup.propsSet('doc:sheet-1', 'LINEN_BASE_URL', sb.baseUrl);
    const split = Array.from({ length: THREADS }, (_, w) => cells.filter((_, i) => i % THREADS === w));
    const runs: Recalculation[] = [];
    for (let i = 0; i < 3; i++) {
      const outcomes: WorkerOutcome[] = await runSimultaneously({ dir, timeZone: TZ, store, cells: split, files });
      const ms = Math.max(...outcomes.map((o) => o.ms));
      const fetches = outcomes.flatMap((o) => o.fetches);
      const results = outcomes.flatMap((o) => o.results);
      runs.push({
        requests: fetches.length,
        answered429: fetches.filter((f) => f.status === 429).length,
        errorCells: results.filter((r) => r.error !== undefined || (typeof r.value === 'string' && /^#/.test(r.value)))
          .length,
        ms,
      });
    }
    return runs;
  } finally {
    await store.close();
    await sb.close();
  }
}

const sum = (runs: Recalculation[], k: keyof Recalculation) => runs.reduce((s, r) => s + r[k], 0);

export async function benchSheets(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linen-gas-bench-'));
  try {
    await buildAppsScript({ outDir: dir, quiet: true });
    writeFileSync(join(dir, NAIVE_FILLRATE_FILE), NAIVE_FILLRATE_SOURCE);
    const files = ['Code.js', NAIVE_FILLRATE_FILE];
    const probe = await startWorkerSandbox({ today: TODAY, timeZone: TZ });
    const data = probe.data;
    await probe.close();

    const sizes = [
      { n: 100, sheet: sheetOf([benchmarkGrid(data)]) },
      ...(options.quick
        ? []
        : [
            {
              n: 1000,
              sheet: sheetOf(
                data.customers
                  .filter((c) => c.departments.length > 0)
                  .map((c) => fillRateGrid(data, c.name, MONTHS, 200)),
              ),
            },
          ]),
    ];
    for (const { n, sheet } of sizes) {
      const product = await threeRecalculations(dir, sheet.product, files);
      const byName = await threeRecalculations(dir, sheet.byName, files);
      const naive = await threeRecalculations(dir, sheet.naive, files);
      const [p1] = product;
      const [n1] = naive;
      const pages = sheet.pages;
      const first = ratioOf(n1!.requests, p1!.requests, 1);
      results.add({
        id: `sheets.requests.${n}`,
        label: `Sheets: ${n} fill-rate cells (${n === 100 ? 'one customer, October: the cells the Excel rows measure' : 'five customers, two months'}) with the baseline's arguments (ids), API requests, first recalculation (${pages} pages of deliveries)`,
        value: p1!.requests,
        unit: 'requests',
        baseline: n1!.requests,
        ratio: first,
        target: `<= ${pages + 2} (pages + 2)`,
        met: p1!.requests <= pages + 2,
      });
      results.add({
        id: `sheets.naive_requests.${n}`,
        label: `Sheets: ${n} cells with the IMPORTJSON-style baseline, API requests, first recalculation; ratio to the product`,
        value: n1!.requests,
        unit: 'requests',
        baseline: p1!.requests,
        ratio: first,
        target: 'ratio >= 15',
        met: first !== null && first >= 15,
      });
      const all = ratioOf(sum(naive, 'requests'), sum(product, 'requests'), 1);
      results.add({
        id: `sheets.requests.${n}x3`,
        label: `Sheets: ${n} cells, API requests over three recalculations in one minute (cold, warm, warm)`,
        value: sum(product, 'requests'),
        unit: 'requests',
        baseline: sum(naive, 'requests'),
        ratio: all,
        target: `<= ${pages + 2} (pages + 2, then 0 warm)`,
        met: sum(product, 'requests') <= pages + 2,
      });
      results.add({
        id: `sheets.naive_requests.${n}x3`,
        label: `Sheets: ${n} cells with the baseline, API requests over the three recalculations; ratio to the product`,
        value: sum(naive, 'requests'),
        unit: 'requests',
        baseline: sum(product, 'requests'),
        ratio: all,
        target: 'ratio >= 50',
        met: all !== null && all >= 50,
      });
      const named = ratioOf(n1!.requests, byName[0]!.requests, 1);
      results.add({
        id: `sheets.by_name.requests.${n}`,
        label: `Sheets: the same ${n} cells written by name (customer, department, item), API requests, first recalculation; the names cost the customers list, which the baseline cannot read; ratio: the baseline over it`,
        value: byName[0]!.requests,
        unit: 'requests',
        baseline: n1!.requests,
        ratio: named,
        target: `<= ${pages + 2} (pages + 2)`,
        met: byName[0]!.requests <= pages + 2,
      });
      const namedAll = ratioOf(sum(naive, 'requests'), sum(byName, 'requests'), 1);
      results.add({
        id: `sheets.by_name.requests.${n}x3`,
        label: `Sheets: the same ${n} cells written by name, API requests over the three recalculations; ratio: the baseline over it`,
        value: sum(byName, 'requests'),
        unit: 'requests',
        baseline: sum(naive, 'requests'),
        ratio: namedAll,
        target: `<= ${pages + 2} (pages + 2, then 0 warm)`,
        met: sum(byName, 'requests') <= pages + 2,
      });
      results.add({
        id: `sheets.429s.${n}`,
        label: `Sheets: ${n} cells, by id and by name, requests answered 429 over the three recalculations`,
        value: sum(product, 'answered429') + sum(byName, 'answered429'),
        unit: 'requests',
        baseline: sum(naive, 'answered429'),
        target: '0',
        met: sum(product, 'answered429') + sum(byName, 'answered429') === 0,
      });
      results.add({
        id: `sheets.error_cells.${n}x3`,
        label: `Sheets: ${n} cells, by id and by name, cells showing an error over the three recalculations`,
        value: sum(product, 'errorCells') + sum(byName, 'errorCells'),
        unit: 'cells',
        baseline: sum(naive, 'errorCells'),
        target: '0',
        met: sum(product, 'errorCells') + sum(byName, 'errorCells') === 0,
      });
      results.add({
        id: `sheets.naive_error_cells.${n}x3`,
        label: `Sheets: ${n} cells with the baseline, cells showing an error over the three recalculations`,
        value: sum(naive, 'errorCells'),
        unit: 'cells',
      });
      for (const [i, name] of ['cold', 'warm'].entries()) {
        results.add({
          id: `sheets.recalc_ms.${n}.${name}`,
          label: `Sheets: ${n} cells, time of the ${name === 'cold' ? 'first' : 'second'} recalculation (${THREADS} executions at once, thread start excluded)`,
          value: round(product[i]!.ms, 0),
          unit: 'ms',
          baseline: round(naive[i]!.ms, 0),
          ratio: ratioOf(product[i]!.ms, naive[i]!.ms),
        });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchSheets(new Results(), { quick: process.argv.includes('--quick') });
  process.exit(0);
}
