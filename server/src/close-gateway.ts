import type { Server } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { settlesWithin } from '@duet/platform/timeout';
import { drainWithin } from './http/http-server.ts';

/** Everything a gateway started, in the order its close needs them. */
export interface GatewayParts {
  httpServer: Server;
  /** Stops Socket.IO, which closes the HTTP server to new connections. */
  closeSockets: () => Promise<void>;
  /** Work that must go out while Redis is still there (the last votes' refit mark, their win rates). */
  flush: Array<() => Promise<unknown> | void>;
  /** Queues, Redis connections, Firebase, PostgreSQL: each closed, none waited on for long. */
  closers: Array<() => Promise<unknown>>;
  ops: { close: () => Promise<void> };
}

/**
 * Stops a gateway within `timeoutMs`: it keeps serving for `drainDelayMs` (at most half the bound)
 * while `/readyz` answers 503, so load balancers stop sending viewers here; then it stops taking
 * connections and lets open requests finish, cutting what is left near the end; then what is
 * still waiting goes out, and the connections close, each step waiting at most a second.
 */
export async function closeGateway(parts: GatewayParts, o: { timeoutMs: number; drainDelayMs: number }): Promise<void> {
  const started = Date.now();
  await delay(Math.min(o.drainDelayMs, o.timeoutMs / 2));
  const left = () => Math.max(0, o.timeoutMs - (Date.now() - started));
  await drainWithin(parts.httpServer, parts.closeSockets(), left());
  const quietly = (p: Promise<unknown>) => settlesWithin(p, Math.min(1_000, left()));
  for (const step of parts.flush) await quietly(Promise.resolve(step()));
  for (const close of parts.closers) await quietly(close());
  await parts.ops.close();
}
