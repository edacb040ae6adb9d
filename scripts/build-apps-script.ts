/**
 * Builds the Sheets add-on into dist/apps-script/ (clasp's rootDir):
 * - Code.js: the esbuild IIFE bundle of apps-script/src/main.ts (which sets the global `LinenAddon`), then
 *   generated top-level functions: one `@customfunction` per entry of apps-script/src/catalog.ts, with its JSDoc
 *   and parameter names, and the menu, trigger and dialog entry points. All delegate to the bundle.
 * - appsscript.json: the template with `urlFetchWhitelist` set to the API origin (env LINEN_BASE_URL).
 * - Settings.html (the key and address dialog), Schedule.html (Auto-refresh and Record history), Report.html
 *   (Insert report), FormulaBuilder.html (the sidebar, with the catalog and formula-text.ts built in) and
 *   Help.html (generated from the catalog).
 *
 *   tsx scripts/build-apps-script.ts           build
 *   tsx scripts/build-apps-script.ts --push    build, then `clasp push` (needs an https LINEN_BASE_URL and .clasp.json)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { UI_ENTRY_POINTS } from '../apps-script/src/entry-points.ts';
import { FUNCTIONS, type FunctionSpec } from '../shared/cells/catalog.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** A placeholder: set LINEN_BASE_URL to your provider's address when building for deployment. */
export const DEFAULT_BASE_URL = 'https://api.example.com/v1';
/** The global apps-script/src/main.ts sets, which the generated top-level functions call. */
export const GLOBAL_NAME = 'LinenAddon';
/** Code.js budget: 120 KB since scheduled refresh, history, reports and the 7 a.m. functions (par met, short today, ...). */
export const MAX_CODE_BYTES = 120 * 1024;

export interface BuildAppsScriptOptions {
  /** Default dist/apps-script. */
  outDir?: string;
  /** The API address baked in as the default and whitelisted; default env LINEN_BASE_URL, else DEFAULT_BASE_URL. */
  baseUrl?: string;
  minify?: boolean;
  quiet?: boolean;
  /** Module substitutions, e.g. the benchmark's comparison build with classic `zod` for `zod/mini`. */
  alias?: Record<string, string>;
}

export interface BuildAppsScriptResult {
  outDir: string;
  baseUrl: string;
  codeBytes: number;
  bundleBytes: number;
  files: string[];
}

