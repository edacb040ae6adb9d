/**
 * `npm run excel -- '=LINEN.FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31")'`
 *
 * Evaluates one formula as Excel would, with no Excel: the built add-in (dist/excel-addin/, rebuilt when missing or
 * older than its sources), its runtime page's scripts loaded in a vm with the stand-ins the tests use (Office's
 * globals, a fetch that enforces CORS), calling the service's relay on loopback in front of the API. Without
 * LINEN_BASE_URL the sandbox API starts in this process. The key is LINEN_API_KEY, else the sandbox's all-access
 * demo key; LINEN_TIMEZONE, else the sandbox's organization timezone. Prints the value or an aligned table (dates
 * as their format shows them); an error prints as `#N/A <message>` or `#VALUE! <message>` and exits with 1.
 *
 * Arguments: "text" (with "" for a quote), numbers, TRUE/FALSE, DATE(y, m, d) (a date cell's serial number) and
 * omitted ones (`, ,`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Sandbox, startSandbox } from '../sandbox/index.ts';
import { startExcelService } from '../test/support/excel-harness.ts';
import { loadExcelRuntime } from '../test/support/excel-runtime.ts';
import { buildExcelAddin } from './build-excel-addin.ts';
import { type Arg, parseFormula, render } from './sheets.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist/excel-addin');
const DEMO_KEY = 'lk_live_demo_all_access';
const EXAMPLE = '=LINEN.FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31")';

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((f) => newestMtime(join(path, f))));
}

async function ensureBuilt(dist: string): Promise<void> {
  const built = join(dist, 'functions.json');
  const sources = Math.max(
    ...['excel-addin', 'shared', 'scripts/build-excel-addin.ts'].map((p) => newestMtime(join(ROOT, p))),
  );
  if (!existsSync(built) || statSync(built).mtimeMs < sources) await buildExcelAddin({ outDir: dist, quiet: true });
}

/** Excel's serial number of a date cell (the 1900 date system). */
const serialOf = (y: number, m: number, d: number) => (Date.UTC(y, m - 1, d) - Date.UTC(1899, 11, 30)) / 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as Excel shows it: a formatted number in its date format, the rest as it is. */
function shown(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shown);
  if (v && typeof v === 'object' && 'basicValue' in v && 'numberFormat' in v) {
    const { basicValue, numberFormat } = v as { basicValue: number; numberFormat: string };
    const d = new Date(Date.UTC(1899, 11, 30) + Math.round(basicValue * 86_400_000));
    const day = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
    return /h/.test(numberFormat) ? `${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}` : day;
  }
  return v;
}

export async function evaluate(
  formula: string,
  env: NodeJS.ProcessEnv = process.env,
  /** Where the built add-in is (tests build their own). */
  dist = DIST,
): Promise<{ text: string; ok: boolean; requests: number }> {
  const m = /^\s*=?\s*LINEN\.([A-Za-z_]+)\s*\(/i.exec(formula);
  if (!m) throw new Error(`Write a formula like ${EXAMPLE}.`);
  const { args } = parseFormula(formula);
  await ensureBuilt(dist);
  let sandbox: Sandbox | undefined;
  let service: Awaited<ReturnType<typeof startExcelService>> | undefined;
  try {
    let baseUrl = env.LINEN_BASE_URL;
    let timeZone = env.LINEN_TIMEZONE;
    if (!baseUrl) {
      sandbox = await startSandbox({ port: 0, ...(env.SANDBOX_TODAY ? { today: env.SANDBOX_TODAY } : {}) });
      baseUrl = sandbox.baseUrl;
      timeZone ??= sandbox.data.organization.time_zone;
    }
    service = await startExcelService(dist, baseUrl);
    const rt = loadExcelRuntime({
      dir: dist,
      origin: service.origin,
      storage: { LINEN_API_KEY: env.LINEN_API_KEY ?? DEMO_KEY, ...(timeZone ? { LINEN_TIMEZONE: timeZone } : {}) },
    });
    const id = m[1]!.toUpperCase();
    if (!rt.registered.includes(id)) throw new Error(`LINEN.${id} is not a Linen function; try ${EXAMPLE}.`);
    const excelArgs = args.map((a: Arg) => (a === undefined ? null : typeof a === 'object' ? serialOf(...a.date) : a));
    const r = await rt.call(id, ...excelArgs);
    const requests = rt.fetches.length;
    if ('error' in r) return { text: `${r.error.code} ${r.error.message ?? ''}`.trim(), ok: false, requests };
    return { text: render(shown(r.value), timeZone ?? 'UTC'), ok: true, requests };
  } finally {
    await service?.close();
    await sandbox?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const formula = process.argv.slice(2).join(' ');
  try {
    const out = await evaluate(formula);
    console.log(out.text);
    if (process.env.LINEN_EXCEL_VERBOSE) console.error(`${out.requests} request(s) to the relay`);
    process.exitCode = out.ok ? 0 : 1;
  } catch (e) {
    console.log(`#VALUE! ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
