/**
 * Scheduled refresh: 300 LINEN_ cells over 5 customers (test/support/refresh-sheet.ts), refreshed by one
 * trigger run against the sandbox enforcing the real 120 requests a minute. Returns the figures and records
 * them: requests against the distinct pages the cells need, 429 answers, fetchAll batches, the run's time, and
 * what the rewritten cells cost afterwards.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { startHarness } from '../test/support/apps-script-harness.ts';
import { coldRecalculation, refreshSheets } from '../test/support/refresh-sheet.ts';
import { Results, round } from './results.ts';

export interface RefreshFigures {
  cells: number;
  customers: number;
  distinctPages: number;
  requests: number;
  answered429: number;
  fetchAllCalls: number;
  runMs: number;
  requestsAfterwards: number;
}

export async function benchRefresh(results: Results): Promise<RefreshFigures> {
  const h = await startHarness({ sandbox: { rateLimit: { limit: 120, windowMs: 60_000 } } });
  try {
    const { sheets, cells } = refreshSheets(h.sb.data, {
      customers: 5,
      cellsPerCustomer: 60,
      from: '2026-10-01',
      to: '2026-10-31',
    });
    h.world.sheets = sheets;
    const cold = await coldRecalculation(h, cells);
    const on = h.menu('linenSaveSchedule', { refresh: 'hourly', hour: 6, history: false });
    if (on.error) throw new Error(on.error);
    h.takeFetches();
    const started = performance.now();
    const [run] = h.fireTriggers();
    const runMs = performance.now() - started;
    if (run?.error) throw new Error(run.error);
    const fetches = h.takeFetches();
    for (const c of cells) h.cell(c.call.name, ...c.call.args);
    const figures: RefreshFigures = {
      cells: cells.length,
      customers: 5,
      distinctPages: cold.pages,
      requests: fetches.length,
      answered429: fetches.filter((f) => f.status === 429).length,
      fetchAllCalls: new Set(fetches.map((f) => f.batch)).size,
      runMs,
      requestsAfterwards: h.takeFetches().length,
    };
    results.add({
      id: 'sheets.refresh_requests.300',
      label: `Sheets: scheduled refresh of 300 cells over 5 customers at the real 120/min (${figures.fetchAllCalls} fetchAll calls, ${round(figures.runMs, 0)} ms; then ${figures.requestsAfterwards} requests for the cells); baseline: the distinct pages the cells need`,
      value: figures.requests,
      unit: 'requests',
      baseline: figures.distinctPages,
      ratio: figures.distinctPages ? round(figures.requests / figures.distinctPages, 2) : null,
      target: `<= ${figures.distinctPages + 5} (pages + 5), 0 answered 429`,
      met: figures.requests <= figures.distinctPages + 5 && figures.answered429 === 0,
    });
    return figures;
  } finally {
    await h.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchRefresh(new Results());
  process.exit(0);
}
