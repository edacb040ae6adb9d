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
 * How close a run came to the rate limit: the shortest time the limit allows for `n` requests (`limit` in any
 * `windowMs`: the first `limit` at once, then `limit` more per window) over the time they really took, first to
 * last. 1 is the ceiling; it can only exceed 1 if the limit was broken.
 */
export function ceilingFraction(times: readonly number[], limit: number, windowMs: number): number {
  if (times.length <= limit) return 1;
  const sorted = [...times].sort((a, b) => a - b);
  const span = sorted[sorted.length - 1]! - sorted[0]!;
  const legal = Math.floor((sorted.length - 1) / limit) * windowMs;
  return span > 0 ? legal / span : 1;
}
