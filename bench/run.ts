/**
 * `npm run bench`: prints the figures the README quotes. Every number comes from a run on this machine,
 * against the sandbox on loopback; nothing here asserts, it only measures.
 */
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { loadSandboxData, startSandbox } from '../sandbox/index.ts';
import type { AsyncTransport } from '../shared/index.ts';
import { createLinenClient } from '../shared/node.ts';
import { benchBundleLoad } from './bundle-load.ts';
import { measureCeiling } from './ceiling.ts';
import { benchDigests } from './digests.ts';
import { benchRefresh } from './refresh.ts';
import { benchSheets } from './sheets.ts';
import { benchSlack } from './slack.ts';

const KEY = 'lk_live_demo_all_access';
const TODAY = '2026-11-05';
const TZ = 'America/Chicago';

const rows: [string, string][] = [];
const record = (name: string, value: string) => {
  rows.push([name, value]);
  console.log(`${name.padEnd(64)} ${value}`);
};
const ms = (x: number) => `${x.toFixed(1)} ms`;
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Counts what a client really sends, by status. */
function counting(inner: AsyncTransport) {
  const statuses = new Map<number, number>();
  const transport: AsyncTransport = {
    async request(req, opts) {
      const res = await inner.request(req, opts);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return res;
    },
    close: async () => {
      await inner.close?.();
    },
  };
  return { transport, statuses, total: () => [...statuses.values()].reduce((a, b) => a + b, 0) };
}

async function benchSeed(): Promise<void> {
  const heapBefore = process.memoryUsage().heapUsed;
  const started = performance.now();
  const data = await loadSandboxData({ today: TODAY, timeZone: TZ, seed: 'bench' });
  const elapsed = performance.now() - started;
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  record('sandbox: generate seeded data (180 days)', `${ms(elapsed)}, ~${heap.toFixed(0)} MiB heap`);
  record(
    'sandbox: seeded rows',
    `${data.manifests.length} manifests, ${data.daily_deliveries.length} daily rows, ${data.cart_counts.length} counts, ${data.invoices.length} invoices`,
  );
}

async function benchSandboxLatency(): Promise<void> {
  const sandbox = await startSandbox({ port: 0, today: TODAY, rateLimit: { limit: 1e9, windowMs: 60_000 } });
  const headers = { authorization: `Bearer ${KEY}` };
  const targets = [
    ['/customers', 'GET /customers'],
    ['/manifests?limit=200', 'GET /manifests?limit=200'],
    ['/deliveries/daily?limit=200&from=2026-08-06&to=2026-11-05', 'GET /deliveries/daily 92 days, limit=200'],
  ] as const;
  for (const [path, label] of targets) {
    for (let i = 0; i < 20; i++) await (await fetch(sandbox.baseUrl + path, { headers })).arrayBuffer(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      await (await fetch(sandbox.baseUrl + path, { headers })).arrayBuffer();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    record(
      `sandbox: ${label} latency (200 sequential)`,
      `p50 ${ms(percentile(times, 50))}, p95 ${ms(percentile(times, 95))}`,
    );
  }
  const concurrency = 16;
  const total = 2000;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < total) await (await fetch(`${sandbox.baseUrl}/invoices?limit=50`, { headers })).arrayBuffer();
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  record(`sandbox: GET /invoices throughput (${concurrency} concurrent)`, `${(total / seconds).toFixed(0)} req/s`);
  await sandbox.close();
}

async function benchClientEconomy(): Promise<void> {
  const { UndiciTransport } = await import('../shared/node.ts');
  const clientFor = (baseUrl: string, pacing: { limit: number; windowMs: number }) => {
    const counter = counting(new UndiciTransport());
    const client = createLinenClient({ apiKey: KEY, baseUrl, timeZone: TZ, transport: counter.transport, pacing });
    return { client, counter };
  };

  // Pacing: 30 per 3 s is the real 120 per minute, 20 times faster, so the run stays short (bench/ceiling.ts).
  const ceiling = await measureCeiling();
  record(
    `client: walk ${ceiling.rows} manifests, 20 a page, under a 30 req / 3 s limit`,
    `${ceiling.requests} requests, ${ceiling.rateLimited} answered 429, ${(ceiling.fraction * 100).toFixed(1)} % of the ceiling`,
  );

  // The rest under the real limit (120 per minute), each with a fresh client.
  const sandbox = await startSandbox({ port: 0, today: TODAY });
  const measure = async (label: string, work: (client: ReturnType<typeof clientFor>['client']) => Promise<string>) => {
    const { client, counter } = clientFor(sandbox.baseUrl, { limit: 120, windowMs: 60_000 });
    const t = performance.now();
    const what = await work(client);
    record(label, `${what}${counter.total()} requests, ${ms(performance.now() - t)}`);
    await client.close();
  };
  await measure('client: walk every manifest at the bulk page size (200)', async (client) => {
    let count = 0;
    for await (const _ of client.manifests.list()) count++;
    return `${count} manifests, `;
  });
  await measure('client: 200-day daily deliveries, one customer (split into <= 92-day windows)', async (client) => {
    const mercy = sandbox.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const all = await client.deliveries.daily({ customerId: mercy.id, from: '2026-04-20', to: '2026-11-05' }).all();
    return `${all.length} rows, `;
  });
  await measure('client: fill-rate report, one customer, 31 days', async (client) => {
    const mercy = sandbox.data.customers.find((c) => c.name === 'Mercy General Hospital')!;
    const report = await client.reports.fillRate({ customerId: mercy.id, from: '2026-10-01', to: '2026-10-31' });
    return `${report.fillRate === null ? 'n/a' : `${(report.fillRate * 100).toFixed(1)} %`}, `;
  });
  await measure('client: find ticket TKT-26-00417 by its number', async (client) => {
    const ticket = await client.reports.findTicket('TKT-26-00417');
    return `${ticket.status_label}, `;
  });
  await sandbox.close();
}

async function benchBundle(): Promise<void> {
  const result = await build({
    entryPoints: ['shared/index.ts'],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'Linen',
    platform: 'neutral',
    target: 'es2020',
    write: false,
    logLevel: 'silent',
  });
  const bytes = result.outputFiles[0]!.contents.length;
  record('client: Apps Script-safe bundle of shared/ (esbuild, minified)', `${(bytes / 1024).toFixed(1)} KiB`);
}

console.log(`linen-connect benchmarks, Node ${process.version}, ${new Date().toISOString()}\n`);
await benchSeed();
await benchSandboxLatency();
await benchClientEconomy();
await benchBundle();
await benchSheets(record);
await benchBundleLoad(record);
await benchRefresh(record);
await benchSlack(record);
await benchDigests(record);
process.exit(0);
