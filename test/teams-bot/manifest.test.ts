/**
 * The Teams app package as `npm run package:teams` writes it (scripts/package-teams.ts run as the operator runs it):
 * the zip's files, the filled manifest against the Teams manifest schema bundled by @microsoft/app-manifest
 * (offline), what the manifest offers, the icons, and a setting missing or wrong stopping it with one sentence.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_WORDS, SUBCOMMANDS } from '../../chat/answers/grammar.ts';
import { colorIcon, outlineIcon } from '../../scripts/teams-icons.ts';
import { SCHEMA_MANIFEST_VERSION, teamsManifestErrors } from '../support/teams-manifest-schema.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT_ID = '8f0a5c1e-3b2d-4c6e-9a7f-1e2d3c4b5a69';
const HOST = 'linen-bot.example.com';

/** The settings the script reads, as an operator sets them; the rest of the environment without any of them. */
function envWith(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(TEAMS_|PUBLIC_HOST$)/.test(k)) env[k] = v;
  return { ...env, ...settings };
}

/** Runs `npm run package:teams`'s script with these settings, writing to `out`. */
function packageTeams(settings: Record<string, string>, out: string) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/package-teams.ts', '--out', out], {
    cwd: ROOT,
    env: envWith(settings),
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.trim() };
}

let dir: string;
let files: Record<string, Uint8Array>;
let manifest: any;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'teams-package-'));
  const out = join(dir, 'linen-connect-teams.zip');
  const run = packageTeams({ TEAMS_CLIENT_ID: CLIENT_ID, PUBLIC_HOST: HOST, TEAMS_APP_VERSION: '1.4.0' }, out);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  files = unzipSync(readFileSync(out));
  manifest = JSON.parse(strFromU8(files['manifest.json']!));
}, 30_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Teams app package', () => {
  it('holds manifest.json and the two icons at its root, and nothing else', () => {
    expect(Object.keys(files).sort()).toEqual(['color.png', 'manifest.json', 'outline.png']);
  });

  it('has a manifest that validates against the Teams schema bundled by @microsoft/app-manifest', () => {
    expect(manifest.manifestVersion).toBe(SCHEMA_MANIFEST_VERSION);
    expect(manifest.$schema).toBe(
      `https://developer.microsoft.com/json-schemas/teams/v${SCHEMA_MANIFEST_VERSION}/MicrosoftTeams.schema.json`,
    );
    expect(teamsManifestErrors(manifest)).toEqual([]);
  });

  it('would fail the schema check for a manifest Teams refuses (the check can fail)', () => {
    const broken = { ...manifest, bots: [{ ...manifest.bots[0], botId: 'not-a-guid' }], accentColor: 'teal' };
    expect(teamsManifestErrors(broken).join('\n')).toMatch(/botId[\s\S]*accentColor|accentColor[\s\S]*botId/);
  });

  it('fills every placeholder: the client id as the app and bot ids, the host as the valid domain, the version', () => {
    const text = strFromU8(files['manifest.json']!);
    expect(text).not.toMatch(/\$\{/);
    expect(manifest.id).toBe(CLIENT_ID);
    expect(manifest.bots[0].botId).toBe(CLIENT_ID);
    expect(manifest.composeExtensions[0].botId).toBe(CLIENT_ID);
    expect(manifest.validDomains).toEqual([HOST]);
    expect(manifest.version).toBe('1.4.0');
    expect(manifest.developer.privacyUrl).toBe(`https://${HOST}/`);
  });

  it('offers the bot in 1:1 chats, teams and group chats, with files (PDFs in the 1:1 chat)', () => {
    const [bot] = manifest.bots;
    expect([...bot.scopes].sort()).toEqual(['groupChat', 'personal', 'team']);
    expect(bot.supportsFiles).toBe(true);
    expect(bot.isNotificationOnly).toBe(false);
  });

  it('lists every command of the grammar, connect and status across its command lists, each within Teams’ limits', () => {
    const lists: { scopes: string[]; commands: { title: string; description: string }[] }[] =
      manifest.bots[0].commandLists;
    const titles = new Set(lists.flatMap((l) => l.commands.map((c) => c.title)));
    // Every subcommand of the grammar, and the two an administrator needs first; nothing the bot does not answer.
    for (const command of [...SUBCOMMANDS, 'connect', 'status']) expect(titles).toContain(command);
    for (const title of titles) expect([...SUBCOMMANDS, ...CONNECTION_WORDS]).toContain(title);
    expect(lists.flatMap((l) => l.scopes).sort()).toEqual(['groupChat', 'personal', 'team']);
    for (const list of lists) {
      expect(list.commands.length).toBeLessThanOrEqual(12);
      for (const c of list.commands) {
        expect(c.title.length).toBeLessThanOrEqual(32);
        expect(c.description.length).toBeLessThanOrEqual(128);
      }
    }
    const personal = lists.find((l) => l.scopes.includes('personal'))!.commands.map((c) => c.title);
    expect(personal).toContain('connect');
  });

  it('has one message extension with one search command, linen, taking one parameter, query', () => {
    expect(manifest.composeExtensions).toHaveLength(1);
    const [command, ...others] = manifest.composeExtensions[0].commands;
    expect(others).toEqual([]);
    expect(command).toMatchObject({ id: 'linen', type: 'query' });
    expect(command.parameters.map((p: { name: string }) => p.name)).toEqual(['query']);
  });

  it('has a 192×192 colour icon, opaque, and a 32×32 outline icon, white on transparent', () => {
    const color = PNG.sync.read(Buffer.from(files['color.png']!));
    const outline = PNG.sync.read(Buffer.from(files['outline.png']!));
    expect([color.width, color.height]).toEqual([192, 192]);
    expect([outline.width, outline.height]).toEqual([32, 32]);
    const pixels = (png: PNG) =>
      Array.from({ length: png.width * png.height }, (_, i) => [...png.data.subarray(i * 4, i * 4 + 4)]);
    expect(pixels(color).every(([, , , a]) => a === 255)).toBe(true);
    const drawn = pixels(outline).filter(([, , , a]) => a! > 0);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.every(([r, g, b]) => r === 255 && g === 255 && b === 255)).toBe(true);
    expect(pixels(outline).some(([, , , a]) => a === 0)).toBe(true);
  });

  it('ships the icons scripts/teams-icons.ts draws', () => {
    expect(Buffer.from(files['color.png']!).equals(colorIcon())).toBe(true);
    expect(Buffer.from(files['outline.png']!).equals(outlineIcon())).toBe(true);
  });

  it.each([
    ['TEAMS_CLIENT_ID', { PUBLIC_HOST: HOST }],
    ['PUBLIC_HOST', { TEAMS_CLIENT_ID: CLIENT_ID }],
  ])('stops with one sentence naming %s when it is not set, and writes nothing', (name, settings) => {
    const out = join(dir, `missing-${name}.zip`);
    const run = packageTeams(settings, out);
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(new RegExp(`^Set ${name} to .+\\.$`));
    expect(existsSync(out)).toBe(false);
  });

  it.each([
    ['TEAMS_CLIENT_ID', 'linen-bot'],
    ['PUBLIC_HOST', `https://${HOST}/api/messages`],
    ['TEAMS_APP_VERSION', '1.4'],
    ['TEAMS_PRIVACY_URL', 'http://example.com/privacy'],
  ])('stops with one sentence naming %s when it is malformed (%s)', (name, value) => {
    const out = join(dir, `malformed-${name}.zip`);
    const run = packageTeams({ TEAMS_CLIENT_ID: CLIENT_ID, PUBLIC_HOST: HOST, [name]: value }, out);
    expect(run.status).toBe(1);
    expect(run.stderr.split('\n')).toHaveLength(1);
    expect(run.stderr.startsWith(`${name} must be `)).toBe(true);
    expect(existsSync(out)).toBe(false);
  });
});
