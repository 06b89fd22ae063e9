import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LifecycleLogger } from './process-lifecycle.ts';
import { StartError } from './process-lifecycle.ts';

/** A listening HTTP server: the address to reach it at, and how to stop it. */
export interface Listening {
  url: string;
  close: () => Promise<void>;
}

/**
 * Starts `server` on `host:port` (0: a free port) and resolves once it listens, for the gateway's
 * public port and the operations ports alike; a port it cannot take rejects (one another process
 * holds, with a `StartError` naming `setting`, the setting that chooses it). Once it listens, its
 * errors go to `logger`: a connection it could not accept (`accept ENOBUFS`, `ENOMEM`; libuv
 * absorbs `EMFILE` itself) would otherwise end the process, though the server goes on listening.
 * The URL names a wildcard host as 127.0.0.1; closing also cuts keep-alive connections.
 */
export async function listen(server: Server, port: number, host: string, logger: Pick<LifecycleLogger, 'error'>, setting?: string): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    const refused = (err: Error & { code?: unknown }) => {
      if (err.code !== 'EADDRINUSE' || !setting) return reject(err);
      reject(new StartError(`port ${port} on ${host} is taken (by another Duet process on this host?): set ${setting} to a free port, or 0 for any free one`));
    };
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
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
