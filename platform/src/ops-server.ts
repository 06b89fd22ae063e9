import { createServer } from 'node:http';
import type { Registry } from 'prom-client';
import type { Listening } from './listen.ts';
import { listen } from './listen.ts';
import type { LifecycleLogger } from './process-lifecycle.ts';
import type { Readiness } from './readiness.ts';

export interface OpsServerOptions {
  host: string;
  port: number;
  /** The setting that chooses the port (`METRICS_PORT`, `WORKER_HTTP_PORT`), named when the port is taken. */
  portSetting: string;
  registry: Registry;
  readiness: () => Promise<Readiness>;
  logger: Pick<LifecycleLogger, 'error'>;
}

/**
 * A process's operations port, the same for gateway and worker, for Prometheus and the orchestrator
 * only (never published through the load balancer): `/metrics`; `/healthz` (alive: 200 while the
 * event loop runs, touching nothing, so an outage of Redis or PostgreSQL never gets a process
 * restarted); `/readyz` (200 when ready, else 503 naming what is wrong). A port another process
 * holds stops the start with a `StartError` that names the port and the setting to change.
 */
export async function startOpsServer(o: OpsServerOptions): Promise<Listening> {
  const server = createServer((req, res) => {
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json; charset=utf-8', JSON.stringify(body));
    const path = (req.url ?? '').split('?')[0] ?? '';
    const route = `${req.method} ${path}`.slice(0, 200);
    const answer = async () => {
      switch (route) {
        case 'GET /metrics':
          return send(200, o.registry.contentType, await o.registry.metrics());
        case 'GET /healthz':
          return json(200, { ok: true });
        case 'GET /readyz': {
          const state = await o.readiness();
          return json(state.ok ? 200 : 503, state);
        }
        default:
          return json(404, { error: { code: 'not_found', message: `No route for ${route}` } });
      }
    };
    answer().catch((err: unknown) => {
      o.logger.error({ err, route }, 'the operations port failed to answer');
      if (!res.headersSent) json(500, { error: { code: 'internal', message: 'Something went wrong.' } });
      else res.destroy();
    });
  });
  return listen(server, o.port, o.host, o.logger, o.portSetting);
}
