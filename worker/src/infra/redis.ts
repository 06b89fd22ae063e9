import { Redis } from 'ioredis';

/** A Redis connection as BullMQ wants it (`maxRetriesPerRequest: null`). */
export const createRedis = (url: string, name: string): Redis =>
  new Redis(url, { maxRetriesPerRequest: null, connectionName: name });
