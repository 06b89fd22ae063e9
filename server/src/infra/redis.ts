import { createRedisConnection } from '@duet/platform/redis-connection';
import type { RedisClient, RedisTarget } from '@duet/platform/redis-connection';

export type { RedisClient, RedisTarget } from '@duet/platform/redis-connection';
export { connectionNameOf, isCluster, redisReady, waitForRedis } from '@duet/platform/redis-connection';

/**
 * Opens a Redis connection (one server, or the cluster the target names). By default as BullMQ
 * and subscribers want it (`maxRetriesPerRequest: null`: commands wait for a reconnect). A
 * `failFast` one serves requests: while Redis is unreachable its commands fail at once (and any
 * command fails after a second), so an API call answers 503 instead of hanging. A `sharded`
 * one subscribes to sharded channels on a cluster.
 */
export function createRedis(target: RedisTarget, name: string, opts: { failFast?: boolean; sharded?: boolean } = {}): RedisClient {
  return createRedisConnection(target, name, { failFast: opts.failFast, commandTimeoutMs: 1_000, shardedSubscriber: opts.sharded });
}
