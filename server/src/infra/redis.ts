import { Redis } from 'ioredis';

/**
 * Opens a Redis connection. `maxRetriesPerRequest: null` is what BullMQ requires of the
 * connections it is given, and suits subscribers too.
 */
export function createRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}
