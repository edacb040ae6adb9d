/**
 * Digest subscriptions never store an API key: they store a key reference, a stable fingerprint of the key,
 * and the worker turns it back into a client with the keys of its own configuration.
 */
import { createHash } from 'node:crypto';
import { ConfigurationError, type LinenClient } from '../shared/node.ts';

/** A stable, non-secret name for an API key. */
export function keyRefOf(apiKey: string): string {
  return `key_${createHash('sha256').update(apiKey).digest('hex').slice(0, 16)}`;
}

/**
 * `linenClientFor(keyRef)` over the configured keys, one client per key. A reference to a key that is no longer
 * configured (rotated away) is a ConfigurationError saying so.
 */
export interface KeyRefClients {
  (keyRef: string): LinenClient;
  /** Closes every client made so far. */
  close(): Promise<void>;
}

export function clientsByKeyRef(apiKeys: readonly string[], create: (apiKey: string) => LinenClient): KeyRefClients {
  const keys = new Map(apiKeys.map((key) => [keyRefOf(key), key]));
  const clients = new Map<string, LinenClient>();
  const clientFor = (keyRef: string): LinenClient => {
    let client = clients.get(keyRef);
    if (client) return client;
    const key = keys.get(keyRef);
    if (!key) {
      throw new ConfigurationError(
        // Never echo the argument: a caller passing a key by mistake must not see it in an error.
        'no configured API key matches this key reference',
        'The Linen API key this digest was set up with is no longer configured; subscribe again with the current key.',
      );
    }
    client = create(key);
    clients.set(keyRef, client);
    return client;
  };
  return Object.assign(clientFor, {
    close: async () => {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  });
}
