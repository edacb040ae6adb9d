/**
 * Storage faults: PostgreSQL going away in the middle of a digest run (a TCP proxy in front of the test server,
 * cut and restored: the shared server itself is never restarted), `/linen` commands while it is away, and a
 * PGlite data folder already held by another process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUseError, StoreUnavailableError } from '../../../base/store/errors.ts';
import { type DigestCommandContext, runDigestCommand } from '../../../chat/digests/digest-answers.ts';
import type { Logger } from '../../../chat/digests/engine.ts';
import { openTestDb, PG_URL, type TestDb } from '../../support/digest-db.ts';
import { CH, commandContext, type DigestEnv, startDigestEnv } from '../../support/digest-env.ts';
import { openServiceStore } from '../../support/service-store.ts';
import { allText, BOT_TOKEN, type Harness, SIGNING_SECRET, startHarness, TZ } from '../../support/slack-harness.ts';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.ts';

const OTHER = 'C0HEALTHY';
const DUE = '2026-11-05T13:00:00Z';
const pgTarget = () => {
  const u = new URL(PG_URL!);
  return { host: u.hostname, port: Number(u.port || 5432) };
};

function capture(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m, d) => lines.push(`info ${m} ${JSON.stringify(d ?? {})}`),
    warn: (m, d) => lines.push(`warn ${m} ${JSON.stringify(d ?? {})}`),
  };
}

describe.runIf(PG_URL)('PostgreSQL going away during a digest run', () => {
  let proxy: TcpProxy;
  let env: DigestEnv;
  let ctx: DigestCommandContext;
  beforeEach(async () => {
    proxy = await startTcpProxy(pgTarget());
    env = await startDigestEnv('pg', { via: proxy.urlFor(PG_URL!) });
    ctx = commandContext(env);
    env.slack.members.add(OTHER);
    await runDigestCommand('subscribe', ctx);
    await runDigestCommand(`subscribe <#${OTHER}|healthy>`, ctx);
  });
  afterEach(async () => {
    proxy.restore();
    await env.close();
    await proxy.close();
  });

  it('cut after the posts, before they are recorded: taken again after the lease, found in the channel, posted once', async () => {
    const logger = capture();
    let cut = false;
    const engine = env.engine({
      logger,
      hooks: {
        afterPost: () => {
          if (!cut) proxy.cut();
          cut = true;
        },
      },
    });
    env.clock.set(DUE);
    const first = await env.tick(engine);
    expect(first.outcomes).toEqual({ lost: 2 });
    expect(logger.lines.filter((l) => l.startsWith('warn could not record a digest run'))).toHaveLength(2);
    expect(env.slack.posts(CH)).toHaveLength(1);
    expect(env.slack.posts(OTHER)).toHaveLength(1);

    proxy.restore();
    // Still leased: nobody takes the runs over before the lease ends.
    expect((await env.tick(engine)).claimed).toBe(0);
    env.clock.advance(121_000);
    expect((await env.tick(engine)).outcomes).toEqual({ recovered: 2 });
    for (const channel of [CH, OTHER]) {
      const posted = env.slack.posts(channel);
      expect(posted).toHaveLength(1);
      const sub = (await env.db.store.listSubscriptions({ channelId: channel }))[0]!;
      expect((await env.db.store.listRuns({ subscriptionId: sub.id })).map((r) => [r.status, r.messageTs])).toEqual([
        ['posted', posted[0]!.ts],
      ]);
    }
  });

  it('cut before a tick: the tick fails with StoreUnavailableError and posts nothing; once back, each digest goes out once', async () => {
    env.clock.set(DUE);
    proxy.cut();
    await expect(env.tick()).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(env.slack.messages).toHaveLength(0);
    proxy.restore();
    expect((await env.tick()).outcomes).toEqual({ posted: 2 });
    expect(env.slack.posts(CH)).toHaveLength(1);
    expect(env.slack.posts(OTHER)).toHaveLength(1);
  });

  it('cut as the first post goes out: after the lease every digest ends posted, each once', async () => {
    let cut = false;
    const engine = env.engine({
      hooks: {
        beforePost: () => {
          if (!cut) proxy.cut();
          cut = true;
        },
      },
    });
    // Slack is up: the first post reaches it; the other digest may not get its `posting` mark.
    env.clock.set(DUE);
    await env.tick(engine);
    proxy.restore();
    env.clock.advance(121_000);
    await env.tick(engine);
    expect(env.slack.posts(CH)).toHaveLength(1);
    expect(env.slack.posts(OTHER)).toHaveLength(1);
    expect((await env.db.store.listRuns()).map((r) => r.status)).toEqual(['posted', 'posted']);
  });
});

describe.runIf(PG_URL)('/linen while the digest database is away', () => {
  let h: Harness;
  let proxy: TcpProxy;
  let db: TestDb;
  beforeAll(async () => {
    proxy = await startTcpProxy(pgTarget());
    db = await openTestDb('pg', { via: proxy.urlFor(PG_URL!) });
    h = await startHarness();
  });
  afterAll(async () => {
    proxy.restore();
    await h?.close();
    await db?.close();
    await proxy?.close();
  });

  it('digest commands answer in one sentence, other commands are answered as usual, and it recovers', async () => {
    const bot = await h.startBotWith({}, { start: { database: db.executor, digests: { worker: false } } });
    h.slack.channels.set('C0LINEN', { name: 'linen-ops-room', member: true });
    const ask = (text: string) => bot.ask(text, { userId: 'U0ADMIN', channelId: 'C0LINEN' });
    expect(allText(await ask('digest list'))).toContain('No digest subscriptions yet.');
    proxy.cut();
    for (const text of ['digest list', 'digest subscribe', 'digest pause d12345']) {
      const m = await ask(text);
      expect(m.text).toBe('The digest store is not answering just now; try again in a minute.');
    }
    expect(allText(await ask('signals'))).toMatch(/signal/i);
    proxy.restore();
    expect(allText(await ask('digest subscribe'))).toMatch(/^Subscribed: `d\w+` <#C0LINEN>/);
    expect(bot.logs.join('\n')).not.toMatch(/unhandled|\n\s+at /);
  });
});

describe('a PGlite data folder already held by another process', () => {
  let dir: string;
  let holder: ChildProcess | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'linen-held-'));
  });
  afterEach(async () => {
    if (holder && holder.exitCode === null) await release();
    holder = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
  const baseEnv = () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!/^(SLACK_|LINEN_|PORT$|DATABASE_URL$)/.test(k)) env[k] = v;
    return env;
  };

  /** Another process with the store open in `dir` (one subscription stored), until killed; its pid. */
  async function holdIt(): Promise<number> {
    const script = join(dir, 'holder.mts');
    writeFileSync(
      script,
      `import { openServiceStore } from ${JSON.stringify(join(process.cwd(), 'test/support/service-store.ts'))};
      const store = await openServiceStore({ dataDir: ${JSON.stringify(dir)} });
      await store.createSubscription({ keyRef: 'k', channelId: 'C1', cadence: 'daily', time: '07:00',
        timeZone: 'UTC', customerIds: [], minSeverity: 'low', allClear: false, createdBy: 'U1' }, new Date(), null);
      process.on('SIGTERM', async () => { await store.close(); process.exit(0); });
      console.log('holding ' + process.pid);
      setInterval(() => {}, 1000);`,
    );
    const child = spawn(tsx, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
    holder = child;
    let out = '';
    return new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /holding (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      child.stderr!.on('data', (d) => (out += d));
      child.once('close', (code) => reject(new Error(`holder exited ${code}: ${out}`)));
    });
  }
  const release = async () => {
    const gone = new Promise((r) => holder!.once('close', r));
    holder!.kill('SIGTERM');
    await gone;
  };

  it('opening it here fails with DataFolderInUseError naming the folder and the pid; the holder keeps its data', async () => {
    const pid = await holdIt();
    const err = await openServiceStore({ dataDir: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFolderInUseError);
    expect((err as Error).message).toBe(
      `the digest store folder ${join(dir, 'digests')} is in use by another process (pid ${pid}); run one bot per LINEN_DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between several`,
    );
    await release();
    // The holder released the folder on its way out: it opens now, with the holder's row intact.
    const store = await openServiceStore({ dataDir: dir });
    expect((await store.listSubscriptions()).map((s) => s.channelId)).toEqual(['C1']);
    await store.close();
  }, 60_000);

  it('the bot started on a held folder exits 1 with one line saying so', async () => {
    const pid = await holdIt();
    const child = spawn(tsx, [join(process.cwd(), 'service', 'index.ts')], {
      env: {
        ...baseEnv(),
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        LINEN_BASE_URL: 'http://127.0.0.1:9/v1',
        LINEN_API_KEY: 'lk_live_demo_all_access',
        LINEN_TIMEZONE: TZ,
        PORT: '0',
        LINEN_DATA_DIR: dir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `linen-bot: could not start: the digest store folder ${join(dir, 'digests')} is in use by another process (pid ${pid}); run one bot per LINEN_DATA_DIR, or set DATABASE_URL to share a PostgreSQL database between several`,
    ]);
  }, 60_000);

  it('a lock left by a process that is gone is taken over', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('close', r));
    writeFileSync(join(dir, 'digests.lock'), `${dead.pid}\n`);
    const store = await openServiceStore({ dataDir: dir });
    expect(readFileSync(join(dir, 'digests.lock'), 'utf8').trim()).toBe(String(process.pid));
    // A second open in this process is refused as well.
    await expect(openServiceStore({ dataDir: dir })).rejects.toBeInstanceOf(DataFolderInUseError);
    await store.close();
    expect(() => readFileSync(join(dir, 'digests.lock'))).toThrow();
  }, 60_000);
});
