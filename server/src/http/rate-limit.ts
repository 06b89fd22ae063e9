import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { RedisStore } from 'rate-limit-redis';
import type { RedisReply } from 'rate-limit-redis';
import { sendError } from './errors.ts';

/**
 * A per-client-IP limit kept in Redis, so every gateway behind a load balancer counts together.
 * A limit of 0 turns it off.
 */
export function perMinuteLimit(redis: Redis, prefix: string, name: string, limit: number): RequestHandler {
  if (limit <= 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new RedisStore({
      prefix: `${prefix}:rl:${name}:`,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, res) => {
      res.status(429).json(sendError(429, 'rate_limited', 'Too many requests. Please wait a minute and try again.'));
    },
  });
}
