/**
 * A benchmark's run of the bot's own code in a process of its own, bundled and run with plain `node` as the built
 * bot runs (the digest and alert benchmarks), so its CPU time and resident memory are the bot's and not the
 * benchmark's. The bundle carries PGlite's files and prepared data folder beside it; each run is a fresh child.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { writePgliteAssets } from '../scripts/build-service.ts';
import { NODE_BUNDLE } from '../scripts/node-bundle.ts';
import { forkChild } from './child-process.ts';
import { markAsModules } from './esm-folder.ts';

export interface BundledRun {
  file: string;
  remove(): void;
}

/** `entry` (a bench/*-run.ts file) bundled for plain `node` into a new temporary folder named after `name`. */
export async function bundleRun(entry: string, name: string): Promise<BundledRun> {
  const dir = mkdtempSync(join(tmpdir(), `linen-bench-${name}-`));
  const file = join(dir, `${name}.js`);
  await build({ ...NODE_BUNDLE, sourcemap: false, entryPoints: [entry], outfile: file });
  await writePgliteAssets(dir);
  markAsModules(dir);
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** One run in a fresh child process of `bundle`: it is handed `spec` and answers once, with its result or why not. */
export async function runInChild<Result>(bundle: string, spec: unknown, what: string): Promise<Result> {
  const child = await forkChild<Result | { error: string }>(bundle, spec, { bundled: true });
  await child.close();
  const answer = child.ready;
  if (answer && typeof answer === 'object' && 'error' in answer) throw new Error(`${what} failed: ${answer.error}`);
  return answer as Result;
}
