/**
 * A TCP proxy in front of a server (PostgreSQL) that a test can cut and restore: `cut()` drops every open
 * connection and refuses new ones, as a restarting server does; `restore()` lets connections through again.
 */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** The URL with the proxy's port in place of the target's. */
  urlFor(url: string): string;
  /** Drops every open connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  /** Connections passed through since the start (each new one is the pool reconnecting). */
  readonly accepted: number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  let accepted = 0;
  const server = createServer((client) => {
    if (down) return client.destroy();
    accepted++;
    const upstream = connect(target.port, target.host);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('error', () => {});
      s.on('close', () => open.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    urlFor(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.href;
    },
    cut() {
      down = true;
      for (const s of open) s.destroy();
    },
    restore() {
      down = false;
    },
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };
}
