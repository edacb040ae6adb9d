/** Starts a node:http(s) server on a port (0: any free one) and closes it with its open connections. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  address: string;
  close(): Promise<void>;
}

export async function listen(server: Server, port: number, host?: string | undefined): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, ...(host ? { host } : {}) }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound, address } = server.address() as AddressInfo;
  return {
    port: bound,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open until they time out.
        server.closeAllConnections();
      }),
  };
}
