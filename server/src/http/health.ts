import type { Readiness } from '@duet/platform/readiness';
import type { RequestHandler } from 'express';

/**
 * `GET /healthz`: liveness. It answers 200 whenever the event loop runs and touches nothing else,
 * so an outage of Redis or PostgreSQL never gets a gateway restarted (it would come back to the
 * same outage, having dropped its viewers).
 */
export const liveness: RequestHandler = (_req, res) => {
  res.json({ ok: true });
};

/**
 * `GET /readyz`: readiness (`readinessOf` of `@duet/platform/readiness`). 200 when Redis and
 * PostgreSQL answer within a second, every migration is applied and the gateway is not shutting
 * down; else 503 naming what is wrong. A draining gateway answers 503, so load balancers stop
 * sending it new viewers.
 */
export function readiness(check: () => Promise<Readiness>): RequestHandler {
  return async (_req, res) => {
    const state = await check();
    res.status(state.ok ? 200 : 503).json(state);
  };
}