const jsdocText = (s: string) => s.replace(/\*\//g, '* /');

export function stubFor(f: FunctionSpec): string {
  const names = f.params.map((p) => p.name);
  const lines = [
    '/**',
    ` * ${jsdocText(f.summary)}`,
    ...f.params.map((p) => ` * @param ${p.name} ${jsdocText(p.doc)}`),
    ...(/^A table: /.test(f.returns) ? [] : [` * @return ${jsdocText(f.returns)}`]),
    ' * @customfunction',
    ' */',
    `function ${f.name}(${names.join(',')}){return ${GLOBAL_NAME}.call(${JSON.stringify(f.name)},arguments)}`,
  ];
  return lines.join('\n');
}

export function entryStub(e: (typeof UI_ENTRY_POINTS)[number]): string {
  return `function ${e.name}(${e.params.join(',')}){return ${GLOBAL_NAME}.${e.name}(${e.params.join(',')})}`;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function helpHtml(): string {
  const fns = FUNCTIONS.map((f) => {
    const sig = `${f.name}(${f.params.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(', ')})`;
    const params = f.params.map((p) => `<li><code>${p.name}</code>: ${escapeHtml(p.doc)}</li>`).join('');
    return `<section><h3><code>${sig}</code></h3><p>${escapeHtml(f.summary)}</p>${params ? `<ul>${params}</ul>` : ''}<p>Returns: ${escapeHtml(f.returns)}</p><p class="ex"><code>${escapeHtml(f.example)}</code></p></section>`;
  }).join('\n');
  return `<!DOCTYPE html>
<html><head><base target="_top"><meta charset="utf-8"><style>
body{font:13px/1.45 Arial,sans-serif;margin:0 8px;color:#202124}h3{font-size:13px;margin:14px 0 4px}code{font-family:Consolas,monospace}
ul{margin:2px 0;padding-left:18px}p{margin:2px 0}.ex code{background:#f1f3f4;padding:1px 4px}
</style></head><body>
<p><b>Linen Connect</b> brings your linen provider's data into cells. Set your key with <i>Extensions &gt; Linen Connect &gt; Set API key...</i>.
Customers are given by id or name; dates as Sheets dates or "YYYY-MM-DD"; money is in dollars; empty arguments may be skipped (<code>=LINEN_INVOICES(, , , "sent")</code>).
Results are cached for an hour; <i>Refresh data</i> fetches them again.</p>
<p><b>Whose key?</b> Formulas use the key saved by the spreadsheet's owner, for everyone who can open the spreadsheet.</p>
${fns}
</body></html>
`;
}

/** Text safe inside an HTML script element: no `</script>`, no line separators JavaScript would choke on. */
const scriptSafe = (json: string) =>
  json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The formula builder sidebar with what it needs built in, so it costs Code.js nothing: the catalog of
 * functions and their parameters, and formulaText (the same code the add-on writes formulas with).
 */
async function builderHtml(): Promise<string> {
  const source = await readFile(join(ROOT, 'apps-script/src/FormulaBuilder.html'), 'utf8');
  const bundled = await build({
    entryPoints: [join(ROOT, 'apps-script/src/formula-text.ts')],
    bundle: true,
    format: 'iife',
    globalName: 'LinenFormula',
    platform: 'neutral',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const catalog = FUNCTIONS.map((f) => ({
    name: f.name,
    summary: f.summary,
    params: f.params.map((p) => ({ name: p.name, kind: p.kind, doc: p.doc, optional: p.optional === true })),
  }));
  const script = `<script>${bundled.outputFiles[0]!.text.trim()}\nwindow.LINEN_FUNCTIONS = ${scriptSafe(JSON.stringify(catalog))};</script>`;
  if (!source.includes('<!-- LINEN_BUILDER_SCRIPT -->'))
    throw new Error('FormulaBuilder.html lost its <!-- LINEN_BUILDER_SCRIPT --> marker');
  return source.replace('<!-- LINEN_BUILDER_SCRIPT -->', () => script);
}

/** Parameter names per function: all the runtime needs of the catalog. */
export function signatures(): Record<string, string> {
  return Object.fromEntries(FUNCTIONS.map((f) => [f.name, f.params.map((p) => p.name).join(',')]));
}

function whitelistEntry(baseUrl: string): string {
  return `${new URL(baseUrl).origin}/`;
}

export async function buildAppsScript(options: BuildAppsScriptOptions = {}): Promise<BuildAppsScriptResult> {
  const outDir = resolve(ROOT, options.outDir ?? 'dist/apps-script');
  const baseUrl = (options.baseUrl ?? process.env.LINEN_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error(`LINEN_BASE_URL must be an http(s) URL, got ${baseUrl}`);
  const result = await build({
    entryPoints: [join(ROOT, 'apps-script/src/main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    target: 'es2020',
    minify: options.minify ?? true,
    legalComments: 'none',
    charset: 'utf8',
    // The add-on's own private members end with `_`; nothing else in the bundle does.
    mangleProps: /^[a-z][A-Za-z]*_$/,
    write: false,
    logLevel: 'silent',
    // Declared-only class fields need no defineProperty calls at run time (smaller bundle, same behaviour).
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: false } },
    define: { LINEN_DEFAULT_BASE_URL: JSON.stringify(baseUrl), LINEN_SIGNATURES: JSON.stringify(signatures()) },
    ...(options.alias ? { alias: options.alias } : {}),
  });
  const bundle = result.outputFiles[0]!.text.trimEnd();
  const stubs = [...FUNCTIONS.map(stubFor), UI_ENTRY_POINTS.map(entryStub).join('\n')].join('\n');
  const code = `${bundle}\n\n${stubs}\n`;

  const manifest = JSON.parse(await readFile(join(ROOT, 'apps-script/appsscript.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  manifest.urlFetchWhitelist = [whitelistEntry(baseUrl)];

  await mkdir(outDir, { recursive: true });
  const files: [string, string][] = [
    ['Code.js', code],
    ['appsscript.json', `${JSON.stringify(manifest, null, 2)}\n`],
    ['Settings.html', await readFile(join(ROOT, 'apps-script/src/Settings.html'), 'utf8')],
    ['Schedule.html', await readFile(join(ROOT, 'apps-script/src/Schedule.html'), 'utf8')],
    ['Report.html', await readFile(join(ROOT, 'apps-script/src/Report.html'), 'utf8')],
    ['FormulaBuilder.html', await builderHtml()],
    ['Help.html', helpHtml()],
  ];
  for (const [name, text] of files) await writeFile(join(outDir, name), text);
  const codeBytes = Buffer.byteLength(code);
  if (!options.quiet) {
    console.log(
      `built ${join(outDir, 'Code.js')} (${(codeBytes / 1024).toFixed(1)} KiB, ${FUNCTIONS.length} custom functions, API ${baseUrl})`,
    );
  }
  if (codeBytes > MAX_CODE_BYTES && !options.alias)
    console.warn(`warning: Code.js is ${codeBytes} bytes, over the ${MAX_CODE_BYTES}-byte budget`);
  return { outDir, baseUrl, codeBytes, bundleBytes: Buffer.byteLength(bundle), files: files.map(([n]) => n) };
}

async function main(argv: string[]): Promise<void> {
  const push = argv.includes('--push');
  if (push) {
    const base = process.env.LINEN_BASE_URL;
    if (!base || new URL(base).protocol !== 'https:') {
      throw new Error(
        "Set LINEN_BASE_URL to your Linen API address (https://.../v1) before deploying: it becomes the add-on's only allowed URL.",
      );
    }
  }
  await buildAppsScript();
  if (!push) return;
  if (!existsSync(join(ROOT, '.clasp.json'))) {
    throw new Error(
      `No .clasp.json: run "npx clasp login", then "npx clasp create --type sheets --title 'Linen Connect' --rootDir dist/apps-script" (see apps-script/README.md).`,
    );
  }
  const res = spawnSync('npx', ['clasp', 'push', '--force'], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`clasp push failed (exit ${res.status ?? 'signal'})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : String(e));
    process.exitCode = 1;
  });
}
