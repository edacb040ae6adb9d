/**
 * `npm run admin` as an operator meets it: a usage mistake exits 2 with one usage sentence; a store that cannot be
 * opened (a PGlite folder held by a process that does not answer for it, PostgreSQL not answering) exits 1 with one
 * sentence and no stack or password; an empty store says so; a single-workspace store says its key is not in the
 * store. While the service runs on a PGlite folder the command asks it over the socket in the folder (0600, gone
 * once it stops); a socket left by a killed service is read past, or replaced by the next one; a socket nobody
 * answers on, one this user may not open, or an answer it does not read is one sentence and exit 1.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyRefOf } from '../../../base/key-ref.ts';
import { AlertStore } from '../../../chat/alerts/storage/store.ts';
import { digestStoreOver } from '../../../chat/digests/storage/index.ts';
import { runAdmin } from '../../../service/admin/run.ts';
import { postponeDigests, startService } from '../../support/admin-service.ts';
import { type AdminStore, adminStore, NOW, SECRETS, seed, TEAM_A, TEAM_B } from '../../support/admin-store.ts';
import { drivers, newSubscription } from '../../support/digest-db.ts';

const ENV_KEY = 'lk_live_demo_single_workspace_7e8f';

/** The admin command in its own process, as `npm run admin` starts it, with only the given store settings. */
function cli(
  args: string[],
  env: Record<string, string>,
  as?: { uid: number; gid: number },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(SLACK_|LINEN_|DATABASE_URL$)/.test(k)) clean[k] = v;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join('service', 'admin', 'cli.ts'), ...args],
      { env: { ...clean, ...env }, cwd: process.cwd(), ...as },
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

  it('a PGlite folder held by a process with no status socket (a bot before it): one sentence naming the pid, exit 1', async () => {
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
        newSubscription({ orgId: 'T0ONE', keyRef: keyRefOf(ENV_KEY), channelId: 'C0OPS' }),
        NOW,
        new Date(NOW.getTime() + 3_600_000),
      );
      await new AlertStore(db).createAlert(
        {
          platform: 'slack',
          orgId: 'T0ONE',
          keyRef: keyRefOf(ENV_KEY),
          kind: 'ticket',
          options: {},
          customerIds: [],
          timeZone: 'America/Chicago',
          channelId: 'C0OPS',
          channelName: null,
          serviceUrl: null,
          direct: false,
          createdBy: 'U0ALICE',
          seen: [],
        },
        NOW,
        new Date(NOW.getTime() + 600_000),
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
    expect(out).toMatch(
      / ticket +quality tickets opened or changing status at every customer +#C0OPS +…7e8f \(LINEN_API_KEY\) +active +not yet +none yet /,
    );
    expect((await status(store.env)).out).toMatch(/#C0OPS .* not connected +active/);
  }, 90_000);
});

const noSecretIn = (text: string) => SECRETS.filter((s) => text.includes(s));

