/**
 * Test helpers for the client suites.
 *
 * A synchronous transport blocks the thread it runs on, so a sandbox serving it must live elsewhere: here
 * the sandbox runs in a worker thread (loaded through tsx), and the synchronous transport hands each request
 * to a second worker that performs it with fetch while the caller waits on Atomics.wait, then picks the
 * answer up with receiveMessageOnPort. Fault injection goes through the sandbox's HTTP control endpoint.
 */
import { request as httpRequest } from 'node:http';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { QueuedFault, SandboxData } from '../../sandbox/index.ts';
import type { AsyncTransport, HttpRequest, HttpResponse, SyncTransport } from '../../shared/index.ts';

const SANDBOX_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import(workerData.tsx);
  const { startSandbox } = await tsImport(workerData.entry, workerData.entry);
  const sb = await startSandbox(workerData.options);
  parentPort.postMessage({ baseUrl: sb.baseUrl, origin: sb.origin, data: sb.data });
  parentPort.on('message', async (m) => { if (m === 'close') { await sb.close(); parentPort.postMessage('closed'); } });
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

export interface SandboxOptionsLite {
  today?: string;
  timeZone?: string;
  rateLimit?: { limit?: number; windowMs?: number };
  /** Serve these rows instead of the seed's (copied to the worker). */
  data?: SandboxData;
}

export interface WorkerSandbox {
  baseUrl: string;
  origin: string;
  data: SandboxData;
  /** Queue faults for the next requests (`POST /__sandbox/faults`). */
  enqueue(fault: QueuedFault): Promise<void>;
  resetFaults(): Promise<void>;
  /** How many /v1 requests the sandbox received since the start or the last `clearRequests()`. */
  requestCount(): Promise<number>;
  clearRequests(): Promise<void>;
  close(): Promise<void>;
}

export async function startWorkerSandbox(options: SandboxOptionsLite = {}): Promise<WorkerSandbox> {
  const entry = new URL('../../sandbox/index.ts', import.meta.url).href;
  const worker = new Worker(SANDBOX_WORKER, {
    eval: true,
    workerData: { entry, tsx: import.meta.resolve('tsx/esm/api'), options: { port: 0, ...options } },
  });
  const first = await new Promise<{ baseUrl: string; origin: string; data: SandboxData } | { error: string }>(
    (resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    },
  );
  if ('error' in first) throw new Error(first.error);
  const admin = async (body: unknown) => {
    const res = await control(`${first.origin}/__sandbox/faults`, 'POST', JSON.stringify(body));
    if (res.status !== 200) throw new Error(`fault control failed: ${res.status} ${res.text}`);
  };
  return {
    ...first,
    enqueue: (fault) => admin({ enqueue: fault }),
    resetFaults: () => admin({ reset: true }),
    async requestCount() {
      const res = await control(`${first.origin}/__sandbox/requests`, 'GET');
      return (JSON.parse(res.text) as { data: { count: number } }).data.count;
    },
    async clearRequests() {
      await control(`${first.origin}/__sandbox/requests`, 'DELETE');
    },
    async close() {
      const done = new Promise((r) => worker.once('message', r));
      worker.postMessage('close');
      await done;
      await worker.terminate();
    },
  };
}

/**
 * A control request on a connection of its own: a test that blocked this thread (a synchronous cell) for longer
 * than the server's keep-alive would otherwise reuse a pooled socket the server has already closed.
 */
