/**
 * A new embedded store starts as a copy of a prepared data folder instead of running initdb in the bot's process.
 * PGlite's initdb starts a second Postgres instance and the initdb program beside the store's own, and the process
 * kept about 800 MB resident afterwards; starting on a copied folder costs what a restart costs.
 *
 * The prepared folder is one PGlite initialised and closed cleanly, in a child process so the initdb memory goes
 * back to the system when it exits. It is made once per installed PGlite version, under node_modules/.cache, on
 * first use from the sources or by the build, which copies it beside the bundle (`npm run build`). PGlite's own
 * `loadDataDir` was measured too: it unpacks a tar inside the process, about 300 MB resident against 165 MB for a
 * copied folder.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/** The prepared folder's name beside the bundled bot (the build writes it there). */
export const DATA_DIR_TEMPLATE = 'pglite-datadir';

// Runs in the child: PGlite on the folder given (initdb), closed cleanly.
const MAKE_TEMPLATE = `
const [entry, dir] = process.argv.slice(1);
const { PGlite } = await import(entry);
const db = await PGlite.create(dir);
await db.close();
`;

interface PgliteInstall {
  /** PGlite's ES module, as a file URL a child process can import. */
  entryUrl: string;
  version: string;
  /** The node_modules folder it is installed in. */
  nodeModules: string;
}

/** The installed PGlite package, or null where there is none (the bundled bot carries its own copy). */
function pgliteInstall(): PgliteInstall | null {
  try {
    const cjs = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const pkgDir = dirname(dirname(cjs));
    const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
    return {
      entryUrl: pathToFileURL(join(pkgDir, 'dist', 'index.js')).href,
      version,
      nodeModules: dirname(dirname(pkgDir)),
    };
  } catch {
    return null;
  }
}

/** Puts `staged` at `target` in one rename; when another process got there first, theirs is kept. */
function moveIntoPlace(staged: string, target: string): void {
  try {
    renameSync(staged, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
  }
}

/** Makes a freshly initialised, cleanly closed data folder at `folder` (whole or not at all), in a child process. */
async function makeTemplate(install: PgliteInstall, folder: string): Promise<void> {
  const staged = join(dirname(folder), `.${basename(folder)}.${process.pid}.partial`);
  rmSync(staged, { recursive: true, force: true });
  mkdirSync(dirname(folder), { recursive: true });
  try {
    await promisify(execFile)(process.execPath, ['--input-type=module', '-e', MAKE_TEMPLATE, install.entryUrl, staged]);
    if (!existsSync(join(staged, 'PG_VERSION'))) throw new Error(`PGlite made no data folder in ${staged}`);
    // A half folder left by a crash goes; a whole one another process made meanwhile stays.
    if (!existsSync(join(folder, 'PG_VERSION'))) rmSync(folder, { recursive: true, force: true });
    moveIntoPlace(staged, folder);
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

/** The prepared folder of the installed PGlite package, made first when missing. */
export async function installedTemplate(): Promise<string> {
  const install = pgliteInstall();
  if (!install) throw new Error('@electric-sql/pglite is not installed: no data folder template can be made');
  const cached = join(install.nodeModules, '.cache', 'linen-connect', `pglite-${install.version}-datadir`);
  if (!existsSync(join(cached, 'PG_VERSION'))) await makeTemplate(install, cached);
  return cached;
}

/** Where this copy of the bot finds its prepared folder: beside the bundle, else the installed package's. */
async function templateFolder(): Promise<string | null> {
  const besideBundle = fileURLToPath(new URL(`./${DATA_DIR_TEMPLATE}`, import.meta.url));
  if (existsSync(join(besideBundle, 'PG_VERSION'))) return besideBundle;
  return installedTemplate().catch(() => null);
}

let template: Promise<string | null> | undefined;

/**
 * Fills the empty or missing store folder `dataDir` with a copy of the prepared data folder (staged beside it and
 * renamed in, so a crash leaves no half folder). With nothing to copy the folder stays empty, and PGlite runs
 * initdb itself: slower and larger, but correct.
 */
export async function prepareDataDir(dataDir: string): Promise<void> {
  template ??= templateFolder();
  const from = await template;
  if (!from) return;
  const staged = join(dirname(dataDir), `.${basename(dataDir)}.${process.pid}.partial`);
  rmSync(staged, { recursive: true, force: true });
  cpSync(from, staged, { recursive: true });
  rmSync(dataDir, { recursive: true, force: true }); // empty: nothing is lost
  renameSync(staged, dataDir);
}

/** Whether `dataDir` holds no store yet (missing or empty). */
export function isEmptyFolder(dataDir: string): boolean {
  return !existsSync(dataDir) || readdirSync(dataDir).length === 0;
}
