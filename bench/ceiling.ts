/**
 * How close the client's pacing comes to the API's rate limit: a bulk pull (every manifest, a small page at a
 * time) under a limit scaled from 120 a minute to 30 per 3 s, so the run is short. The sandbox enforces the
 * limit; the figures come from the answers it gave. `fraction` is the achieved rate over the ceiling
 * (`ceilingFraction`: the shortest time the limit allows for that many requests, over the time they took).
 *
 * `measureCeiling`: one client. `measureSharedCeiling`: several clients in separate processes sharing the key's
 * pacing through PostgreSQL, as bot replicas do.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type AsyncTransport, createLinenClient, UndiciTransport } from '../shared/node.ts';
import { dropSchema, freshSchema } from '../test/support/digest-db.ts';
import { ceilingFraction, startRecordingProxy } from '../test/support/recording-proxy.ts';
import { startWorkerSandbox } from '../test/support/worker-sandbox.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const CLIENT_SCRIPT = fileURLToPath(new URL('./ceiling-client.ts', import.meta.url));

export interface CeilingOptions {
  /** The scaled limit (default 30 per 3 000 ms: 120 a minute, 20 times faster). */
  limit?: number;
  windowMs?: number;
  /** Rows per page (default 20: many requests for the rows). */
  pageSize?: number;
}

export interface CeilingFigures {
  /** Achieved rate over the ceiling, 0..1. */
  fraction: number;
  /** Requests answered 429. */
  rateLimited: number;
  requests: number;
  rows: number;
  seconds: number;
}

/** Figures from the answers the API gave: `Date.now()` of each answer and its status. */
function figures(answers: readonly Answer[], o: Required<CeilingOptions>, rows: number, started: number) {
  return {
    fraction: ceilingFraction(
      answers.map((a) => a.at),
      o.limit,
      o.windowMs,
    ),
    rateLimited: answers.filter((a) => a.status === 429).length,
    requests: answers.length,
    rows,
    seconds: (Date.now() - started) / 1000,
  };
}

interface Answer {
  at: number;
  status: number;
}

const withDefaults = (opts: CeilingOptions): Required<CeilingOptions> => ({
  limit: 30,
  windowMs: 3_000,
  pageSize: 20,
  ...opts,
});

/**
 * One client pulls every manifest under the scaled limit, with the product's default pacing at that limit. The
 * sandbox runs in its own thread, as the API runs elsewhere: its work does not hold up the client's.
 */
export async function measureCeiling(opts: CeilingOptions = {}): Promise<CeilingFigures> {
  const o = withDefaults(opts);
  const sandbox = await startWorkerSandbox({ today: TODAY, rateLimit: { limit: o.limit, windowMs: o.windowMs } });
  const inner = new UndiciTransport();
  const answers: Answer[] = [];
  const transport: AsyncTransport = {
    async request(req, options) {
      const res = await inner.request(req, options);
      answers.push({ at: Date.now(), status: res.status });
      return res;
    },
    close: () => inner.close(),
  };
  try {
    const client = createLinenClient({
      apiKey: KEY,
      baseUrl: sandbox.baseUrl,
      timeZone: 'America/Chicago',
      transport,
      pacing: { limit: o.limit, windowMs: o.windowMs },
    });
    const started = Date.now();
    let rows = 0;
    for await (const _ of client.manifests.list({ limit: o.pageSize })) rows++;
    await client.close();
    return figures(answers, o, rows, started);
  } finally {
    await sandbox.close();
  }
}

export interface SharedCeilingOptions extends CeilingOptions {
  /** A PostgreSQL server; a fresh schema is made in it and dropped afterwards. */
  databaseUrl: string;
  /** Clients, each in its own process, each pulling every manifest (default 3). */
  clients?: number;
}

/**
 * Several client processes sharing one key's pacing in PostgreSQL, all pulling at once; the sandbox in its own
 * thread behind a recording proxy that sees every answer.
 */
export async function measureSharedCeiling(opts: SharedCeilingOptions): Promise<CeilingFigures> {
  const o = withDefaults(opts);
  const sandbox = await startWorkerSandbox({ today: TODAY, rateLimit: { limit: o.limit, windowMs: o.windowMs } });
  const proxy = await startRecordingProxy(sandbox.baseUrl);
  const schema = freshSchema();
  const admin = new pg.Client({ connectionString: opts.databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const env = {
    ...process.env,
    DATABASE_URL: opts.databaseUrl,
    CEILING_SCHEMA: schema,
    LINEN_API_KEY: KEY,
    LINEN_BASE_URL: proxy.baseUrl,
    CEILING_LIMIT: String(o.limit),
    CEILING_WINDOW_MS: String(o.windowMs),
    CEILING_PAGE_SIZE: String(o.pageSize),
  };
  try {
    const started = Date.now();
    const rows = await Promise.all(Array.from({ length: opts.clients ?? 3 }, () => runClient(env)));
    return figures(
      proxy.answers,
      o,
      rows.reduce((a, b) => a + b, 0),
      started,
    );
  } finally {
    await dropSchema(opts.databaseUrl, schema);
    await proxy.close();
    await sandbox.close();
  }
}

function runClient(env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLIENT_SCRIPT], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  return new Promise<number>((resolve, reject) =>
    child.once('exit', (code) => {
      const m = /DONE (\d+)/.exec(out);
      if (code === 0 && m) resolve(Number(m[1]));
      else reject(new Error(`a ceiling client exited with code ${code}`));
    }),
  );
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  console.log('one client:', await measureCeiling());
  const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (url) console.log('three clients, shared pacing:', await measureSharedCeiling({ databaseUrl: url }));
  else console.log('three clients, shared pacing: not measured (set DATABASE_URL)');
  process.exit(0);
}
