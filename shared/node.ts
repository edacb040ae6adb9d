/**
 * Node entry: everything of `index.ts`, plus the undici transport and a `createLinenClient` that uses it
 * unless another transport is given, and answers shared by the process's clients of one key.
 */
import { createLinenClient as createWithTransport, type LinenClient, type LinenClientOptions } from './client.ts';
import type { AsyncTransport } from './core/effects.ts';
import { runAsync } from './core/run.ts';
import type { SharedAnswers } from './sharing/shared-answers.ts';
import { UndiciTransport, type UndiciTransportOptions } from './transport/undici.ts';

export * from './index.ts';
export { freshnessMs } from './sharing/freshness.ts';
export { processAnswers, SharedAnswers } from './sharing/shared-answers.ts';
export { UndiciTransport, type UndiciTransportOptions } from './transport/undici.ts';

export interface NodeClientOptions extends LinenClientOptions {
  /** Defaults to a new keep-alive undici transport, closed by `client.close()`. */
  transport?: AsyncTransport;
  undici?: UndiciTransportOptions;
  /**
   * Share answers with the other clients of the same key that are given the same registry (`processAnswers`
   * for the whole process): identical requests in flight are sent once, and answers reused while fresh
   * (`sharing/freshness.ts`). Default: none, every call asks the API.
   */
  sharedAnswers?: SharedAnswers | undefined;
}

/**
 * One set of keep-alive connections to the API for every key's clients in a process (the service's): a key is a
 * header of each request, not of its connection, so a thousand connected keys need not hold a thousand pools (and
 * as many TLS handshakes). `shared` has no `close`, so no client closes it for the others; `close` ends it.
 */
export function sharedTransport(options: UndiciTransportOptions = {}): {
  shared: AsyncTransport;
  close(): Promise<void>;
} {
  const transport = new UndiciTransport({ connections: 64, ...options });
  return { shared: { request: (req, o) => transport.request(req, o) }, close: () => transport.close() };
}

export function createLinenClient(options: NodeClientOptions): LinenClient {
  const transport = options.transport ?? new UndiciTransport(options.undici);
  const runOpts = options.now ? { now: options.now } : {};
  const sharing = options.sharedAnswers?.forKey(options.apiKey, (op, signal) =>
    runAsync(op, transport, { ...runOpts, signal }),
  );
  return createWithTransport({ ...options, transport, sharing });
}
