/**
 * A pass-through HTTP proxy in front of the sandbox that notes when each answer left and with which status, so a
 * test can see the traffic of several processes as the API saw it (how many, how fast, how many 429s).
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  /** The proxy's address with the target's path, e.g. `http://127.0.0.1:PORT/v1`. */
  baseUrl: string;
  /** Every answer: `Date.now()` when the target answered, and its status. */
  answers: { at: number; status: number }[];
  close(): Promise<void>;
}

export async function startRecordingProxy(targetBaseUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetBaseUrl);
  const answers: RecordingProxy['answers'] = [];
  const server = createServer((req, res) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        answers.push({ at: Date.now(), status: up.statusCode ?? 0 });
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${target.pathname}`,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * How close a run came to the rate limit. A sliding window of `limit` per `windowMs` lets each of its `limit`
 * slots serve a request every `windowMs` at best; the run reused them every `mean(t[j + limit] - t[j])` on
 * average, so its rate over the ceiling is `windowMs` over that mean. 1 is the ceiling; above 1 only if the limit
 * was broken. Neither a slow start nor a short tail counts against it: only how soon each slot was used again.
 */
export function ceilingFraction(times: readonly number[], limit: number, windowMs: number): number {
  if (times.length <= limit) return 1;
  const sorted = [...times].sort((a, b) => a - b);
  let reuse = 0;
  for (let j = 0; j + limit < sorted.length; j++) reuse += sorted[j + limit]! - sorted[j]!;
  return windowMs / (reuse / (sorted.length - limit));
}
