/**
 * Node entry: everything of `index.ts`, plus the undici transport and a `createLinenClient` that uses it
 * unless another transport is given.
 */
import { createLinenClient as createWithTransport, type LinenClient, type LinenClientOptions } from './client.ts';
import type { AsyncTransport } from './core/effects.ts';
import { UndiciTransport, type UndiciTransportOptions } from './transport/undici.ts';

export * from './index.ts';
export { UndiciTransport, type UndiciTransportOptions } from './transport/undici.ts';

export interface NodeClientOptions extends LinenClientOptions {
  /** Defaults to a new keep-alive undici transport, closed by `client.close()`. */
  transport?: AsyncTransport;
  undici?: UndiciTransportOptions;
}

export function createLinenClient(options: NodeClientOptions): LinenClient {
  const transport = options.transport ?? new UndiciTransport(options.undici);
  return createWithTransport({ ...options, transport });
}
