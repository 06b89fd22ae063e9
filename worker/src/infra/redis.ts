import { createRedisConnection } from '@duet/platform/redis-connection';
import type { RedisClient, RedisTarget } from '@duet/platform/redis-connection';

export type { RedisClient, RedisTarget } from '@duet/platform/redis-connection';
export { isCluster, redisReady, waitForRedis } from '@duet/platform/redis-connection';

/**
 * A Redis connection (one server, or the cluster the target names). By default as BullMQ wants
 * it (`maxRetriesPerRequest: null`: commands wait for a reconnect). `failFast` ones answer at
 * once with an error while Redis is unreachable, so the caller decides: publishing retries or
 * moves on, and nothing piles up in memory.
 */
export function createRedis(target: RedisTarget, name: string, opts: { failFast?: boolean } = {}): RedisClient {
  // Commands issued in the same tick (hundreds of battles publishing) go out in one write.
  return createRedisConnection(target, name, opts.failFast ? { failFast: true, commandTimeoutMs: 5_000, autoPipelining: true } : {});
}
