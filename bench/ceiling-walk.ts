/**
 * Rate-limit ceiling: a bulk pull of every manifest, 20 a page, under a scaled limit (30 per 3 s, the real 120 a
 * minute 20 times faster) with the client pacing itself to it. The figure is the achieved pace as a fraction of
 * the ceiling: the least time the sandbox's sliding window allows for that many requests (a full window of
 * requests at once, then one window per further `limit` requests) divided by the time the pull took.
 * The same with three clients in separate processes sharing one key needs shared pacing, not there yet.
 */
import { performance } from 'node:perf_hooks';
import { startSandbox } from '../sandbox/index.ts';
import type { AsyncTransport } from '../shared/index.ts';
import { createLinenClient, UndiciTransport } from '../shared/node.ts';
import { type Results, round } from './results.ts';

const KEY = 'lk_live_demo_all_access';
const LIMIT = 30;
const WINDOW_MS = 3_000;

export async function benchCeiling(results: Results, options: { quick?: boolean } = {}): Promise<void> {
  const pageSize = options.quick ? 40 : 20;
  const sandbox = await startSandbox({
    port: 0,
    today: '2026-11-05',
    rateLimit: { limit: LIMIT, windowMs: WINDOW_MS },
  });
  const inner = new UndiciTransport();
  const statuses: number[] = [];
  const transport: AsyncTransport = {
    async request(req, opts) {
      const res = await inner.request(req, opts);
      statuses.push(res.status);
      return res;
    },
    close: () => inner.close(),
  };
  const client = createLinenClient({
    apiKey: KEY,
    baseUrl: sandbox.baseUrl,
    timeZone: 'America/Chicago',
    transport,
    pacing: { limit: LIMIT, windowMs: WINDOW_MS },
  });
  try {
    const started = performance.now();
    let rows = 0;
    for await (const _ of client.manifests.list({ limit: pageSize })) rows++;
    const elapsed = performance.now() - started;
    const requests = statuses.length;
    const floorMs = (Math.ceil(requests / LIMIT) - 1) * WINDOW_MS;
    const fraction = round(floorMs / elapsed, 3);
    results.add({
      id: 'client.ceiling_fraction',
      label: `Client: bulk pull of ${rows} manifests, ${pageSize} a page, under ${LIMIT} per ${WINDOW_MS / 1000} s: pace as a fraction of the ceiling (${requests} requests in ${(elapsed / 1000).toFixed(1)} s; the limit allows ${floorMs / 1000} s)`,
      value: fraction,
      unit: null,
      target: '>= 0.95',
      met: fraction >= 0.95,
    });
    const answered429 = statuses.filter((s) => s === 429).length;
    results.add({
      id: 'client.ceiling_429s',
      label: 'Client: requests answered 429 during that pull',
      value: answered429,
      unit: 'requests',
      target: '0',
      met: answered429 === 0,
    });
    results.add({
      id: 'client.shared_ceiling_fraction',
      label: 'Client: three processes sharing one key, achieved pace as a fraction of the ceiling (not yet measured)',
      value: null,
    });
  } finally {
    await client.close();
    await sandbox.close();
  }
}