function control(url: string, method: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const HTTP_WORKER = `
const { parentPort } = require('node:worker_threads');
async function one(req, timeoutMs) {
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, signal: AbortSignal.timeout(timeoutMs) });
    const bytes = new Uint8Array(await res.arrayBuffer());
    const headers = {};
    res.headers.forEach((v, k) => { headers[k] = v; });
    return { ok: true, status: res.status, headers, bytes };
  } catch (e) {
    const cause = e && e.cause;
    return { ok: false, name: e && e.name, message: String(e && e.message) + (cause ? ': ' + (cause.code || cause.message) : '') };
  }
}
parentPort.once('message', ({ port }) => {
  port.on('message', async ({ req, batch, timeoutMs, flag }) => {
    const signal = new Int32Array(flag);
    // A batch goes out concurrently, as UrlFetchApp.fetchAll does.
    const reply = batch ? await Promise.all(batch.map((r) => one(r, timeoutMs))) : await one(req, timeoutMs);
    port.postMessage(reply);
    Atomics.store(signal, 0, 1);
    Atomics.notify(signal, 0);
  });
});
`;

type Reply =
  | { ok: true; status: number; headers: Record<string, string>; bytes: Uint8Array }
  | { ok: false; name: string; message: string };

function toResponse(req: HttpRequest, msg: Reply): HttpResponse | Error {
  if (!msg.ok) {
    const e = new Error(msg.message);
    e.name = msg.name === 'TimeoutError' ? 'TimeoutError' : 'FetchError';
    return e;
  }
  const body = req.responseType === 'bytes' ? msg.bytes : new TextDecoder().decode(msg.bytes);
  return { status: msg.status, headers: msg.headers, body };
}

/** A blocking HTTP transport, standing in for Apps Script's UrlFetchApp. */
export class BlockingTransport implements SyncTransport {
  readonly #worker: Worker;
  readonly #port: MessagePort;

  constructor() {
    this.#worker = new Worker(HTTP_WORKER, { eval: true });
    const { port1, port2 } = new MessageChannel();
    this.#worker.postMessage({ port: port2 }, [port2]);
    this.#port = port1;
    this.#worker.unref();
  }

  request(req: HttpRequest, options: { timeoutMs: number }): HttpResponse {
    const msg = this.#ask({ req, timeoutMs: options.timeoutMs }, options.timeoutMs) as Reply | undefined;
    if (!msg) throw new Error('sync transport: no answer');
    const res = toResponse(req, msg);
    if (res instanceof Error) throw res;
    return res;
  }

  /** Several requests sent concurrently; each answer is the response or the failure. */
  requestAll(reqs: HttpRequest[], options: { timeoutMs: number }): (HttpResponse | Error)[] {
    const msgs = this.#ask({ batch: reqs, timeoutMs: options.timeoutMs }, options.timeoutMs) as Reply[] | undefined;
    if (!msgs) throw new Error('sync transport: no answer');
    return reqs.map((req, i) => toResponse(req, msgs[i]!));
  }

  #ask(message: Record<string, unknown>, timeoutMs: number): unknown {
    const flag = new SharedArrayBuffer(4);
    this.#port.postMessage({ ...message, flag });
    Atomics.wait(new Int32Array(flag), 0, 0, timeoutMs + 5_000);
    return receiveMessageOnPort(this.#port)?.message;
  }

  async close(): Promise<void> {
    this.#port.close();
    await this.#worker.terminate();
  }
}

/** Blocking sleep for the sync runner. */
export function blockingSleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Wraps a transport and records every status it saw. */
export function recording<T extends SyncTransport | AsyncTransport>(
  inner: T,
): T & { statuses: number[]; urls: string[] } {
  const statuses: number[] = [];
  const urls: string[] = [];
  const wrap = (res: HttpResponse) => {
    statuses.push(res.status);
    return res;
  };
  const out = {
    statuses,
    urls,
    request(req: HttpRequest, opts: { timeoutMs: number; signal?: AbortSignal }) {
      urls.push(req.url);
      const r = (inner as SyncTransport | AsyncTransport).request(req, opts as never) as
        | HttpResponse
        | Promise<HttpResponse>;
      return r instanceof Promise ? r.then(wrap) : wrap(r);
    },
    close: () => (inner as AsyncTransport).close?.(),
  };
  return out as unknown as T & { statuses: number[]; urls: string[] };
}
