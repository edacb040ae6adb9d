/**
 * The state Apps Script keeps outside an execution: CacheService entries, LockService locks and property
 * stores. `memoryBacking()` holds it in this thread; `startStoreWorker()` holds one in a worker thread that
 * several execution threads reach synchronously (postMessage + Atomics.wait), the way simultaneous
 * executions of a real spreadsheet share one cache and one document lock.
 */
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** CacheService limits: 250-character keys, 100 KB values, 6 hours, 1,000 entries per cache. */
export const CACHE_LIMITS = {
  keyChars: 250,
  valueBytes: 100 * 1024,
  maxTtlSeconds: 21_600,
  maxEntries: 1_000,
} as const;

export interface Backing {
  cacheGet(scope: string, keys: string[]): Record<string, string>;
  cachePut(scope: string, entries: Record<string, string>, ttlSeconds: number): void;
  cacheRemove(scope: string, keys: string[]): void;
  /** Take the named lock for `owner` if free (or already its own). */
  lockTry(name: string, owner: string): boolean;
  lockRelease(name: string, owner: string): void;
  /** Release every lock an execution still holds (Apps Script does this when an execution ends). */
  lockReleaseAll(owner: string): void;
  propsGet(scope: string): Record<string, string>;
  propsSet(scope: string, key: string, value: string | null): void;
  /** Test inspection: how many entries a cache holds. */
  cacheSize(scope: string): number;
  /** Test inspection: every value of every cache. */
  cacheValues(): string[];
}

export function memoryBacking(now: () => number = Date.now): Backing {
  const caches = new Map<string, Map<string, { value: string; expires: number }>>();
  const locks = new Map<string, string>();
  const props = new Map<string, Map<string, string>>();
  const cache = (scope: string) => {
    let c = caches.get(scope);
    if (!c) {
      c = new Map();
      caches.set(scope, c);
    }
    for (const [k, e] of c) if (e.expires <= now()) c.delete(k);
    return c;
  };
  const store = (scope: string) => {
    let p = props.get(scope);
    if (!p) {
      p = new Map();
      props.set(scope, p);
    }
    return p;
  };
  return {
    cacheGet(scope, keys) {
      const c = cache(scope);
      const out: Record<string, string> = {};
      for (const k of keys) {
        const e = c.get(k);
        if (e) out[k] = e.value;
      }
      return out;
    },
    cachePut(scope, entries, ttlSeconds) {
      if (!(ttlSeconds >= 1) || ttlSeconds > CACHE_LIMITS.maxTtlSeconds) {
        throw new Error(`Exception: Argument expirationInSeconds must be between 1 and ${CACHE_LIMITS.maxTtlSeconds}.`);
      }
      for (const [k, v] of Object.entries(entries)) {
        if (typeof v !== 'string') throw new Error('Exception: Invalid argument: value');
        if (k.length > CACHE_LIMITS.keyChars) throw new Error('Exception: Argument too large: key');
        if (Buffer.byteLength(v, 'utf8') > CACHE_LIMITS.valueBytes)
          throw new Error('Exception: Argument too large: value');
      }
      const c = cache(scope);
      for (const [k, v] of Object.entries(entries)) {
        c.delete(k);
        c.set(k, { value: v, expires: now() + ttlSeconds * 1000 });
      }
      // Over the cap, the oldest entries go first.
      while (c.size > CACHE_LIMITS.maxEntries) c.delete(c.keys().next().value as string);
    },
    cacheRemove(scope, keys) {
      const c = cache(scope);
      for (const k of keys) c.delete(k);
    },
    lockTry(name, owner) {
      const held = locks.get(name);
      if (held !== undefined && held !== owner) return false;
      locks.set(name, owner);
      return true;
    },
    lockRelease(name, owner) {
      if (locks.get(name) === owner) locks.delete(name);
    },
    lockReleaseAll(owner) {
      for (const [name, o] of locks) if (o === owner) locks.delete(name);
    },
    propsGet(scope) {
      return Object.fromEntries(store(scope));
    },
    propsSet(scope, key, value) {
      if (value === null) store(scope).delete(key);
      else store(scope).set(key, value);
    },
    cacheSize(scope) {
      return cache(scope).size;
    },
    cacheValues() {
      return [...caches.values()].flatMap((c) => [...c.values()].map((e) => e.value));
    },
  };
}

const METHODS = [
  'cacheGet',
  'cachePut',
  'cacheRemove',
  'lockTry',
  'lockRelease',
  'lockReleaseAll',
  'propsGet',
  'propsSet',
  'cacheSize',
  'cacheValues',
] as const;

/** A Backing whose calls block until the store worker at the other end of `port` answers. */
export function remoteBacking(port: MessagePort): Backing {
  const call = (method: string, args: unknown[]) => {
    const flag = new SharedArrayBuffer(4);
    port.postMessage({ method, args, flag });
    Atomics.wait(new Int32Array(flag), 0, 0, 10_000);
    const msg = receiveMessageOnPort(port)?.message as { ok: boolean; value?: unknown; error?: string } | undefined;
    if (!msg) throw new Error('store worker did not answer');
    if (!msg.ok) throw new Error(msg.error);
    return msg.value;
  };
  return Object.fromEntries(METHODS.map((m) => [m, (...args: unknown[]) => call(m, args)])) as unknown as Backing;
}

const STORE_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const { tsImport } = await import(workerData.tsx);
  const { memoryBacking } = await tsImport(workerData.entry, workerData.entry);
  const backing = memoryBacking();
  parentPort.on('message', (m) => {
    if (m === 'close') return process.exit(0);
    const port = m.port;
    port.on('message', ({ method, args, flag }) => {
      let reply;
      try { reply = { ok: true, value: backing[method](...args) }; } catch (e) { reply = { ok: false, error: String(e && e.message) }; }
      port.postMessage(reply);
      const f = new Int32Array(flag); Atomics.store(f, 0, 1); Atomics.notify(f, 0);
    });
    parentPort.postMessage('connected');
  });
  parentPort.postMessage('ready');
})().catch((e) => parentPort.postMessage({ error: String(e && e.stack || e) }));
`;

export interface StoreWorker {
  /** A new port to the store, to hand to an execution thread (transfer it). */
  connect(): Promise<MessagePort>;
  close(): Promise<void>;
}

export async function startStoreWorker(): Promise<StoreWorker> {
  const entry = new URL('./apps-script-store.ts', import.meta.url).href;
  const worker = new Worker(STORE_WORKER, {
    eval: true,
    workerData: { entry, tsx: import.meta.resolve('tsx/esm/api') },
  });
  const first = await new Promise<unknown>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  if (first !== 'ready') throw new Error(`store worker failed: ${JSON.stringify(first)}`);
  return {
    async connect() {
      const { port1, port2 } = new MessageChannel();
      const done = new Promise((r) => worker.once('message', r));
      worker.postMessage({ port: port2 }, [port2]);
      await done;
      return port1;
    },
    async close() {
      await worker.terminate();
    },
  };
}
