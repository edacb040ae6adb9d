/**
 * Simultaneous executions: each worker thread loads Code.js into its own vm contexts and runs its cells,
 * all starting at the same instant, sharing one CacheService/LockService/PropertiesService store (a store
 * worker) the way the cells of one recalculation share a spreadsheet's cache and document lock.
 */
import { Worker } from 'node:worker_threads';
import type { StoreWorker } from './apps-script-store.ts';

const EXEC_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import(workerData.tsx);
  const fakes = await tsImport(workerData.fakes, workerData.fakes);
  const store = await tsImport(workerData.store, workerData.store);
  const helpers = await tsImport(workerData.helpers, workerData.helpers);
  const backing = store.remoteBacking(workerData.port);
  const http = new helpers.BlockingTransport();
  const world = fakes.createWorld({ backing, http, htmlDir: workerData.dir, spreadsheetTimeZone: workerData.tz });
  const scripts = fakes.loadProject(workerData.dir, workerData.files);
  parentPort.postMessage('ready');
  Atomics.wait(new Int32Array(workerData.go), 0, 0);
  const started = performance.now();
  const results = workerData.cells.map(([name, args]) => {
    const r = fakes.runOnce(world, scripts, 'custom', name, ...args);
    return r.error !== undefined ? { error: r.error } : { value: fakes.plain(r.value) };
  });
  const ms = performance.now() - started;
  parentPort.postMessage({ results, fetches: world.fetches.map((f) => ({ url: f.url, status: f.status })), ms });
  await http.close();
})().catch((e) => parentPort.postMessage({ error: String((e && e.stack) || e) }));
`;

export interface WorkerOutcome {
  results: { value?: unknown; error?: string }[];
  fetches: { url: string; status: number | 'failed' }[];
  /** From the common start to this worker's last cell (thread start-up excluded). */
  ms: number;
}

export async function runSimultaneously(options: {
  dir: string;
  timeZone: string;
  store: StoreWorker;
  /** One list of cells per worker: `[functionName, args]`. */
  cells: [string, unknown[]][][];
  /** The project's files in load order; default Code.js alone. */
  files?: string[];
}): Promise<WorkerOutcome[]> {
  const go = new SharedArrayBuffer(4);
  const entry = (p: string) => new URL(p, import.meta.url).href;
  const workers = await Promise.all(
    options.cells.map(async (cells) => {
      const port = await options.store.connect();
      const worker = new Worker(EXEC_WORKER, {
        eval: true,
        workerData: {
          tsx: import.meta.resolve('tsx/esm/api'),
          fakes: entry('./apps-script-fakes.ts'),
          store: entry('./apps-script-store.ts'),
          helpers: entry('./worker-sandbox.ts'),
          dir: options.dir,
          tz: options.timeZone,
          port,
          go,
          cells,
          files: options.files,
        },
        transferList: [port],
      });
      const messages: unknown[] = [];
      let notify: (() => void) | undefined;
      worker.on('message', (m) => {
        messages.push(m);
        notify?.();
      });
      const next = async () => {
        while (!messages.length) await new Promise<void>((r) => (notify = r));
        const m = messages.shift();
        if (m && typeof m === 'object' && 'error' in m) throw new Error(String((m as { error: unknown }).error));
        return m;
      };
      if ((await next()) !== 'ready') throw new Error('execution worker did not start');
      return { worker, next };
    }),
  );
  const flag = new Int32Array(go);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  const outcomes = await Promise.all(workers.map((w) => w.next() as Promise<WorkerOutcome>));
  await Promise.all(workers.map((w) => w.worker.terminate()));
  return outcomes;
}
