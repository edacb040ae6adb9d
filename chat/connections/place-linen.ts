/**
 * Which Linen client answers a command: resolved per workspace and channel, never from a module-level key.
 * Single-workspace mode (and the console) answer with the one key of the environment, everywhere; multi-workspace
 * mode with the key an admin bound to the channel (or the workspace default), from the connection store, with a
 * client reused from a small LRU keyed by the key's fingerprint.
 */
import { ConfigurationError, type LinenClient } from '../../shared/node.ts';
import { LinenService } from '../linen.ts';
import { type AccountingAccess, keyForChannel } from './connection.ts';
import type { ConnectionStore, OpenedKey } from './connection-store.ts';
import { Lru } from './lru.ts';

/** Where accounting answers may appear; `anywhere` in single-workspace mode (as before connections existed). */
export type AccountingPolicy = 'anywhere' | AccountingAccess;

export type Resolution =
  | {
      kind: 'ready';
      linen: LinenService;
      /** The key's fingerprint (what digest subscriptions store); undefined without a key. */
      keyRef: string | undefined;
      /** Every key fingerprint of the workspace (digests set up with another are reported as replaced). */
      keyRefs: string[];
      accounting: AccountingPolicy;
    }
  | { kind: 'not-connected' };

/** Where a command is typed: the workspace or tenant, and the channel or chat. */
export interface Place {
  orgId: string | null | undefined;
  channelId: string;
  /** A direct message (Slack) or a 1:1 chat with the bot (Teams): accounting answers there follow their own rule. */
  privateChat?: boolean | undefined;
}

export interface WorkspaceLinen {
  for(place: Place): Promise<Resolution>;
  /** The client for a key fingerprint (digests), or a rejection when no stored or configured key has it. */
  clientForKeyRef(keyRef: string): Promise<LinenClient>;
  close(): Promise<void>;
}

export function singleWorkspaceLinen(linen: LinenService, keyRef: string | undefined): WorkspaceLinen {
  const ready: Resolution = { kind: 'ready', linen, keyRef, keyRefs: keyRef ? [keyRef] : [], accounting: 'anywhere' };
  return {
    for: async () => ready,
    clientForKeyRef: async () => linen.backgroundClient,
    // The bot that made the service closes it.
    close: async () => {},
  };
}

/** Builds the service for an opened key (tests pass clients that count requests). */
export type ServiceFactory = (key: OpenedKey) => LinenService;

export const defaultServiceFactory: ServiceFactory = (key) =>
  new LinenService({ apiKey: key.apiKey, baseUrl: key.baseUrl, timeZone: key.timeZone });

export interface ConnectedWorkspaceLinenOptions {
  connections: ConnectionStore;
  createService?: ServiceFactory | undefined;
  /** Clients kept open (default 50). */
  maxClients?: number | undefined;
}

export function connectedWorkspaceLinen(options: ConnectedWorkspaceLinenOptions): WorkspaceLinen {
  const create = options.createService ?? defaultServiceFactory;
  const services = new Lru<string, LinenService>(options.maxClients ?? 50, (service) => {
    void service.close().catch(() => {});
  });
  // The LRU key is the key's fingerprint with where it points: the same key at another address is another client.
  const serviceFor = (key: OpenedKey): LinenService => {
    const id = `${key.keyRef} ${key.baseUrl} ${key.timeZone}`;
    let service = services.get(id);
    if (!service) {
      service = create(key);
      services.set(id, service);
    }
    return service;
  };
  return {
    async for({ orgId, channelId }) {
      const connection = orgId ? await options.connections.get(orgId) : null;
      const bound = connection ? keyForChannel(connection, channelId) : undefined;
      if (!connection || !bound || !orgId) return { kind: 'not-connected' };
      const opened = await options.connections.openKey(orgId, bound.place);
      if (!opened) return { kind: 'not-connected' };
      return {
        kind: 'ready',
        linen: serviceFor(opened),
        keyRef: opened.keyRef,
        keyRefs: connection.keys.map((k) => k.keyRef),
        accounting: connection.accounting,
      };
    },
    async clientForKeyRef(keyRef) {
      const opened = await options.connections.openKeyByRef(keyRef);
      if (!opened) {
        throw new ConfigurationError(
          'no connected key matches this key reference',
          'The Linen key this digest was set up with is no longer connected; subscribe again with the current key.',
        );
      }
      return serviceFor(opened).backgroundClient;
    },
    async close() {
      await Promise.all(services.clear().map((s) => s.close().catch(() => {})));
    },
  };
}
