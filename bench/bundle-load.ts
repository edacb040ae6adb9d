/**
 * What each custom-function execution pays before it runs: a fresh global scope and Code.js evaluated in it
 * (Apps Script loads the project for every execution). Measured in the stand-in runtime: the script is
 * compiled once, as V8 caches it, and each sample is one new context plus one run of the bundle. Returns the
 * median and p95 in milliseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { buildAppsScript } from '../scripts/build-apps-script.ts';
import { appsScriptGlobals, createWorld, loadProject } from '../test/support/apps-script-fakes.ts';
import { memoryBacking } from '../test/support/apps-script-store.ts';

export async function benchBundleLoad(
  record: (name: string, value: string) => void,
): Promise<{ codeBytes: number; p50Ms: number; p95Ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'linen-gas-load-'));
  try {
    const built = await buildAppsScript({ outDir: dir, quiet: true });
    const [script] = loadProject(dir);
    const world = createWorld({
      backing: memoryBacking(),
      http: { request: () => ({ status: 599, headers: {}, body: '' }) },
      htmlDir: dir,
    });
    // One sample: a new global scope with the services (what every execution gets) and Code.js run in it.
    const sample = () => {
      const t0 = performance.now();
      const context = vm.createContext(appsScriptGlobals(world, 'custom', 'load'));
      const t1 = performance.now();
      script!.runInContext(context);
      return { total: performance.now() - t0, bundle: performance.now() - t1 };
    };
    for (let i = 0; i < 20; i++) sample(); // warm-up
    const samples = Array.from({ length: 200 }, sample);
    const stats = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return { p50: sorted[100]!, p95: sorted[190]!, mean: xs.reduce((a, b) => a + b, 0) / xs.length };
    };
    const total = stats(samples.map((x) => x.total));
    const bundle = stats(samples.map((x) => x.bundle));
    const p50Ms = total.p50;
    const p95Ms = total.p95;
    record(
      'sheets: loading Code.js per execution (new context + bundle run; target < 15 ms)',
      `p50 ${total.p50.toFixed(1)} ms, mean ${total.mean.toFixed(1)} ms, p95 ${total.p95.toFixed(1)} ms; the bundle's own run p50 ${bundle.p50.toFixed(1)} ms (${(built.codeBytes / 1024).toFixed(1)} KiB)`,
    );
    return { codeBytes: built.codeBytes, p50Ms, p95Ms };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchBundleLoad((name, value) => console.log(`${name.padEnd(72)} ${value}`));
}
