/**
 * Sheets add-on figures: the cost of a 100-cell fill-rate grid (one customer, one month) in API requests,
 * cold and warm recalculation times, with the cells run one after another and as four simultaneous threads,
 * and the size of Code.js. Runs the built bundle in vm contexts with the Apps Script fakes and real HTTP to
 * the sandbox. Wire into bench/run.ts with `await benchSheets(record)`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { buildAppsScript } from '../scripts/build-apps-script.ts';
import { createWorld, loadProject, runOnce } from '../test/support/apps-script-fakes.ts';
import { memoryBacking, remoteBacking, startStoreWorker } from '../test/support/apps-script-store.ts';
import { runSimultaneously } from '../test/support/apps-script-workers.ts';
import { BlockingTransport, startWorkerSandbox } from '../test/support/worker-sandbox.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';
const FROM = '2026-10-01';
const TO = '2026-10-31';

export async function benchSheets(record: (name: string, value: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'linen-gas-bench-'));
  const built = await buildAppsScript({ outDir: dir, quiet: true });
  record(
    'sheets: Code.js (esbuild IIFE, minified, plus generated stubs)',
    `${(built.codeBytes / 1024).toFixed(1)} KiB (${built.codeBytes} bytes; bundle ${(built.bundleBytes / 1024).toFixed(1)} KiB)`,
  );

  const sb = await startWorkerSandbox({ today: TODAY, timeZone: TZ });
  const http = new BlockingTransport();
  const store = await startStoreWorker();
  try {
    const mercy = sb.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const rows = sb.data.daily_deliveries.filter((r) => r.customer_id === mercy.id && r.date >= FROM && r.date <= TO);
    const pages = Math.ceil(rows.length / 200);
    const items = [...new Set(rows.map((r) => r.item_name))];
    const depts = ['', ...mercy.departments.map((d) => d.name)];
    const cells: [string, unknown[]][] = Array.from({ length: 100 }, (_, i) => [
      'LINEN_FILLRATE',
      ['Mercy General Hospital', FROM, TO, depts[i % depts.length], i % 3 === 0 ? '' : items[i % items.length]],
    ]);

    // One after another, in this thread.
    const backing = memoryBacking();
    const world = createWorld({ backing, http, htmlDir: dir, spreadsheetTimeZone: TZ });
    backing.propsSet(`user:${world.owner}`, 'LINEN_API_KEY', KEY);
    backing.propsSet(`doc:${world.spreadsheetId}`, 'LINEN_BASE_URL', sb.baseUrl);
    const scripts = loadProject(dir);
    const recalc = () => {
      const start = performance.now();
      world.fetches.length = 0;
      for (const [name, args] of cells) {
        const r = runOnce(world, scripts, 'custom', name, ...args);
        if (r.error) throw new Error(r.error);
      }
      return { ms: performance.now() - start, requests: world.fetches.length };
    };
    const cold = recalc();
    const warm = recalc();
    record(
      'sheets: 100-cell fill-rate grid, one customer and month, cells in turn',
      `${cold.requests} requests cold (${pages} pages of deliveries + customers; target <= ${pages + 2}), ${warm.requests} warm`,
    );
    record(
      'sheets: 100-cell grid recalculation time (100 executions)',
      `cold ${cold.ms.toFixed(0)} ms, warm ${warm.ms.toFixed(0)} ms (${(warm.ms / 100).toFixed(1)} ms a cell)`,
    );

    // Four threads of 25 executions starting together, sharing one cache and lock.
    const setup = remoteBacking(await store.connect());
    setup.propsSet('user:owner@example.com', 'LINEN_API_KEY', KEY);
    setup.propsSet('doc:sheet-1', 'LINEN_BASE_URL', sb.baseUrl);
    const split = [0, 1, 2, 3].map((w) => cells.filter((_, i) => i % 4 === w));
    let start = performance.now();
    const coldRun = await runSimultaneously({ dir, timeZone: TZ, store, cells: split });
    const coldMs = performance.now() - start;
    start = performance.now();
    const warmRun = await runSimultaneously({ dir, timeZone: TZ, store, cells: split });
    const warmMs = performance.now() - start;
    const count = (o: typeof coldRun) => o.reduce((s, w) => s + w.fetches.length, 0);
    record(
      'sheets: 100-cell grid as 4 simultaneous threads x 25 executions',
      `${count(coldRun)} requests cold, ${count(warmRun)} warm; cold ${coldMs.toFixed(0)} ms, warm ${warmMs.toFixed(0)} ms (incl. thread start)`,
    );
  } finally {
    await store.close();
    await http.close();
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchSheets((name, value) => console.log(`${name.padEnd(72)} ${value}`));
}
