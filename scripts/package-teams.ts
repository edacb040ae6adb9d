/**
 * `npm run package:teams`: the Teams app package, dist/teams-bot/linen-connect-teams.zip, with manifest.json and the
 * two icons at the zip's root, as Teams takes it for a custom app upload or an organization's catalog.
 *
 * teams-bot/manifest.json names its settings as `${NAME}` placeholders, filled from the environment:
 * - TEAMS_CLIENT_ID (required): the bot's Application (client) ID, also the app's id;
 * - PUBLIC_HOST (required): the host name the bot is served on (its messaging endpoint is
 *   https://PUBLIC_HOST/api/messages), the app's one valid domain;
 * - TEAMS_APP_VERSION: the app's version, MAJOR.MINOR.PATCH (default: package.json's); Teams takes an update of an
 *   uploaded app only with a higher version;
 * - TEAMS_WEBSITE_URL, TEAMS_PRIVACY_URL, TEAMS_TERMS_URL: the publisher's pages that Teams shows with the app
 *   (default https://PUBLIC_HOST/).
 * A missing or malformed one stops it with one sentence naming it, and nothing is written.
 *
 *   tsx scripts/package-teams.ts [--out file.zip]
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { strToU8, zipSync } from 'fflate';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TEAMS_BOT = join(ROOT, 'teams-bot');
const DEFAULT_OUT = join(ROOT, 'dist', 'teams-bot', 'linen-connect-teams.zip');
/** Zip entries carry this time, so that the same settings always give the same bytes. */
const ENTRY_TIME = new Date('2026-01-01T00:00:00Z');

/** A setting missing or wrong: its message is the one sentence the operator reads. */
export class PackageError extends Error {}

type Env = Record<string, string | undefined>;

/** What the defaults come from besides the environment. */
export interface Context {
  env: Env;
  /** package.json's version. */
  packageVersion: string;
}

interface Setting {
  /** Its value from the environment, its default, or undefined when it is missing. */
  value(context: Context): string | undefined;
  /** Why a value is wrong, as the end of a sentence that starts with the setting's name; undefined when it is right. */
  problem(value: string): string | undefined;
  /** What to set, for the sentence when it is missing. */
  hint: string;
}

const GUID = /^[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

const set = (env: Env, name: string) => {
  const v = env[name]?.trim();
  return v ? v : undefined;
};

const httpsPage = (name: string): Setting => ({
  value: ({ env }) => set(env, name) ?? (set(env, 'PUBLIC_HOST') ? `https://${set(env, 'PUBLIC_HOST')}/` : undefined),
  problem: (v) => (URL.canParse(v) && new URL(v).protocol === 'https:' ? undefined : 'must be an https:// address'),
  hint: 'an https:// address',
});

const SETTINGS: Record<string, Setting> = {
  TEAMS_CLIENT_ID: {
    value: ({ env }) => set(env, 'TEAMS_CLIENT_ID'),
    problem: (v) => (GUID.test(v) ? undefined : 'must be the Application (client) ID of the bot, a GUID'),
    hint: "the Application (client) ID of the bot's Entra app registration",
  },
  PUBLIC_HOST: {
    value: ({ env }) => set(env, 'PUBLIC_HOST'),
    problem: (v) =>
      HOST.test(v) ? undefined : 'must be a host name such as linen-bot.example.com, without https:// or a path',
    hint: 'the host name the bot is served on, such as linen-bot.example.com',
  },
  TEAMS_APP_VERSION: {
    value: ({ env, packageVersion }) => set(env, 'TEAMS_APP_VERSION') ?? packageVersion,
    problem: (v) => (SEMVER.test(v) ? undefined : 'must be a version such as 1.4.0 (MAJOR.MINOR.PATCH)'),
    hint: 'a version such as 1.4.0',
  },
  TEAMS_WEBSITE_URL: httpsPage('TEAMS_WEBSITE_URL'),
  TEAMS_PRIVACY_URL: httpsPage('TEAMS_PRIVACY_URL'),
  TEAMS_TERMS_URL: httpsPage('TEAMS_TERMS_URL'),
};

const PLACEHOLDER = /\$\{([A-Z0-9_]+)\}/g;

/** Every string in a JSON value, replaced by `fill`. */
function mapStrings(value: unknown, fill: (s: string) => string): unknown {
  if (typeof value === 'string') return fill(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fill));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fill)]));
  return value;
}

/** The manifest with every `${NAME}` replaced by its setting; a PackageError names the first one missing or wrong. */
export function fillManifest(template: string, context: Context): string {
  const named = new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!));
  const unknown = [...named].find((name) => !Object.hasOwn(SETTINGS, name));
  if (unknown) throw new PackageError(`teams-bot/manifest.json names \${${unknown}}, which this script does not know.`);
  const values = new Map<string, string>();
  // In the order of SETTINGS: the required ones first, since the defaults of the others come from them.
  for (const [name, setting] of Object.entries(SETTINGS).filter(([n]) => named.has(n))) {
    const value = setting.value(context);
    if (value === undefined) throw new PackageError(`Set ${name} to ${setting.hint}: the Teams app package needs it.`);
    const problem = setting.problem(value);
    if (problem) throw new PackageError(`${name} ${problem} (it is "${value}").`);
    values.set(name, value);
  }
  const filled = mapStrings(JSON.parse(template), (s) =>
    s.replace(PLACEHOLDER, (_, name: string) => values.get(name)!),
  );
  return `${JSON.stringify(filled, null, 2)}\n`;
}

async function packageTeamsApp(env: Env, outFile: string): Promise<void> {
  const packageVersion = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
  const manifest = fillManifest(await readFile(join(TEAMS_BOT, 'manifest.json'), 'utf8'), { env, packageVersion });
  const [color, outline] = await Promise.all([
    readFile(join(TEAMS_BOT, 'icons', 'color.png')),
    readFile(join(TEAMS_BOT, 'icons', 'outline.png')),
  ]);
  const zip = zipSync(
    {
      'manifest.json': [strToU8(manifest), { mtime: ENTRY_TIME }],
      'color.png': [new Uint8Array(color), { mtime: ENTRY_TIME }],
      'outline.png': [new Uint8Array(outline), { mtime: ENTRY_TIME }],
    },
    { level: 9 },
  );
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, zip);
  const version = (JSON.parse(manifest) as { version: string }).version;
  console.log(`wrote ${outFile} (version ${version}, ${zip.length} bytes)`);
}

function outFileOf(argv: string[]): string {
  const i = argv.indexOf('--out');
  if (i === -1) return DEFAULT_OUT;
  const out = argv[i + 1];
  if (!out) throw new PackageError('--out needs the path of the zip to write.');
  return resolve(out);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await packageTeamsApp(process.env, outFileOf(process.argv.slice(2)));
  } catch (e) {
    console.error(e instanceof PackageError ? e.message : `Could not write the Teams app package: ${String(e)}`);
    process.exitCode = 1;
  }
}
