/**
 * `npm run admin` as an operator meets it: a usage mistake exits 2 with one usage sentence; a store that cannot be
 * opened (a PGlite folder held by a running bot, PostgreSQL not answering) exits 1 with one sentence and no stack
 * or password; an empty store says so; a single-workspace store says its key is not in the store.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { digestStoreOver } from '../../../chat/digests/storage/index.ts';
import { runAdmin } from '../../../service/admin/run.ts';
import { type AdminStore, adminStore, NOW } from '../../support/admin-store.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';

const ENV_KEY = 'lk_live_demo_single_workspace_7e8f';

/** The admin command in its own process, as `npm run admin` starts it, with only the given store settings. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(SLACK_|LINEN_|DATABASE_URL$)/.test(k)) clean[k] = v;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join('service', 'admin', 'cli.ts'), ...args],
      { env: { ...clean, ...env }, cwd: process.cwd() },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

async function status(env: Record<string, string>, ...args: string[]) {
  let out = '';
  let err = '';
  const code = await runAdmin(['status', ...args], env, {
    out: (t) => (out += t),
    err: (t) => (err += t),
    now: () => NOW,
  });
  return { code, out, err };
}

describe('npm run admin: usage and stores it cannot open', () => {
  let dir: string;
  let holder: ChildProcess | undefined;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'linen-admin-cli-'));
  });
  afterAll(() => {
    holder?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an unknown flag or command gets one usage sentence and exit 2', async () => {
    const flag = await cli(['status', '--verbose'], { LINEN_DATA_DIR: dir });
    expect(flag).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'linen-admin: unknown option "--verbose". Usage: npm run admin -- status [--json] (the store of DATABASE_URL, else LINEN_DATA_DIR).\n',
    });
    expect((await status({ LINEN_DATA_DIR: dir }, 'extra')).code).toBe(2);
    let err = '';
    expect(await runAdmin([], {}, { out: () => {}, err: (t) => (err += t) })).toBe(2);
    expect(err).toMatch(/^linen-admin: no command given\. Usage: .*\n$/);
  }, 60_000);

  it('a PGlite folder held by a running bot: one sentence naming the pid, exit 1', async () => {
    const held = join(dir, 'held');
    mkdirSync(join(held, 'digests'), { recursive: true });
    writeFileSync(join(held, 'digests', 'PG_VERSION'), '17\n');
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    writeFileSync(join(held, 'digests.lock'), `${holder.pid}\n`);
    const { code, stdout, stderr } = await cli(['status'], { LINEN_DATA_DIR: held });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr.trim().split('\n')).toEqual([
      `linen-admin: The store in ${join(held, 'digests')} is in use by a running bot (pid ${holder.pid}), and PGlite is one process's database: stop the bot and run this again, or run the bot on PostgreSQL (DATABASE_URL) and point this command at the same database.`,
    ]);
  }, 60_000);

  it('PostgreSQL not answering: one sentence without the password, exit 1', async () => {
    // Put together here so that no connection string with a password sits in the source.
    const url = new URL('postgres://127.0.0.1:1/linen');
    url.username = 'linen';
    url.password = 's3cret-db-password';
    const { code, stdout, stderr } = await cli(['status', '--json'], { DATABASE_URL: url.href });
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toMatch(
      /^linen-admin: Cannot reach the store: PostgreSQL at 127\.0\.0\.1:1\/linen is not answering \(.*ECONNREFUSED.*\); check that the server is up and DATABASE_URL is right\.\n$/,
    );
    expect(stderr).not.toContain('s3cret');
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('a folder with no store yet is an empty store, said in a sentence (and not created)', async () => {
    const empty = join(dir, 'nothing-here');
    expect(await status({ LINEN_DATA_DIR: empty })).toEqual({
      code: 0,
      err: '',
      out: `The store is empty: no workspace has installed the app, no key is connected and no digest is subscribed. (PGlite in ${join(empty, 'digests')})\n`,
    });
    const doc = JSON.parse((await status({ LINEN_DATA_DIR: empty }, '--json')).out);
    expect(doc).toMatchObject({ empty: true, workspaces: [], connections: [], subscriptions: [], failing: [] });
  });
});

describe.each(drivers)('npm run admin -- status of a store on %s', (driver) => {
  let store: AdminStore;
  beforeAll(() => {
    store = adminStore(driver);
  });
  afterAll(async () => {
    await store?.remove();
  });

  it('a store with its tables and no rows is empty', async () => {
    const db = await store.open();
    await db.close();
    const { code, out } = await status(store.env);
    expect(code).toBe(0);
    expect(out).toMatch(/^The store is empty: /);
  }, 90_000);

  it('a single-workspace store has no connection row, and says its key is LINEN_API_KEY', async () => {
    const db = await store.open();
    try {
      const digests = digestStoreOver(db);
      await digests.createSubscription(
        newSubscription({ teamId: 'T0ONE', keyRef: keyRefOf(ENV_KEY), channelId: 'C0OPS' }),
        NOW,
        new Date(NOW.getTime() + 3_600_000),
      );
    } finally {
      await db.close();
    }
    const { code, out } = await status({ ...store.env, LINEN_API_KEY: ENV_KEY });
    expect(code).toBe(0);
    expect(out).not.toContain(ENV_KEY);
    expect(out).toContain(
      'Connections (0)\nNo connection row: a bot for one workspace reads its key from LINEN_API_KEY in its environment, not from the store.\nLINEN_API_KEY here is …7e8f.\n',
    );
    expect(out).toMatch(/T0ONE +- +none stored +- +0 +1\n/);
    expect(out).toMatch(
      /#C0OPS +daily 07:00 America\/Chicago +…7e8f \(LINEN_API_KEY\) +active +\S+ \(in 1 h\) +none yet\n/,
    );
    expect((await status(store.env)).out).toMatch(/#C0OPS .* not connected +active/);
  }, 90_000);
});
