import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LifecycleLogger } from './process-lifecycle.ts';

/** A listening HTTP server: the address to reach it at, and how to stop it. */
export interface Listening {
  url: string;
  close: () => Promise<void>;
}

/**
 * Starts `server` on `host:port` (0: a free port) and resolves once it listens, for the gateway's
 * public port and the operations ports alike; a port it cannot take rejects. Once it listens, its
 * errors go to `logger`: a connection it could not accept (`accept ENOBUFS`, `ENOMEM`; libuv
 * absorbs `EMFILE` itself) would otherwise end the process, though the server goes on listening.
 * The URL names a wildcard host as 127.0.0.1; closing also cuts keep-alive connections.
 */
export async function listen(server: Server, port: number, host: string, logger: Pick<LifecycleLogger, 'error'>): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = (server.address() as AddressInfo).port;
  server.on('error', (err) => logger.error({ err, port: address }, 'the server could not take a connection'));
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${shown.includes(':') ? `[${shown}]` : shown}:${address}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
