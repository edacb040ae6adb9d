/**
 * Bundles the Slack bot into one ESM file runnable with plain `node` (dist/slack-bot/index.js). The sandbox
 * is bundled too, for the console mode that runs without any setting.
 */

import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from './node-bundle.ts';

/** PGlite (the embedded digest store) loads its Postgres build from files beside the module that imports it. */
const PGLITE_ASSETS = ['pglite.wasm', 'pglite.data', 'initdb.wasm'];

export interface BuildSlackBotOptions {
  /** Default dist/slack-bot/index.js. */
  outfile?: string;
}

export async function buildSlackBot(options: BuildSlackBotOptions = {}): Promise<string> {
  const outfile = options.outfile ?? 'dist/slack-bot/index.js';
  await build({
    entryPoints: ['slack-bot/index.ts'],
    outfile,
    ...NODE_BUNDLE,
    // The bundled entry must start when run directly, whatever file name it has.
    define: { 'process.env.LINEN_BOT_BUNDLED': '"1"' },
  });
  const pgliteDir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (const f of PGLITE_ASSETS) copyFileSync(join(pgliteDir, f), join(dirname(outfile), f));
  return outfile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = await buildSlackBot();
  console.log(`built ${out}`);
}
