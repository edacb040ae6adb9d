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

export async function benchRefresh(record: (name: string, value: string) => void): Promise<RefreshFigures> {
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
    record(
      'sheets: scheduled refresh, 300 cells over 5 customers (target <= pages + 5, 0 x 429)',
      `${figures.requests} requests for ${figures.distinctPages} distinct pages, ${figures.answered429} answered 429, ${figures.fetchAllCalls} fetchAll calls, ${figures.runMs.toFixed(0)} ms; then ${figures.requestsAfterwards} requests for the 300 cells`,
    );
    return figures;
  } finally {
    await h.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchRefresh((name, value) => console.log(`${name.padEnd(72)} ${value}`));
  process.exit(0);
}
