import { checkReadiness } from '@duet/platform/readiness';
import type { Readiness } from '@duet/platform/readiness';
import type { RequestHandler } from 'express';
import { redisWritable } from '@duet/platform/redis-connection';
import type { RedisClient } from '@duet/platform/redis-connection';
import type { Db } from '../infra/db.ts';

/**
 * `GET /healthz`: liveness. It answers 200 whenever the event loop runs and touches nothing else,
 * so an outage of Redis or PostgreSQL never gets a gateway restarted (it would come back to the
 * same outage, having dropped its viewers).
 */
export const liveness: RequestHandler = (_req, res) => {
  res.json({ ok: true });
};

export interface ReadinessDeps {
  db: Db;
  redis: RedisClient;
  /** Every migration the code expects in `pgmigrations` (`migrationNames()`). */
  migrations: readonly string[];
  /** True once the gateway started to shut down. */
  draining: () => boolean;
}

/** The migrations node-pg-migrate applied; null when its table does not exist yet. */
export async function appliedMigrations(db: Db): Promise<Set<string> | null> {
  try {
    const { rows } = await db.query<{ name: string }>('SELECT name FROM pgmigrations');
    return new Set(rows.map((r) => r.name));
  } catch (err) {
    if ((err as { code?: unknown }).code === '42P01') return null;
    throw err;
  }
}

export const gatewayReadiness = (deps: ReadinessDeps): Promise<Readiness> =>
  checkReadiness({
    appliedMigrations: () => appliedMigrations(deps.db),
    redisWritable: () => redisWritable(deps.redis),
    expectedMigrations: deps.migrations,
    draining: deps.draining,
  });

/**
 * `GET /readyz`: readiness. 200 when Redis and PostgreSQL answer within a second, every migration
 * is applied and the gateway is not shutting down; else 503 naming what is wrong. A draining
 * gateway answers 503, so load balancers stop sending it new viewers.
 */
export function readiness(deps: ReadinessDeps): RequestHandler {
  return async (_req, res) => {
    const state = await gatewayReadiness(deps);
    res.status(state.ok ? 200 : 503).json(state);
  };
}
