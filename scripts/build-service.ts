/**
 * Bundles the service (Slack, Teams, Excel's relay, the console) into one ESM file runnable with plain `node` (dist/service/index.js). The sandbox
 * is bundled too, for the console mode that runs without any setting.
 */

import { copyFileSync, cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { DATA_DIR_TEMPLATE, installedTemplate } from '../base/store/pglite-template.ts';
import { NODE_BUNDLE } from './node-bundle.ts';

/** PGlite (the embedded digest store) loads its Postgres build from files beside the module that imports it. */
const PGLITE_ASSETS = ['pglite.wasm', 'pglite.data', 'initdb.wasm'];

export interface BuildServiceOptions {
  /** Default dist/service/index.js. */
  outfile?: string;
}

export async function buildService(options: BuildServiceOptions = {}): Promise<string> {
  const outfile = options.outfile ?? 'dist/service/index.js';
  await build({
    entryPoints: ['service/index.ts'],
    outfile,
    ...NODE_BUNDLE,
    // The bundled entry must start when run directly, whatever file name it has.
    define: { 'process.env.LINEN_BOT_BUNDLED': '"1"' },
  });
  // The bundle is ESM: said beside it, Node loads it once instead of trying CommonJS first (about 30 MB less
  // resident), wherever the folder is copied to.
  writeFileSync(join(dirname(outfile), 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  await writePgliteAssets(dirname(outfile));
  return outfile;
}

/** What a bundle holding PGlite needs beside it in `outDir`: its Postgres build and the prepared data folder. */
export async function writePgliteAssets(outDir: string): Promise<void> {
  const pgliteDir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (const f of PGLITE_ASSETS) copyFileSync(join(pgliteDir, f), join(outDir, f));
  // A new embedded store starts as a copy of this folder instead of running initdb in the bot's process.
  const template = join(outDir, DATA_DIR_TEMPLATE);
  rmSync(template, { recursive: true, force: true });
  cpSync(await installedTemplate(), template, { recursive: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await buildService();
  console.log(`built ${out}`);
}
