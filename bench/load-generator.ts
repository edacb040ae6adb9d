/**
 * The load generator of the acknowledgement benchmarks: a worker thread (off the event loop of the process under
 * test) that POSTs prepared requests all at once with undici's `request` over kept-alive connections and times
 * each to its HTTP answer. Requests are signed before they are handed over: a platform's signing is not the bot's
 * time.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface PreparedPost {
  body: string;
  headers: Record<string, string>;
}

const LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { Agent, request } = require(workerData.undici);
const dispatcher = new Agent({ connections: 64, keepAliveTimeout: 60000 });
parentPort.on('message', async ({ url, posts }) => {
  const results = await Promise.all(posts.map(async ({ body, headers }) => {
    const t = performance.now();
    const res = await request(url, { method: 'POST', dispatcher, headers, body });
    await res.body.dump();
    return { status: res.statusCode, ms: performance.now() - t };
  }));
  parentPort.postMessage(results);
});
`;

export function loadGenerator() {
  const worker = new Worker(LOAD_WORKER, {
    eval: true,
    workerData: { undici: createRequire(import.meta.url).resolve('undici') },
  });
  worker.setMaxListeners(0);
  return {
    send: (url: string, posts: PreparedPost[]) =>
      new Promise<{ status: number; ms: number }[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
        worker.postMessage({ url, posts });
      }),
    close: () => worker.terminate(),
  };
}

/** The value at percentile `p` (0–100) of `xs`. */
export const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
