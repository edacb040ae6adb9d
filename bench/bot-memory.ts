/**
 * The built bot's resident memory (bundled, plain `node`, single-workspace mode), idle for 8 seconds after its
 * digest worker started: first start on an empty embedded store folder, a restart on that same folder, and a
 * restart on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, a fresh schema dropped afterwards) as the
 * baseline. Each start is a new process; its peak (VmHWM) is given beside the idle figure.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { buildService } from '../scripts/build-service.ts';
import { peakRssMb, rssMb } from './process-memory.ts';
import { Results, ratioOf, round } from './results.ts';

const IDLE_MS = 8000;
const TARGETS = { firstStartMb: 300, idleMb: 200, idleRatioToPg: 2.5 };

interface Idle {
  rssMb: number;
  peakMb: number;
  /** From spawn to the digest worker's start. */
  readyMs: number;
}

/** Starts the bundle with `store` settings, waits for its digest worker and 8 idle seconds, then stops it. */
async function idleBot(bundle: string, store: Record<string, string>): Promise<Idle> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  Object.assign(env, {
    SLACK_BOT_TOKEN: 'xoxb-bench-token',
    SLACK_SIGNING_SECRET: 'benchsigningsecret0123456789abcd',
    // Idle: nothing is asked of the API.
    LINEN_BASE_URL: 'http://127.0.0.1:9/v1',
    LINEN_API_KEY: 'lk_live_demo_all_access',
    LINEN_TIMEZONE: 'America/Chicago',
    PORT: '0',
    ...store,
  });
  const started = Date.now();
  const child = spawn(process.execPath, [bundle], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d.toString();
        if (/digests: worker .* started/.test(output)) resolve();
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`the bot exited with ${code} before starting:\n${output}`)));
    });
    const readyMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    return { rssMb: rssMb(child.pid!), peakMb: peakRssMb(child.pid!), readyMs };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** A fresh schema on `url`, as a DATABASE_URL whose connections keep their tables there. */
async function freshSchemaUrl(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_idle_${randomBytes(4).toString('hex')}`;
  const sql = async (text: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  await sql(`CREATE SCHEMA ${schema}`);
  const withSchema = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return { url: withSchema, drop: () => sql(`DROP SCHEMA IF EXISTS ${schema} CASCADE`) };
}

const seconds = (ms: number) => `${round(ms / 1000, 1)} s`;

export async function benchBotMemory(results: Results): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'linen-bench-memory-'));
  try {
    const bundle = await buildService({ outfile: join(work, 'bot', 'index.js') });
    const url = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    let onPg: Idle | null = null;
    if (url) {
      const db = await freshSchemaUrl(url);
      try {
        // Measured on a restart, as the embedded store is: the first start migrates the schema.
        await idleBot(bundle, { DATABASE_URL: db.url });
        onPg = await idleBot(bundle, { DATABASE_URL: db.url });
      } finally {
        await db.drop();
      }
    }
    const dataDir = join(work, 'data');
    const first = await idleBot(bundle, { LINEN_DATA_DIR: dataDir });
    const again = await idleBot(bundle, { LINEN_DATA_DIR: dataDir });

    const pgValue = onPg ? round(onPg.rssMb, 0) : null;
    results.add({
      id: 'bot.idle_rss_mb.pg',
      label: onPg
        ? `Bot (built, single workspace) on PostgreSQL, restarted: resident memory idle 8 s after start (peak ${round(onPg.peakMb, 0)} MiB; started in ${seconds(onPg.readyMs)})`
        : 'Bot (built, single workspace) on PostgreSQL: resident memory idle (no BENCH_DATABASE_URL or TEST_DATABASE_URL)',
      value: pgValue,
      unit: 'MiB',
    });
    const firstValue = round(first.rssMb, 0);
    results.add({
      id: 'bot.first_start_rss_mb.embedded',
      label: `Bot (built, single workspace) on the embedded store, first start on an empty folder: resident memory idle 8 s after start (peak ${round(first.peakMb, 0)} MiB; started in ${seconds(first.readyMs)})`,
      value: firstValue,
      unit: 'MiB',
      target: `<= ${TARGETS.firstStartMb} MiB`,
      met: firstValue <= TARGETS.firstStartMb,
    });
    const idleValue = round(again.rssMb, 0);
    const ratio = ratioOf(idleValue, pgValue);
    results.add({
      id: 'bot.idle_rss_mb.embedded',
      label: `Bot (built, single workspace) on the embedded store, restarted on its folder: resident memory idle 8 s after start (peak ${round(again.peakMb, 0)} MiB; started in ${seconds(again.readyMs)}); baseline: the same bot on PostgreSQL`,
      value: idleValue,
      unit: 'MiB',
      baseline: pgValue,
      ratio,
      target: `<= ${TARGETS.idleMb} MiB and ratio <= ${TARGETS.idleRatioToPg}`,
      met: idleValue <= TARGETS.idleMb && ratio !== null && ratio <= TARGETS.idleRatioToPg,
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchBotMemory(new Results());
  process.exit(0);
}
