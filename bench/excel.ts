/**
 * Excel recalculation against the same naive baseline as Sheets: a sheet of LINEN.FILLRATE cells and the same
 * sheet written with an IMPORTJSON-style NAIVE_FILLRATE, each recalculated three times in a row within one
 * rate-limit minute (opened, edited, recalculated in full), as Excel runs them: every cell of the sheet at once in
 * the one runtime (the built runtime page's scripts in a vm, test/support/excel-runtime.ts), through the service's
 * relay, against a sandbox enforcing the real 120 requests a minute. Each side gets its own sandbox, so each starts
 * with a full minute's allowance.
 *
 * The naive cell asks GET /deliveries/daily with the API's own filters (customer_id, department_id, item_id, from,
 * to) at the largest page size, follows the cursor, keeps nothing, and shows an HTTP error (a 429 included) in its
 * cell. It calls the API's origin directly, as if the API allowed CORS (it does not: a real one would need a proxy
 * of its own), so the baseline is the most it could be.
 *
 * 100 cells: the benchmark's hundred (test/support/fill-rate-grid.ts), the very cells bench/sheets.ts measures in
 * Sheets: Mercy General Hospital, October, 10 items x 10 department columns (all departments and the customer's
 * six, repeating), written with ids (the baseline's own arguments) and by name. When Sheets was measured in the same
 * run, Excel's first recalculation is set against Sheets' for the same cells.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { startSandbox } from '../sandbox/index.ts';
import { buildExcelAddin } from '../scripts/build-excel-addin.ts';
import { DEMO_KEY, startExcelService, TODAY, TZ } from '../test/support/excel-harness.ts';
import { type ExcelRuntime, loadExcelRuntime } from '../test/support/excel-runtime.ts';
import { benchmarkGrid } from '../test/support/fill-rate-grid.ts';
import { startRecordingProxy } from '../test/support/recording-proxy.ts';
import { Results, ratioOf, round } from './results.ts';

/** The baseline, loaded into the same runtime as the add-in (`API` and `naiveFetch` set beside it). */
export const NAIVE_FILLRATE_SOURCE = `
async function NAIVE_FILLRATE(customerId, from, to, departmentId, itemId) {
  var key = await OfficeRuntime.storage.getItem('LINEN_API_KEY');
  var query = ['customer_id=' + encodeURIComponent(customerId), 'from=' + from, 'to=' + to, 'limit=200'];
  if (departmentId) query.push('department_id=' + encodeURIComponent(departmentId));
  if (itemId) query.push('item_id=' + encodeURIComponent(itemId));
  var delivered = 0, par = 0, cursor = null;
  do {
    var url = API + '/deliveries/daily?' + query.join('&') + (cursor ? '&cursor=' + encodeURIComponent(cursor) : '');
    var res = await naiveFetch(url, { headers: { Authorization: 'Bearer ' + key } });
    if (!res.ok) throw new CustomFunctions.Error(CustomFunctions.ErrorCode.notAvailable, 'HTTP ' + res.status);
    var body = await res.json();
    body.data.forEach(function (row) {
      if (row.daily_par) { delivered += row.delivered_count; par += row.daily_par; }
    });
    cursor = body.pagination && body.pagination.has_more ? body.pagination.cursor : null;
  } while (cursor);
  return par ? Math.round((delivered / par) * 1000) / 1000 : '';
}`;

interface Recalculation {
  requests: number;
  answered429: number;
  errorCells: number;
  ms: number;
}

type Side = 'product' | 'byName' | 'naive';

/** Three recalculations of the sheet, each every cell at once, against a fresh sandbox at the real limit. */
async function threeRecalculations(dir: string, side: Side): Promise<{ runs: Recalculation[]; pages: number }> {
  const sandbox = await startSandbox({
    port: 0,
    today: TODAY,
    timeZone: TZ,
    rateLimit: { limit: 120, windowMs: 60_000 },
  });
  const proxy = await startRecordingProxy(sandbox.baseUrl);
  const service = await startExcelService(dir, proxy.baseUrl);
  try {
    const grid = benchmarkGrid(sandbox.data);
    const cells = side === 'byName' ? grid.byName : grid.byId;
    const rt: ExcelRuntime = loadExcelRuntime({
      dir,
      origin: service.origin,
      storage: { LINEN_API_KEY: DEMO_KEY, LINEN_TIMEZONE: TZ },
    });
    Object.assign(rt.context, { API: proxy.baseUrl, naiveFetch: fetch });
    vm.runInContext(NAIVE_FILLRATE_SOURCE, rt.context);
    const naive = rt.context.NAIVE_FILLRATE as (...a: unknown[]) => Promise<unknown>;
    const runs: Recalculation[] = [];
    for (let i = 0; i < 3; i++) {
      const before = proxy.answers.length;
      const started = performance.now();
      const results = await Promise.all(
        cells.map((args) =>
          side === 'naive'
            ? naive(...args).then(
                () => true,
                () => false,
              )
            : rt.call('FILLRATE', ...args).then((r) => 'value' in r),
        ),
      );
      const ms = performance.now() - started;
      const answers = proxy.answers.slice(before);
      runs.push({
        requests: answers.length,
        answered429: answers.filter((a) => a.status === 429).length,
        errorCells: results.filter((ok) => !ok).length,
        ms,
      });
    }
    return { runs, pages: grid.pages };
  } finally {
    await service.close();
    await proxy.close();
    await sandbox.close();
  }
}

const sum = (runs: Recalculation[], k: keyof Recalculation) => runs.reduce((s, r) => s + r[k], 0);

