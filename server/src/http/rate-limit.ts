import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { RedisReply, SendCommandClusterDetails } from 'rate-limit-redis';
import type { RedisClient } from '../infra/redis.ts';
import { isCluster } from '../infra/redis.ts';
import { sendError } from './errors.ts';

/**
 * How the store reaches Redis. On a cluster its counters' scripts run with EVALSHA on the node of
 * each key, so SCRIPT LOAD goes to every master (a random node would leave the others without
 * the script; the store loads it again on NOSCRIPT, on every master again, so a master added
 * later gets it too).
 */
function storeCommands(redis: RedisClient) {
  if (!isCluster(redis)) {
    return { sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply> };
  }
  return {
    sendCommandCluster: async ({ command: [name, ...args] }: SendCommandClusterDetails): Promise<RedisReply> => {
      if (name?.toUpperCase() === 'SCRIPT') {
        const shas = await Promise.all(redis.nodes('master').map((node) => node.call('SCRIPT', ...args)));
        return shas[0] as RedisReply;
      }
      return redis.call(name!, ...args) as Promise<RedisReply>;
    },
  };
}

/**
 * A per-client-IP limit kept in Redis, so every gateway behind a load balancer counts together.
 * A limit of 0 turns it off.
 */
export function perMinuteLimit(redis: RedisClient, prefix: string, name: string, limit: number): RequestHandler {
  if (limit <= 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new RedisStore({ prefix: `${prefix}:rl:${name}:`, ...storeCommands(redis) }),
    handler: (_req, res) => {
      res.status(429).json(sendError(429, 'rate_limited', 'Too many requests. Please wait a minute and try again.'));
    },
  });
}
