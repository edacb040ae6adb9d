/**
 * `npm run sheets -- '=LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31")'`
 *
 * Evaluates one formula with the built add-on (dist/apps-script/Code.js, rebuilt when missing or older than its
 * sources) in a vm context with the Apps Script fakes the tests use, doing real HTTP. Without LINEN_BASE_URL it
 * starts the sandbox API (in a worker thread: the Apps Script transport blocks this one). The key is
 * LINEN_API_KEY, else the sandbox's all-access demo key. Prints the value or an aligned table; an error prints
 * as `#ERROR! <message>` and exits with 1.
 *
 * Arguments: "text" (with "" for a quote), numbers, TRUE/FALSE, DATE(y, m, d) and omitted ones (`, ,`).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWorld, loadProject, plain, startExecution } from '../test/support/apps-script-fakes.ts';
import { memoryBacking } from '../test/support/apps-script-store.ts';
import { wallClockText } from '../test/support/wall-clock.ts';
import { BlockingTransport, startWorkerSandbox, type WorkerSandbox } from '../test/support/worker-sandbox.ts';
import { buildAppsScript } from './build-apps-script.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist/apps-script');
const DEMO_KEY = 'lk_live_demo_all_access';

export type Arg = string | number | boolean | undefined | { date: [number, number, number] };

/** Parse `=NAME(arg, ...)` (a name may have a namespace, as Excel's `LINEN.FILLRATE`). */
export function parseFormula(formula: string): { name: string; args: Arg[] } {
  const m = /^\s*=?\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\(([\s\S]*)\)\s*$/.exec(formula);
  if (!m)
    throw new Error('Write a formula like =LINEN_FILLRATE("Mercy General Hospital", "2026-10-01", "2026-10-31").');
  const src = m[2]!;
  let i = 0;
  const ws = () => {
    while (i < src.length && /\s/.test(src[i]!)) i++;
  };
  const value = (): Arg => {
    ws();
    if (i >= src.length || src[i] === ',') return undefined;
    if (src[i] === '"') {
      let out = '';
      for (i++; ; i++) {
        if (i >= src.length) throw new Error('A text argument is missing its closing quote.');
        if (src[i] === '"') {
          if (src[i + 1] === '"') {
            out += '"';
            i++;
          } else break;
        } else out += src[i];
      }
      i++;
      return out;
    }
    const date = /^DATE\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)/i.exec(src.slice(i));
    if (date) {
      i += date[0].length;
      return { date: [Number(date[1]), Number(date[2]), Number(date[3])] };
    }
    const word = /^[^,]+/.exec(src.slice(i))![0].trim();
    i += /^[^,]+/.exec(src.slice(i))![0].length;
    if (/^true$/i.test(word)) return true;
    if (/^false$/i.test(word)) return false;
    if (/^-?\d+(\.\d+)?$/.test(word)) return Number(word);
    throw new Error(`Cannot read the argument ${word}: quote text, e.g. "${word}".`);
  };
  const args: Arg[] = [];
  ws();
  if (i < src.length) {
    for (;;) {
      args.push(value());
      ws();
      if (i >= src.length) break;
      if (src[i] !== ',') throw new Error(`Unexpected ${src[i]} in the arguments.`);
      i++;
    }
  }
  return { name: m[1]!.toUpperCase(), args };
}

function newestMtime(path: string): number {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((f) => newestMtime(join(path, f))));
}

export async function ensureBuilt(): Promise<void> {
  const code = join(DIST, 'Code.js');
  const sources = Math.max(
    ...['apps-script', 'shared', 'scripts/build-apps-script.ts'].map((p) => newestMtime(join(ROOT, p))),
  );
  if (!existsSync(code) || statSync(code).mtimeMs < sources) await buildAppsScript({ quiet: true });
}

function show(v: unknown, timeZone: string): string {
  if (v instanceof Date) {
    const text = wallClockText(v, timeZone);
    const day = text.slice(0, 10);
    const minute = text.slice(11, 16);
    return minute === '00:00' ? day : `${day} ${minute}`;
  }
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(v ?? '');
}

export function render(value: unknown, timeZone: string): string {
  if (!Array.isArray(value)) return show(value, timeZone);
  const rows = (value as unknown[][]).map((r) => r.map((c) => show(c, timeZone)));
  const numeric =
    (value as unknown[][])[1]?.map((_, c) =>
      (value as unknown[][]).slice(1).every((r) => typeof r[c] === 'number' || r[c] === ''),
    ) ?? [];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  return rows
    .map((r) =>
      r
        .map((c, j) => (numeric[j] ? c.padStart(widths[j]!) : c.padEnd(widths[j]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export async function evaluate(
  formula: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ text: string; ok: boolean; requests: number }> {
  const { name, args } = parseFormula(formula);
  await ensureBuilt();
  let sandbox: WorkerSandbox | undefined;
  const http = new BlockingTransport();
  try {
    let baseUrl = env.LINEN_BASE_URL;
    let orgTimeZone = env.LINEN_TIMEZONE;
    if (!baseUrl) {
      sandbox = await startWorkerSandbox(env.SANDBOX_TODAY ? { today: env.SANDBOX_TODAY } : {});
      baseUrl = sandbox.baseUrl;
      orgTimeZone ??= sandbox.data.organization.time_zone;
    }
    const timeZone = orgTimeZone ?? 'America/Chicago';
    const backing = memoryBacking();
    const world = createWorld({
      backing,
      http,
      htmlDir: DIST,
      spreadsheetTimeZone: timeZone,
      scriptTimeZone: timeZone,
    });
    backing.propsSet(`user:${world.owner}`, 'LINEN_API_KEY', env.LINEN_API_KEY ?? DEMO_KEY);
    backing.propsSet(`doc:${world.spreadsheetId}`, 'LINEN_BASE_URL', baseUrl);
    const ex = startExecution(world, loadProject(DIST), 'custom');
    // A date cell reaches a custom function as a Date at midnight in the spreadsheet's timezone.
    const toDate = ex.evaluate<(y: number, m: number, d: number, tz: string) => Date>(
      `(y, m, d, tz) => { const guess = Date.UTC(y, m - 1, d); const f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
        const p = {}; for (const x of f.formatToParts(new Date(guess))) p[x.type] = +x.value;
        return new Date(guess - (Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - guess)); }`,
    );
    const real = args.map((a) => (a && typeof a === 'object' ? toDate(...a.date, timeZone) : a));
    const r = ex.call(name, ...real);
    ex.end();
    const requests = world.fetches.length;
    if (r.error !== undefined) return { text: `#ERROR! ${r.error}`, ok: false, requests };
    return { text: render(plain(r.value), timeZone), ok: true, requests };
  } finally {
    await http.close();
    await sandbox?.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const formula = process.argv.slice(2).join(' ');
  try {
    const out = await evaluate(formula);
    console.log(out.text);
    if (process.env.LINEN_SHEETS_VERBOSE) console.error(`${out.requests} API request(s)`);
    process.exitCode = out.ok ? 0 : 1;
  } catch (e) {
    console.log(`#ERROR! ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