/**
 * Excel's first recalculation of the benchmark's cells against Sheets' for the same cells (`sheets.<figure>.100`),
 * when Sheets was measured earlier in the same run (`npm run bench`, or `--only=sheets,excel`); else nothing.
 */
function againstSheets(results: Results, figure: 'requests' | 'by_name.requests', excel: number): void {
  const sheets = results.figures.find((f) => f.id === `sheets.${figure}.100`)?.value;
  if (typeof sheets !== 'number') return;
  const written = figure === 'requests' ? 'with ids' : 'by name';
  results.add({
    id: `excel.${figure}_vs_sheets.100`,
    label: `Excel: the same 100 cells as Sheets, ${written}, API requests, first recalculation; baseline: Sheets' for the same cells in this run (\`sheets.${figure}.100\`)`,
    value: excel,
    unit: 'requests',
    baseline: sheets,
    ratio: ratioOf(excel, sheets),
    target: "<= Sheets'",
    met: excel <= sheets,
  });
}

export async function benchExcel(results: Results): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linen-excel-bench-'));
  try {
    await buildExcelAddin({ outDir: dir, quiet: true });
    const { runs: product, pages } = await threeRecalculations(dir, 'product');
    const { runs: byName } = await threeRecalculations(dir, 'byName');
    const { runs: naive } = await threeRecalculations(dir, 'naive');
    const [p1] = product;
    const [n1] = naive;
    const first = ratioOf(n1!.requests, p1!.requests, 1);
    const target = `<= ${pages + 2} (pages + 2)`;
    results.add({
      id: 'excel.requests.100',
      label: `Excel: 100 fill-rate cells (one customer, October: the cells the Sheets rows measure) with the baseline's arguments (ids), API requests, first recalculation, every cell at once (${pages} pages of deliveries at 200 a page)`,
      value: p1!.requests,
      unit: 'requests',
      baseline: n1!.requests,
      ratio: first,
      target,
      met: p1!.requests <= pages + 2,
    });
    results.add({
      id: 'excel.naive_requests.100',
      label:
        'Excel: the same 100 cells with the IMPORTJSON-style baseline (one walk a cell, the API called directly), API requests, first recalculation; ratio to the product',
      value: n1!.requests,
      unit: 'requests',
      baseline: p1!.requests,
      ratio: first,
    });
    const all = ratioOf(sum(naive, 'requests'), sum(product, 'requests'), 1);
    results.add({
      id: 'excel.requests.100x3',
      label:
        'Excel: 100 cells, API requests over three recalculations in one minute (cold, then two full recalculations)',
      value: sum(product, 'requests'),
      unit: 'requests',
      baseline: sum(naive, 'requests'),
      ratio: all,
      target: `<= ${pages + 2} (pages + 2, then 0 warm)`,
      met: sum(product, 'requests') <= pages + 2 && product[1]!.requests === 0 && product[2]!.requests === 0,
    });
    results.add({
      id: 'excel.naive_requests.100x3',
      label: 'Excel: 100 cells with the baseline, API requests over the three recalculations; ratio to the product',
      value: sum(naive, 'requests'),
      unit: 'requests',
      baseline: sum(product, 'requests'),
      ratio: all,
    });
    results.add({
      id: 'excel.by_name.requests.100',
      label:
        'Excel: the same 100 cells written by name (customer, department, item), API requests, first recalculation; the names cost the customers list, which the baseline cannot read',
      value: byName[0]!.requests,
      unit: 'requests',
      baseline: n1!.requests,
      ratio: ratioOf(n1!.requests, byName[0]!.requests, 1),
      target,
      met: byName[0]!.requests <= pages + 2,
    });
    results.add({
      id: 'excel.by_name.requests.100x3',
      label:
        'Excel: the same 100 cells written by name (customer, department, item), API requests over the three recalculations; the names cost the customers list',
      value: sum(byName, 'requests'),
      unit: 'requests',
      baseline: sum(naive, 'requests'),
      ratio: ratioOf(sum(naive, 'requests'), sum(byName, 'requests'), 1),
      target: `<= ${pages + 2} (pages + 2, then 0 warm)`,
      met: sum(byName, 'requests') <= pages + 2,
    });
    againstSheets(results, 'requests', p1!.requests);
    againstSheets(results, 'by_name.requests', byName[0]!.requests);
    results.add({
      id: 'excel.429s.100',
      label: 'Excel: 100 cells, by id and by name, requests answered 429 over the three recalculations',
      value: sum(product, 'answered429') + sum(byName, 'answered429'),
      unit: 'requests',
      baseline: sum(naive, 'answered429'),
      target: '0',
      met: sum(product, 'answered429') + sum(byName, 'answered429') === 0,
    });
    results.add({
      id: 'excel.error_cells.100x3',
      label: 'Excel: 100 cells, by id and by name, cells showing an error over the three recalculations',
      value: sum(product, 'errorCells') + sum(byName, 'errorCells'),
      unit: 'cells',
      baseline: sum(naive, 'errorCells'),
      target: '0',
      met: sum(product, 'errorCells') + sum(byName, 'errorCells') === 0,
    });
    for (const [i, name] of ['cold', 'warm'].entries()) {
      results.add({
        id: `excel.recalc_ms.100.${name}`,
        label: `Excel: 100 cells, time of the ${name === 'cold' ? 'first' : 'second'} recalculation (every cell at once, through the relay on loopback)`,
        value: round(product[i]!.ms, 0),
        unit: 'ms',
        baseline: round(naive[i]!.ms, 0),
        ratio: ratioOf(product[i]!.ms, naive[i]!.ms),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchExcel(new Results());
  process.exit(0);
}
