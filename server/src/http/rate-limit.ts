import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { RedisReply, SendCommandClusterDetails } from 'rate-limit-redis';
import type { RedisClient } from '../infra/redis.ts';
import { isCluster } from '../infra/redis.ts';
import { sendError } from './errors.ts';

/**
 * SCRIPT LOAD that does not fail: when Redis cannot take it (down, or a blip at start), the answer
 * is the script's SHA1, which is what Redis answers. The store keeps the promise of its script's
 * SHA for good and loads again only on NOSCRIPT: a rejected load would fail every rate-limited
 * request until a restart. With the SHA, the next EVALSHA finds the script missing once Redis is
 * back, and the store loads it then. Why Redis refused goes to `onRefused`.
 */
async function loadScript(load: () => Promise<unknown>, args: string[], onRefused: (err: unknown) => void): Promise<RedisReply> {
  const [sub, script] = args;
  if (sub?.toUpperCase() !== 'LOAD' || script === undefined) return load() as Promise<RedisReply>;
  return load().then(
    (sha) => sha as RedisReply,
    (err: unknown) => {
      onRefused(err);
      return createHash('sha1').update(script).digest('hex');
    },
  );
}

/**
 * How the store reaches Redis. On a cluster its counters' scripts run with EVALSHA on the node of
 * each key, so SCRIPT LOAD goes to every master (a random node would leave the others without
 * the script; the store loads it again on NOSCRIPT, on every master again, so a master added
 * later gets it too).
 */
function storeCommands(redis: RedisClient, onRefused: (err: unknown) => void) {
  const isScript = (name: string | undefined) => name?.toUpperCase() === 'SCRIPT';
  if (!isCluster(redis)) {
    return {
      sendCommand: (command: string, ...args: string[]) => {
        const send = () => redis.call(command, ...args) as Promise<RedisReply>;
        return isScript(command) ? loadScript(send, args, onRefused) : send();
      },
    };
  }
  return {
    sendCommandCluster: async ({ command: [name, ...args] }: SendCommandClusterDetails): Promise<RedisReply> => {
      if (isScript(name)) {
        return loadScript(async () => (await Promise.all(redis.nodes('master').map((node) => node.call('SCRIPT', ...args))))[0], args, onRefused);
      }
      return redis.call(name!, ...args) as Promise<RedisReply>;
    },
  };
}

/**
 * A per-client-IP limit kept in Redis, so every gateway behind a load balancer counts together.
 * A limit of 0 turns it off.
 */
export function perMinuteLimit(redis: RedisClient, prefix: string, name: string, limit: number, logger: Pick<Logger, 'warn'>): RequestHandler {
  if (limit <= 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    store: new RedisStore({
      prefix: `${prefix}:rl:${name}:`,
      ...storeCommands(redis, (err) => logger.warn({ err, limit: name }, 'Redis refused the rate limiter’s script: limited requests fail until it takes it')),
    }),
    handler: (_req, res) => {
      res.status(429).json(sendError(429, 'rate_limited', 'Too many requests. Please wait a minute and try again.'));
    },
  });
}