describe('npm run admin -- status while the service runs on a PGlite folder', () => {
  let store: AdminStore;
  let folder: string;
  let socket: string;
  beforeAll(async () => {
    store = adminStore('pglite');
    folder = join(store.env.LINEN_DATA_DIR!, 'digests');
    socket = join(store.env.LINEN_DATA_DIR!, 'status.sock');
    const db = await store.open();
    try {
      await seed(db);
      await postponeDigests(db);
    } finally {
      await db.close();
    }
  }, 120_000);
  afterAll(async () => {
    await store?.remove();
  });

  it('status and --json answer the live report and exit 0; the socket is 0600, and gone once the service stops', async () => {
    const service = await startService(store.env);
    try {
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      const live = `PGlite in ${folder}, read by the running service (pid ${service.pid})`;
      const text = await cli(['status'], store.env);
      expect({ code: text.code, stderr: text.stderr }).toEqual({ code: 0, stderr: '' });
      expect(text.stdout.split('\n')[0]).toMatch(/^linen-connect status at \S+Z, store: (.*)$/);
      expect(text.stdout.split('\n')[0]!.endsWith(`store: ${live}`)).toBe(true);
      for (const title of ['Workspaces (2)', 'Connections (3)', 'Subscriptions (4)', 'Failing (2)'])
        expect(text.stdout).toContain(`\n${title}\n`);
      expect(text.stdout).toMatch(/\nslack +T0BBB +\S+ +#C0GONE +failing .* \(channel_not_found\)\n/);
      expect(noSecretIn(text.stdout)).toEqual([]);

      const json = await cli(['status', '--json'], store.env);
      expect({ code: json.code, stderr: json.stderr }).toEqual({ code: 0, stderr: '' });
      const doc = JSON.parse(json.stdout);
      expect(doc).toMatchObject({ store: live, empty: false, environmentKey: null });
      expect(doc.workspaces.map((w: { workspace: string }) => w.workspace)).toEqual([TEAM_A, TEAM_B]);
      expect(doc.connections.map((c: { key: string }) => c.key)).toEqual(['…a1b2', '…9f3c', '…c4d5']);
      expect(doc.subscriptions).toHaveLength(4);
      expect(doc.failing.map((f: { state: string }) => f.state)).toEqual(['failing', 'retrying']);
      expect(noSecretIn(json.stdout)).toEqual([]);
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect(existsSync(socket)).toBe(false);
    const after = await cli(['status', '--json'], store.env);
    expect({ code: after.code, stderr: after.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(after.stdout)).toMatchObject({ store: `PGlite in ${folder}`, empty: false });
    expect(JSON.parse(after.stdout).subscriptions).toHaveLength(4);
  }, 120_000);

  it('a killed service leaves its socket: the command reads the folder past it, and the next service replaces it', async () => {
    const killed = await startService(store.env);
    await killed.kill();
    expect(existsSync(socket)).toBe(true);
    const read = await cli(['status', '--json'], store.env);
    expect({ code: read.code, stderr: read.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(read.stdout)).toMatchObject({ store: `PGlite in ${folder}`, empty: false });

    const next = await startService(store.env);
    try {
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      const asked = await cli(['status', '--json'], store.env);
      expect({ code: asked.code, stderr: asked.stderr }).toEqual({ code: 0, stderr: '' });
      const doc = JSON.parse(asked.stdout);
      expect(doc.store).toBe(`PGlite in ${folder}, read by the running service (pid ${next.pid})`);
      expect(doc.subscriptions).toHaveLength(4);
    } finally {
      expect(await next.stop()).toBe(0);
    }
    expect(existsSync(socket)).toBe(false);
  }, 120_000);
});

/** A socket whose listener is gone: what a service killed with SIGKILL leaves. */
async function staleSocket(path: string): Promise<void> {
  const listener = spawn(
    process.execPath,
    ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => console.log('listening'))`],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve) => listener.stdout!.once('data', () => resolve()));
  const gone = new Promise<void>((resolve) => listener.once('exit', () => resolve()));
  listener.kill('SIGKILL');
  await gone;
}

/** Something else answering on the socket; resolves to its close. */
async function answering(path: string, listener: RequestListener): Promise<() => Promise<void>> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(path, () => resolve()));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('npm run admin -- status: a PGlite folder held by a process that cannot be asked', () => {
  let dir: string;
  let holder: ChildProcess;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'linen-admin-held-'));
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  });
  afterAll(() => {
    holder?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A data folder with a store in it, locked by the holder (a live process that is no service). */
  function held(name: string) {
    const dataDir = join(dir, name);
    mkdirSync(join(dataDir, 'digests'), { recursive: true });
    writeFileSync(join(dataDir, 'digests', 'PG_VERSION'), '17\n');
    writeFileSync(join(dataDir, 'digests.lock'), `${holder.pid}\n`);
    return { env: { LINEN_DATA_DIR: dataDir }, folder: join(dataDir, 'digests'), socket: join(dataDir, 'status.sock') };
  }

  it('a socket nobody answers on: one sentence, exit 1', async () => {
    const { env, folder, socket } = held('stale');
    await staleSocket(socket);
    expect(existsSync(socket)).toBe(true);
    expect(await cli(['status'], env)).toEqual({
      code: 1,
      stdout: '',
      stderr: `linen-admin: The store in ${folder} is in use by process ${holder.pid}, but nothing answers on ${socket} (ECONNREFUSED; a socket left by a service that did not stop cleanly): restart the service, or stop process ${holder.pid} and run this again.\n`,
    });
  }, 60_000);

  it("a socket open only to the service's user: one sentence, exit 1, nothing asked", async () => {
    const { env, socket } = held('private');
    let asked = 0;
    const close = await answering(socket, (_req, res) => {
      asked++;
      res.end();
    });
    try {
      chmodSync(socket, 0o600);
      // Another user: root may open any socket, so the command runs as `nobody`; anyone else is refused by mode 000.
      const root = process.getuid?.() === 0;
      if (root) for (const d of [dir, env.LINEN_DATA_DIR]) chmodSync(d, 0o755);
      else chmodSync(socket, 0o000);
      const result = await cli(['status', '--json'], env, root ? { uid: 65534, gid: 65534 } : undefined);
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `linen-admin: The running service (pid ${holder.pid}) cannot be asked for its status: ${socket} is open only to the user the service runs as (EACCES); run this command as that user.\n`,
      });
      expect(asked).toBe(0);
    } finally {
      await close();
    }
  }, 60_000);

  it('an answer it does not read, and a service that cannot read its store: one sentence each, exit 1', async () => {
    const { env, folder, socket } = held('other');
    let reply: RequestListener = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found\n');
    };
    const close = await answering(socket, (req, res) => reply(req, res));
    try {
      const notRead = `linen-admin: The process holding ${folder} (pid ${holder.pid}) answered on ${socket} with something this command does not read`;
      expect(await status(env)).toEqual({
        code: 1,
        out: '',
        err: `${notRead} (HTTP 404): run the command of the same version as the service.\n`,
      });
      reply = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ service: 'linen-connect', version: 2, pid: holder.pid, report: {} }));
      };
      expect((await status(env, '--json')).err).toBe(
        `${notRead} (HTTP 200): run the command of the same version as the service.\n`,
      );
      reply = (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'relation "digest_runs" does not exist' }));
      };
      expect(await status(env)).toEqual({
        code: 1,
        out: '',
        err: `linen-admin: The running service (pid ${holder.pid}) could not read its store (${folder}): relation "digest_runs" does not exist\n`,
      });
    } finally {
      await close();
    }
  }, 60_000);
});
