import { once } from 'node:events';
import { Redis } from 'ioredis';

/**
 * A Redis connection. By default as BullMQ wants it (`maxRetriesPerRequest: null`: commands wait
 * for a reconnect). `failFast` ones answer at once with an error while Redis is unreachable, so
 * the caller decides: publishing retries or moves on, and nothing piles up in memory.
 */
export function createRedis(url: string, name: string, opts: { failFast?: boolean } = {}): Redis {
  // Commands issued in the same tick (hundreds of battles publishing) go out in one write.
  return opts.failFast
    ? new Redis(url, { connectionName: name, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 5_000, enableAutoPipelining: true })
    : new Redis(url, { maxRetriesPerRequest: null, connectionName: name });
}

/** Waits until the connection is ready (a fail-fast connection refuses commands before that). */
export async function redisReady(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') await once(redis, 'ready');
}
