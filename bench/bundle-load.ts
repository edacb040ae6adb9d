/**
 * What each custom-function execution pays before it runs: Code.js's size (minified, and gzipped) and the time to
 * evaluate it in a fresh global scope (Apps Script loads the project for every execution). Measured in the
 * stand-in runtime: the script is compiled once, as V8 caches it, and each sample is one new context plus one
 * run of the bundle. The baseline is the same add-on built with classic `zod` in place of `zod/mini` (an esbuild
 * alias, for this comparison only), measured the same way in the same run, the two alternating.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { gzipSync } from 'node:zlib';
import { buildAppsScript } from '../scripts/build-apps-script.ts';
import { appsScriptGlobals, createWorld, loadProject } from '../test/support/apps-script-fakes.ts';
import { memoryBacking } from '../test/support/apps-script-store.ts';
import { Results, ratioOf, round } from './results.ts';

interface Variant {
  bytes: number;
  gzipBytes: number;
  /** One sample: a new global scope with the services and Code.js run in it, in ms. */
  sample(): number;
}

async function variant(dir: string, alias?: Record<string, string>): Promise<Variant> {
  const built = await buildAppsScript({ outDir: dir, quiet: true, ...(alias ? { alias } : {}) });
  const [script] = loadProject(dir);
  const world = createWorld({
    backing: memoryBacking(),
    http: { request: () => ({ status: 599, headers: {}, body: '' }) },
    htmlDir: dir,
  });
  return {
    bytes: built.codeBytes,
    gzipBytes: gzipSync(readFileSync(join(dir, 'Code.js'))).length,
    sample() {
      const t0 = performance.now();
      script!.runInContext(vm.createContext(appsScriptGlobals(world, 'custom', 'load')));
      return performance.now() - t0;
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchBundleLoad(results: Results): Promise<void> {
  const dirs = [mkdtempSync(join(tmpdir(), 'linen-gas-mini-')), mkdtempSync(join(tmpdir(), 'linen-gas-classic-'))];
  try {
    const mini = await variant(dirs[0]!);
    const classic = await variant(dirs[1]!, { 'zod/mini': 'zod' });
    for (let i = 0; i < 20; i++) {
      mini.sample(); // warm-up
      classic.sample();
    }
    const miniMs: number[] = [];
    const classicMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      miniMs.push(mini.sample());
      classicMs.push(classic.sample());
    }
    results.add({
      id: 'sheets.bundle_bytes',
      label: 'Sheets: Code.js minified, with the generated stubs; baseline: built with classic zod',
      value: mini.bytes,
      unit: 'bytes',
      baseline: classic.bytes,
      ratio: ratioOf(mini.bytes, classic.bytes),
      target: '<= 122,880 (120 KiB)',
      met: mini.bytes <= 120 * 1024,
    });
    results.add({
      id: 'sheets.bundle_gzip_bytes',
      label: 'Sheets: Code.js gzipped; baseline: built with classic zod',
      value: mini.gzipBytes,
      unit: 'bytes',
      baseline: classic.gzipBytes,
      ratio: ratioOf(mini.gzipBytes, classic.gzipBytes),
    });
    const miniP50 = median(miniMs);
    results.add({
      id: 'sheets.bundle_eval_ms',
      label:
        'Sheets: loading Code.js in a fresh context (every execution pays it), median of 200; baseline: classic zod',
      value: round(miniP50, 2),
      unit: 'ms',
      baseline: round(median(classicMs), 2),
      ratio: ratioOf(miniP50, median(classicMs)),
      target: '< 15 ms',
      met: miniP50 < 15,
    });
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchBundleLoad(new Results());
}
