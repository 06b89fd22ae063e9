import { createServer } from 'node:http';
import express from 'express';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { errorHandler, notFoundHandler } from '../http/errors.ts';
import { liveness } from '../http/health.ts';
import { listen } from '@duet/platform/listen';

export interface OpsServer {
  /** e.g. `http://127.0.0.1:9465`. */
  url: string;
  close: () => Promise<void>;
}

/**
 * The gateway's internal listener (METRICS_PORT): `/metrics` for Prometheus, and `/healthz` and
 * `/readyz` as on the public port. Metrics are never served on the public port: this one is for
 * the scraper and the orchestrator, and is not published through the load balancer.
 */
export async function startOpsServer(deps: { host: string; port: number; registry: Registry; readiness: RequestHandler; logger: Logger }): Promise<OpsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', async (_req, res) => {
    const body = await deps.registry.metrics();
    res.set('Content-Type', deps.registry.contentType).send(body);
  });
  app.get('/healthz', liveness);
  app.get('/readyz', deps.readiness);
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));

  const server = createServer(app);
  return listen(server, deps.port, deps.host, deps.logger);
}
