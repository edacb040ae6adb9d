/**
 * How the embedded store starts: a new folder is a copy of the prepared data folder (same cluster identity as the
 * template, no initdb in the process), opens, migrates and serves; a restart keeps what it held; Postgres runs with
 * the store's small shared buffers; the built bot copies the prepared folder beside its bundle and starts a new
 * store from it. Memory itself is measured by the benchmark (bench/bot-memory.ts), not here.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../../base/store/pglite.ts';
import { DATA_DIR_TEMPLATE, installedTemplate } from '../../../base/store/pglite-template.ts';
import { buildService } from '../../../scripts/build-service.ts';
import { migrateServiceDatabase } from '../../../service/store.ts';
import { newSubscription } from '../../support/digest-db.ts';
import { openServiceStore, serviceStoreOver } from '../../support/service-store.ts';

const folders: string[] = [];
function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'linen-pglite-start-'));
  folders.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** The cluster's system identifier: initdb draws a new one, a copied folder keeps its template's. */
const clusterId = (folder: string) =>
  readFileSync(join(folder, 'global', 'pg_control'))
    .subarray(0, 8)
    .toString('hex');

describe('a new embedded store', () => {
  it('is a copy of the prepared folder: it opens, migrates and serves, and a restart keeps its rows', async () => {
    const template = await installedTemplate();
    const dataDir = tempFolder();
    const store = await openServiceStore({ dataDir });
    const created = await store.createSubscription(
      newSubscription({ keyRef: 'k1', channelId: 'C0START' }),
      new Date('2026-11-05T12:00:00Z'),
      new Date('2026-11-06T13:00:00Z'),
    );
    await store.close();
    expect(clusterId(join(dataDir, 'digests'))).toBe(clusterId(template));
    // Nothing staged is left beside the store.
    expect(existsSync(join(dataDir, `.digests.${process.pid}.partial`))).toBe(false);

    const again = await openServiceStore({ dataDir });
    try {
      const subs = await again.listSubscriptions();
      expect(subs.map((s) => [s.id, s.channelId])).toEqual([[created.id, 'C0START']]);
    } finally {
      await again.close();
    }
  });

  it('an empty folder (made by hand) is filled from the prepared folder too', async () => {
    const folder = join(tempFolder(), 'digests');
    mkdirSync(folder);
    const db = await openPglite(folder);
    try {
      const store = serviceStoreOver(await migrateServiceDatabase(db));
      expect(await store.listSubscriptions()).toEqual([]);
    } finally {
      await db.close();
    }
    expect(clusterId(folder)).toBe(clusterId(await installedTemplate()));
  });

  it('runs Postgres with 16 MB of shared buffers, on a folder and in memory', async () => {
    for (const db of [await openPglite(join(tempFolder(), 'digests')), await openPglite()]) {
      try {
        expect(await db.query<{ shared_buffers: string }>('SHOW shared_buffers')).toEqual([{ shared_buffers: '16MB' }]);
      } finally {
        await db.close();
      }
    }
  });
});

describe('the built bot', () => {
  it('carries the prepared folder beside its bundle and starts a new store from it', async () => {
    const work = tempFolder();
    const bundle = await buildService({ outfile: join(work, 'bot', 'index.js') });
    const template = join(dirname(bundle), DATA_DIR_TEMPLATE);
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    // As dist/ is, under a package.json that makes its .js files ES modules.
    writeFileSync(join(work, 'package.json'), '{ "type": "module" }\n');

    const dataDir = join(work, 'data');
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LINEN_DATA_DIR: dataDir, SANDBOX_TODAY: '2026-11-05' };
    const { stdout } = await promisify(execFile)(process.execPath, [bundle, '--ask', '/linen digest list'], { env });
    expect(stdout).toMatch(/^No digest subscriptions yet\./);
    expect(clusterId(join(dataDir, 'digests'))).toBe(clusterId(template));
  });
});
