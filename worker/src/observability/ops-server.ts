import { createServer } from 'node:http';
import { migrationNames } from '@duet/platform/migrations';
import { checkReadiness } from '@duet/platform/readiness';
import { redisWritable } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Db } from '../infra/db.ts';
import { listen } from '@duet/platform/listen';

export interface OpsServer {
  /** e.g. `http://127.0.0.1:9464`. */
  url: string;
  close: () => Promise<void>;
}

export interface OpsServerDeps {
  host: string;
  port: number;
  registry: Registry;
  db: Db;
  redis: RedisClient;
  /** True once the worker started to shut down. */
  draining: () => boolean;
  logger: Logger;
}

/**
 * The worker's own HTTP port (WORKER_HTTP_PORT), for Prometheus and the orchestrator only:
 * `/metrics`; `/healthz` (alive: 200 while the event loop runs, touching nothing); `/readyz` (Redis
 * and PostgreSQL answer within a second, migrations applied, not shutting down; else 503 naming
 * what is wrong).
 */
export async function startOpsServer(deps: OpsServerDeps): Promise<OpsServer> {
  const expectedMigrations = migrationNames();
  const appliedMigrations = async () => {
    try {
      const { rows } = await deps.db.query<{ name: string }>('SELECT name FROM pgmigrations');
      return new Set(rows.map((r) => r.name));
    } catch (err) {
      if ((err as { code?: unknown }).code === '42P01') return null;
      throw err;
    }
  };
  const server = createServer((req, res) => {
    const send = (status: number, type: string, body: string) => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json; charset=utf-8', JSON.stringify(body));
    const route = `${req.method} ${(req.url ?? '').split('?')[0]}`;
    const answer = async () => {
      switch (route) {
        case 'GET /metrics':
          return send(200, deps.registry.contentType, await deps.registry.metrics());
        case 'GET /healthz':
          return json(200, { ok: true });
        case 'GET /readyz': {
          const state = await checkReadiness({
            appliedMigrations,
            redisWritable: () => redisWritable(deps.redis),
            expectedMigrations,
            draining: deps.draining,
          });
          return json(state.ok ? 200 : 503, state);
        }
        default:
          return json(404, { error: { code: 'not_found', message: `No route for ${route.slice(0, 200)}` } });
      }
    };
    answer().catch((err: unknown) => {
      deps.logger.error({ err, route: route.slice(0, 200) }, 'the worker HTTP port failed to answer');
      if (!res.headersSent) json(500, { error: { code: 'internal', message: 'Something went wrong.' } });
      else res.destroy();
    });
  });
  return listen(server, deps.port, deps.host, deps.logger);
}
