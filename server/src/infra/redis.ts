import { once } from 'node:events';
import { Redis } from 'ioredis';

/**
 * Opens a Redis connection. By default as BullMQ and subscribers want it (`maxRetriesPerRequest:
 * null`: commands wait for a reconnect). A `failFast` one serves requests: while Redis is
 * unreachable its commands fail at once (and any command fails after a second), so an API call
 * answers 503 instead of hanging.
 */
export function createRedis(url: string, name: string, opts: { failFast?: boolean } = {}): Redis {
  return opts.failFast
    ? new Redis(url, { connectionName: name, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 })
    : new Redis(url, { maxRetriesPerRequest: null, connectionName: name });
}

/** Waits until the connection is ready (a fail-fast connection refuses commands before that). */
export async function redisReady(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') await once(redis, 'ready');
}

/** Resolves with `fn`'s result, or rejects after `ms`: health checks must answer within a second. */
export async function within<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([fn(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
